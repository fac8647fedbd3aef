// A bound on the field speed one browser can add. A page load reports its field speed once, but a
// script can send reports as fast as the events' rate limit lets it, and a page's 75th percentile
// would then be whatever that script says. So each visitor (one browser on one UTC day, as the
// reports count visitors, named by the day's visit hash, held in memory only) adds at most
// `perVisitor` reports a day: more page loads than a person reading the site makes. The visitors
// remembered are bounded too; once `visitors` are known for the day, a new one's reports are not
// counted until the next day (a flood of made-up browsers cannot make the server hold more).
export const VITALS_PER_VISITOR_PER_DAY = 50;
export const VITALS_VISITORS_PER_DAY = 50_000;

export type VitalsCap = {
  /** Whether `visit` may add one more report on `day` (counting it when it may). */
  take(visit: string, day: string): boolean;
};

export function createVitalsCap({
  perVisitor = VITALS_PER_VISITOR_PER_DAY,
  visitors = VITALS_VISITORS_PER_DAY,
}: { perVisitor?: number; visitors?: number } = {}): VitalsCap {
  let today = '';
  let taken = new Map<string, number>();
  return {
    take(visit, day) {
      // A report of an earlier day (a clock at midnight) is counted against today's.
      if (day > today) {
        today = day;
        taken = new Map();
      }
      const count = taken.get(visit);
      if (count === undefined && taken.size >= visitors) return false;
      if ((count ?? 0) >= perVisitor) return false;
      taken.set(visit, (count ?? 0) + 1);
      return true;
    },
  };
}
