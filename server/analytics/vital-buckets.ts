// Field speed is kept as a histogram, not as raw values: per UTC day, page and metric, how many page
// loads fell in each of a fixed set of buckets. That is all a 75th percentile needs, it keeps no row
// per visitor, and a busy page adds a few hundred rows a day at most, however many visitors it has.
//
// The buckets grow geometrically, each 4 % wider than the one below, from one unit (1 ms for the two
// times, 0.0001 for the layout score) to the largest value taken (60 s, a score of 10); a value under
// one unit is its own bucket, read as 0. A percentile is read as its bucket's geometric middle in
// whole units, which is within 2 % (√1.04 − 1) and one unit (1 ms; 0.0001 of layout score) of the
// page load's own value at that rank: 2.5 s reads between 2.45 s and 2.55 s, close enough that a
// rating moves only for a value within 2 % of its threshold. Both stores
// count with these functions, so they agree to the bucket.
import { VITAL_LIMITS, type VitalName } from '../../lead/beacon-event.ts';
import { saltDay } from './visit-hash.ts';

/** Each bucket's upper bound over its lower bound. */
export const BUCKET_RATIO = 1.04;
/** The smallest value told apart from 0, in each metric's own unit. */
export const VITAL_UNITS: Readonly<Record<VitalName, number>> = { LCP: 1, INP: 1, CLS: 0.0001 };
export const VITAL_NAMES = Object.keys(VITAL_LIMITS) as VitalName[];

const LOG_RATIO = Math.log(BUCKET_RATIO);

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
 * A report's histogram rows (summed over the range, in any order) as pages: most page loads measured
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

/** Throws unless `minSamples` is a whole number of at least 1, and `path`, when given, a page's path. */
export function assertVitalsQuery(minSamples: number, path?: string): void {
  if (!Number.isInteger(minSamples) || minSamples < 1)
    throw new Error(`The minimum of samples is a whole number of at least 1, not ${minSamples}`);
  if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/')))
    throw new Error(`A page's path begins with "/", not "${path}"`);
}
