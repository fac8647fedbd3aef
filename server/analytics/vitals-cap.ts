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

/** The part of the shared limiter (server/rate-limits/shared-limiter.ts) the shared bound uses. */
type LimitHits = { hit(hit: { name: string; key: string; max: number; windowMs: number }): Promise<{ allowed: boolean }> };

/** One UTC day: the shared limiter's fixed windows start at multiples of their length since the epoch. */
const DAY_MS = 86_400_000;

/**
 * The same bound counted by every server together (PostgreSQL): a visitor's reports of the day are
 * counted by the shared limiter in a window of one UTC day, whichever server takes them; the counts
 * are deleted once the day is over. Each visitor is one row until then, and a browser string is
 * anyone's to make up, so each server brings at most `visitors` new visitors a day to the shared
 * count (as the count in memory does); a visitor past that is not counted until the next day.
 */
export function createSharedVitalsCap(
  limiter: LimitHits,
  {
    perVisitor = VITALS_PER_VISITOR_PER_DAY,
    visitors = VITALS_VISITORS_PER_DAY,
    now = Date.now,
  }: { perVisitor?: number; visitors?: number; now?: () => number } = {},
): { take(visit: string): Promise<boolean> } {
  let today = -1;
  let known = new Set<string>();
  return {
    async take(visit) {
      const day = Math.floor(now() / DAY_MS);
      if (day !== today) {
        today = day;
        known = new Set();
      }
      if (!known.has(visit)) {
        if (known.size >= visitors) return false;
        known.add(visit);
      }
      return (await limiter.hit({ name: 'analytics vitals', key: visit, max: perVisitor, windowMs: DAY_MS })).allowed;
    },
  };
}
