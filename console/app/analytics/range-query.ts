// The reports' range and split live in the address's query string, so a link or a reload shows the
// same reports. Reading it back keeps only what the API accepts: a day written YYYY-MM-DD and a split
// that exists. Days are UTC days, as the server counts them.
import { ANALYTICS_SPLITS, type AnalyticsSplit, type DayRange } from '../../api-types.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What the address asks for; a range end left out is the server's to fill in. */
export type AskedReports = { from?: string; to?: string; split: AnalyticsSplit };

export function reportsFromQuery(query: URLSearchParams): AskedReports {
  const asked: AskedReports = { split: 'none' };
  for (const key of ['from', 'to'] as const) {
    const day = query.get(key);
    if (day && DAY.test(day)) asked[key] = day;
  }
  const split = query.get('split');
  const known: readonly string[] = ANALYTICS_SPLITS;
  if (split && known.includes(split)) asked.split = split as AnalyticsSplit;
  return asked;
}

/** The reports asked for as the address's query: keys in one order, the defaults left out. */
export function queryFromReports(asked: AskedReports): URLSearchParams {
  const query = new URLSearchParams();
  if (asked.from) query.set('from', asked.from);
  if (asked.to) query.set('to', asked.to);
  if (asked.split !== 'none') query.set('split', asked.split);
  return query;
}

/** The UTC day of a moment, as the reports name days. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

export type RangePreset = { label: string; range: DayRange };

/** The ranges offered in one click, each ending today (UTC). */
export function rangePresets(now: number): RangePreset[] {
  const today = utcDay(now);
  const lastDays = (days: number): DayRange => ({ from: utcDay(now - (days - 1) * DAY_MS), to: today });
  return [
    { label: 'Last 7 days', range: lastDays(7) },
    { label: 'Last 30 days', range: lastDays(30) },
    { label: 'Last 90 days', range: lastDays(90) },
    { label: 'This year', range: { from: `${today.slice(0, 4)}-01-01`, to: today } },
  ];
}
