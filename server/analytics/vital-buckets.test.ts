// Field speed's histogram: any value read back from its bucket is within 4 % of itself and one unit,
// a metric needs at most a few hundred buckets, and the 75th percentile is the value at rank ⌈0.75 n⌉.
import { describe, expect, it } from 'vitest';
import { VITAL_LIMITS } from '../../lead/beacon-event.ts';
import { bucketOf, bucketValue, p75Of, VITAL_NAMES, VITAL_UNITS, vitalIncrements, vitalsPieces, weekOf } from './vital-buckets.ts';

describe('field speed buckets', () => {
  it('read every value back within 4 % and one unit, over the whole range a metric takes', () => {
    for (const metric of VITAL_NAMES) {
      const unit = VITAL_UNITS[metric];
      for (let value = unit / 2; value <= VITAL_LIMITS[metric]; value *= 1.0037) {
        const read = bucketValue(metric, bucketOf(metric, value));
        expect(Math.abs(read - value), `${metric} ${value} read as ${read}`).toBeLessThanOrEqual(value * 0.04 + unit + 1e-9);
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
    const p75 = p75Of(
      'LCP',
      rows.sort((a, b) => a.bucket - b.bucket),
    );
    expect(Math.abs(p75 - 400) / 400).toBeLessThanOrEqual(0.04);
    const twice = vitalIncrements([
      { at, path: '/', vitals: { CLS: 0.1 } },
      { at: at + 1, path: '/', vitals: { CLS: 0.1 } },
    ]);
    expect(twice).toEqual([{ day: '2026-11-27', path: '/', metric: 'CLS', bucket: bucketOf('CLS', 0.1), samples: 2 }]);
  });

  it('read a range as the whole months it covers, then whole weeks, then the days around them', () => {
    expect(vitalsPieces({ from: '2025-01-01', to: '2025-12-31' })).toEqual({
      months: { from: '2025-01', to: '2025-12' },
      weeks: [],
      days: [],
    });
    // 15 January 2025 is a Wednesday; 3 April a Thursday.
    expect(vitalsPieces({ from: '2025-01-15', to: '2025-04-03' })).toEqual({
      months: { from: '2025-02', to: '2025-03' },
      // The week of Monday 20 January is whole; the next one runs into February, whose month is read whole.
      weeks: [{ from: '2025-01-20', to: '2025-01-20' }],
      days: [
        { from: '2025-01-15', to: '2025-01-19' },
        { from: '2025-01-27', to: '2025-01-31' },
        { from: '2025-04-01', to: '2025-04-03' },
      ],
    });
    expect(vitalsPieces({ from: '2024-02-01', to: '2024-02-29' })).toEqual({
      months: { from: '2024-02', to: '2024-02' },
      weeks: [],
      days: [],
    });
    // The last 30 days on 27 November 2025 (a Thursday): no whole month, four whole weeks.
    expect(vitalsPieces({ from: '2025-10-29', to: '2025-11-27' })).toEqual({
      weeks: [{ from: '2025-11-03', to: '2025-11-17' }],
      days: [
        { from: '2025-10-29', to: '2025-11-02' },
        { from: '2025-11-24', to: '2025-11-27' },
      ],
    });
    expect(vitalsPieces({ from: '2025-11-25', to: '2025-11-27' })).toEqual({ weeks: [], days: [{ from: '2025-11-25', to: '2025-11-27' }] });
    expect(weekOf('2025-11-30')).toBe('2025-11-24');
    expect(weekOf('2025-11-24')).toBe('2025-11-24');
  });
});
