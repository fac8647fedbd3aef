// The reports' range, split, filters and chart metric live in the address's query string, so a link,
// a reload or the browser's back and forward show the same screen. Reading it back keeps only what
// the API accepts: a day written YYYY-MM-DD, a split and a metric that exist, and a filter's value as
// given ('' included: "no campaign" is a filter of its own, while a filter left out is none). Days
// are UTC days, as the server counts them.
import {
  ANALYTICS_FILTERS,
  ANALYTICS_SPLITS,
  SERIES_METRICS,
  type AnalyticsFilter,
  type AnalyticsSplit,
  type DayRange,
  type SeriesMetric,
} from '../../api-types.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What the address asks for; a range end left out is the server's to fill in. */
export type AskedReports = { from?: string; to?: string; split: AnalyticsSplit; filter?: AnalyticsFilter; metric?: SeriesMetric };

/** The filters the address names, in ANALYTICS_FILTERS order. */
export function filterFromQuery(query: URLSearchParams): AnalyticsFilter {
  const filter: AnalyticsFilter = {};
  for (const key of ANALYTICS_FILTERS) {
    const value = query.get(key);
    if (value !== null) filter[key] = value;
  }
  return filter;
}

export function reportsFromQuery(query: URLSearchParams): AskedReports {
  const asked: AskedReports = { split: 'none', filter: filterFromQuery(query) };
  const metric = query.get('metric');
  const metrics: readonly string[] = SERIES_METRICS;
  if (metric && metric !== 'visitors' && metrics.includes(metric)) asked.metric = metric as SeriesMetric;
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
  for (const key of ANALYTICS_FILTERS) {
    const value = asked.filter?.[key];
    if (value !== undefined) query.set(key, value);
  }
  if (asked.split !== 'none') query.set('split', asked.split);
  if (asked.metric !== undefined && asked.metric !== 'visitors') query.set('metric', asked.metric);
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
