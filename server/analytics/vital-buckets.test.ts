// Field speed's histogram: any value read back from its bucket is within 2 % of itself and one unit,
// a metric needs at most a few hundred buckets, and the 75th percentile is the value at rank ⌈0.75 n⌉.
import { describe, expect, it } from 'vitest';
import { VITAL_LIMITS } from '../../lead/beacon-event.ts';
import { bucketOf, bucketValue, p75Of, VITAL_NAMES, VITAL_UNITS, vitalIncrements } from './vital-buckets.ts';

describe('field speed buckets', () => {
  it('read every value back within 2 % and one unit, over the whole range a metric takes', () => {
    for (const metric of VITAL_NAMES) {
      const unit = VITAL_UNITS[metric];
      for (let value = unit / 2; value <= VITAL_LIMITS[metric]; value *= 1.0037) {
        const read = bucketValue(metric, bucketOf(metric, value));
        expect(Math.abs(read - value), `${metric} ${value} read as ${read}`).toBeLessThanOrEqual(value * 0.02 + unit + 1e-9);
      }
      expect(bucketOf(metric, 0)).toBe(0);
      expect(bucketOf(metric, VITAL_LIMITS[metric])).toBeLessThan(300);
    }
  });

  it('take the 75th percentile at rank ⌈0.75 n⌉, and sum a batch per day, page, metric and bucket', () => {
    const at = Date.parse('2026-11-27T12:00:00Z');
    const rows = vitalIncrements([100, 200, 300, 400, 2_500].map((LCP) => ({ at, path: '/', vitals: { LCP } })));
    expect(rows.reduce((sum, row) => sum + row.samples, 0)).toBe(5);
    // Rank 4 of 5 is the 400 ms page load.
    expect(
      p75Of(
        'LCP',
        rows.sort((a, b) => a.bucket - b.bucket),
      ),
    ).toBeCloseTo(400, -1);
    const twice = vitalIncrements([
      { at, path: '/', vitals: { CLS: 0.1 } },
      { at: at + 1, path: '/', vitals: { CLS: 0.1 } },
    ]);
    expect(twice).toEqual([{ day: '2026-11-27', path: '/', metric: 'CLS', bucket: bucketOf('CLS', 0.1), samples: 2 }]);
  });
});
