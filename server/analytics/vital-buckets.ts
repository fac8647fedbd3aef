// Field speed is kept as a histogram, not as raw values: per UTC day, page and metric, how many page
// loads fell in each of a fixed set of buckets. That is all a 75th percentile needs, it keeps no row
// per visitor, and a busy page adds a few hundred rows a day at most, however many visitors it has.
// The same counts are kept per week and per calendar month too, so a report over a year reads twelve
// months and the weeks and days around them, not 365 days of rows.
//
// The buckets grow geometrically, each 8 % wider than the one below, from one unit (1 ms for the two
// times, 0.0001 for the layout score) to the largest value taken (60 s, a score of 10); a value under
// one unit is its own bucket, read as 0. A percentile is read as its bucket's geometric middle in
// whole units, which is within 4 % (√1.08 − 1 = 3.9 %) and one unit (1 ms; 0.0001 of layout score)
// of the page load's own value at that rank: 2.5 s reads between 2.40 s and 2.60 s, close enough that
// a rating moves only for a value within 4 % of its threshold. Finer buckets would cost rows: a busy
// site fills about as many buckets as there are, every day and page. Both stores
// count with these functions, so they agree to the bucket.
import { VITAL_LIMITS, type VitalName } from '../../lead/beacon-event.ts';
import { saltDay } from './visit-hash.ts';

/** Each bucket's upper bound over its lower bound. */
export const BUCKET_RATIO = 1.08;
/** The smallest value told apart from 0, in each metric's own unit. */
export const VITAL_UNITS: Readonly<Record<VitalName, number>> = { LCP: 1, INP: 1, CLS: 0.0001 };
export const VITAL_NAMES = Object.keys(VITAL_LIMITS) as VitalName[];

const LOG_RATIO = Math.log(BUCKET_RATIO);
const DAY_MS = 24 * 60 * 60 * 1000;

/** The bucket a value falls in: 0 under one unit, then 1, 2, … each BUCKET_RATIO times wider. */
export function bucketOf(metric: VitalName, value: number): number {
  const units = Math.min(value, VITAL_LIMITS[metric]) / VITAL_UNITS[metric];
  return units < 1 ? 0 : 1 + Math.floor(Math.log(units) / LOG_RATIO);
}

/** The value a bucket stands for: its geometric middle (0 for the first), rounded to the metric's unit. */
export function bucketValue(metric: VitalName, bucket: number): number {
  if (bucket <= 0) return 0;
  const unit = VITAL_UNITS[metric];
  const units = Math.round(BUCKET_RATIO ** (bucket - 0.5));
  // Whole units, written without a binary fraction's tail (0.0412, not 0.041200000000000004).
  return Number((units * unit).toFixed(4));
}

/** One page load's field speed as the store takes it: when (ms), its page, and the values measured. */
export type VitalsSample = {
  readonly at: number;
  readonly path: string;
  readonly vitals: Readonly<Partial<Record<VitalName, number>>>;
};

/** A histogram row's key and its count: page loads of `path` on `day` whose `metric` fell in `bucket`. */
export type VitalBucketRow = {
  readonly day: string;
  readonly path: string;
  readonly metric: VitalName;
  readonly bucket: number;
  samples: number;
};

/** The batch's samples summed per histogram row, so each row is written once per batch. */
export function vitalIncrements(samples: readonly VitalsSample[]): VitalBucketRow[] {
  const rows = new Map<string, VitalBucketRow>();
  for (const { at, path, vitals } of samples) {
    const day = saltDay(at);
    for (const metric of VITAL_NAMES) {
      const value = vitals[metric];
      if (value === undefined || !Number.isFinite(value) || value < 0) continue;
      const bucket = bucketOf(metric, value);
      const key = JSON.stringify([day, path, metric, bucket]);
      const row = rows.get(key);
      if (row) row.samples++;
      else rows.set(key, { day, path, metric, bucket, samples: 1 });
    }
  }
  return [...rows.values()];
}

/**
 * The same counts summed per longer period, named in `day` by `periodOf` (a month "2026-11", a
 * week's Monday): the weekly and monthly roll-ups' rows.
 */
export function byPeriod(rows: readonly VitalBucketRow[], periodOf: (day: string) => string): VitalBucketRow[] {
  const periods = new Map<string, VitalBucketRow>();
  for (const row of rows) {
    const period = periodOf(row.day);
    const key = JSON.stringify([period, row.path, row.metric, row.bucket]);
    const found = periods.get(key);
    if (found) found.samples += row.samples;
    else periods.set(key, { ...row, day: period });
  }
  return [...periods.values()];
}

export const monthOf = (day: string) => day.slice(0, 7);

/** A metric's 75th percentile over a range, with the page loads it was measured on. */
export type VitalFigures = { readonly metric: VitalName; readonly p75: number; readonly samples: number };
/**
 * A page's field speed over a range: `measured` is the most page loads any metric was measured on;
 * `figures` holds only the metrics measured on at least the report's minimum.
 */
export type RouteVitals = { readonly path: string; readonly measured: number; readonly figures: readonly VitalFigures[] };

/**
 * The 75th percentile of a histogram (buckets ascending): the bucket of the page load at rank
 * ⌈0.75 n⌉, the nearest-rank definition, as the Chrome UX Report reads it.
 */
export function p75Of(metric: VitalName, buckets: readonly { bucket: number; samples: number }[]): number {
  const total = buckets.reduce((sum, row) => sum + row.samples, 0);
  const rank = Math.ceil(total * 0.75);
  let seen = 0;
  for (const row of buckets) {
    seen += row.samples;
    if (seen >= rank) return bucketValue(metric, row.bucket);
  }
  return 0;
}

/**
 * A report's histogram rows (in any order, a bucket's count in several rows when read from several
 * pieces of the range) as pages: most page loads measured
 * first, then by path; each page's figures in the order LCP, INP, CLS.
 */
export function toRouteVitals(rows: readonly Record<string, unknown>[], minSamples: number): RouteVitals[] {
  const pages = new Map<string, Map<VitalName, { bucket: number; samples: number }[]>>();
  for (const row of rows) {
    const path = String(row.path);
    const metric = String(row.metric) as VitalName;
    if (!VITAL_NAMES.includes(metric)) continue;
    const metrics = pages.get(path) ?? new Map<VitalName, { bucket: number; samples: number }[]>();
    pages.set(path, metrics);
    const buckets = metrics.get(metric) ?? [];
    metrics.set(metric, buckets);
    buckets.push({ bucket: Number(row.bucket), samples: Number(row.samples) });
  }
  const routes = [...pages].map(([path, metrics]): RouteVitals => {
    const counted = VITAL_NAMES.flatMap((metric) => {
      const buckets = (metrics.get(metric) ?? []).sort((a, b) => a.bucket - b.bucket);
      const samples = buckets.reduce((sum, row) => sum + row.samples, 0);
      return samples === 0 ? [] : [{ metric, samples, buckets }];
    });
    return {
      path,
      measured: Math.max(0, ...counted.map(({ samples }) => samples)),
      figures: counted
        .filter(({ samples }) => samples >= minSamples)
        .map(({ metric, samples, buckets }) => ({ metric, p75: p75Of(metric, buckets), samples })),
    };
  });
  return routes.sort((a, b) => b.measured - a.measured || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

type Span = { readonly from: string; readonly to: string };

/** The Monday (UTC) of the week a day is in, as that week's key in the weekly roll-up. */
export function weekOf(day: string): string {
  const at = Date.parse(`${day}T00:00:00Z`);
  // getUTCDay: Sunday 0 … Saturday 6; Monday starts the week.
  return saltDay(at - ((new Date(at).getUTCDay() + 6) % 7) * DAY_MS);
}

/** A span's whole weeks (their Mondays, first and last) and its days before and after them. */
function weeksAndDays(span: Span): { weeks?: Span; days: Span[] } {
  const start = Date.parse(`${span.from}T00:00:00Z`);
  const end = Date.parse(`${span.to}T00:00:00Z`);
  const monday = Date.parse(`${weekOf(span.from)}T00:00:00Z`);
  const firstWeek = monday === start ? start : monday + 7 * DAY_MS;
  const lastWeek =
    Date.parse(`${weekOf(span.to)}T00:00:00Z`) - (end - Date.parse(`${weekOf(span.to)}T00:00:00Z`) === 6 * DAY_MS ? 0 : 7 * DAY_MS);
  if (firstWeek > lastWeek) return { days: [span] };
  const days: Span[] = [];
  if (start < firstWeek) days.push({ from: span.from, to: saltDay(firstWeek - DAY_MS) });
  if (lastWeek + 6 * DAY_MS < end) days.push({ from: saltDay(lastWeek + 7 * DAY_MS), to: span.to });
  return { weeks: { from: saltDay(firstWeek), to: saltDay(lastWeek) }, days };
}

/**
 * Where a range's histogram rows are read from, so a long range reads few rows: the whole calendar
 * months it covers from the monthly roll-up, then the whole weeks (Monday to Sunday) of what is left
 * on either side from the weekly one, then the remaining days (at most six on either side) from the
 * daily one. A year is twelve months' rows instead of 365 days'.
 */
export function vitalsPieces(range: Span): { months?: Span; weeks: Span[]; days: Span[] } {
  const start = Date.parse(`${range.from}T00:00:00Z`);
  const end = Date.parse(`${range.to}T00:00:00Z`);
  const first = new Date(start);
  // The first month starting on or after `from`, and the end of the last ending on or before `to`.
  const firstMonth = first.getUTCDate() === 1 ? start : Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1);
  const last = new Date(end);
  const lastMonthEnd =
    Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, 1) - DAY_MS === end
      ? end
      : Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), 1) - DAY_MS;
  const spans: Span[] = [];
  let months: Span | undefined;
  if (firstMonth > lastMonthEnd) spans.push(range);
  else {
    months = { from: saltDay(firstMonth).slice(0, 7), to: saltDay(lastMonthEnd).slice(0, 7) };
    if (start < firstMonth) spans.push({ from: range.from, to: saltDay(firstMonth - DAY_MS) });
    if (lastMonthEnd < end) spans.push({ from: saltDay(lastMonthEnd + DAY_MS), to: range.to });
  }
  const split = spans.map(weeksAndDays);
  return {
    ...(months ? { months } : {}),
    weeks: split.flatMap(({ weeks }) => (weeks ? [weeks] : [])),
    days: split.flatMap(({ days }) => days),
  };
}

/** Throws unless `minSamples` is a whole number of at least 1, and `path`, when given, a page's path. */
export function assertVitalsQuery(minSamples: number, path?: string): void {
  if (!Number.isInteger(minSamples) || minSamples < 1)
    throw new Error(`The minimum of samples is a whole number of at least 1, not ${minSamples}`);
  if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/')))
    throw new Error(`A page's path begins with "/", not "${path}"`);
}
