import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber, formatNumberWithIntl } from './number-format.ts';

// The reference: the same options through Intl.NumberFormat.
const intl = formatNumberWithIntl;

const options = fc
  .record({
    maxDecimals: fc.integer({ min: 0, max: 3 }),
    extra: fc.integer({ min: 0, max: 3 }),
    usd: fc.boolean(),
    hideNegativeZero: fc.boolean(),
  })
  .map(({ maxDecimals, extra, usd, hideNegativeZero }) => ({
    minDecimals: Math.max(0, maxDecimals - extra),
    maxDecimals,
    usd,
    hideNegativeZero,
  }));

// Amounts as the site meets them (prices, ROI figures, hours) and awkward ones: halves, long fractions, tiny and huge.
const values = fc.oneof(
  fc.double({ min: -1e9, max: 1e9, noNaN: true }),
  fc.integer({ min: -10_000_000, max: 10_000_000 }).map((cents) => cents / 100),
  fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 1000 + 0.0005),
  fc.integer({ min: -2000, max: 2000 }).map((n) => n + 0.5),
  fc.constantFrom(0, -0, 0.5, -0.5, 1.005, 2.675, 0.045, 999.995, 9.999, -0.4, -0.04, 1e-7, -1e-7, 123456789.125, 1e20, 5e20),
);

describe('formatNumber prints what Intl.NumberFormat("en-US") prints', () => {
  it('for any amount and options', () => {
    fc.assert(
      fc.property(values, options, (value, opts) => {
        expect(formatNumber(value, opts)).toBe(intl(value, opts));
      }),
      { numRuns: 20_000 },
    );
  });

  it('for the formats the site uses', () => {
    expect(formatNumber(1749, { maxDecimals: 0, usd: true })).toBe('$1,749');
    expect(formatNumber(0.45, { minDecimals: 2, maxDecimals: 2, usd: true })).toBe('$0.45');
    expect(formatNumber(1234567.5, { maxDecimals: 0, usd: true })).toBe('$1,234,568');
    expect(formatNumber(-0.4, { maxDecimals: 0, usd: true, hideNegativeZero: true })).toBe('$0');
    expect(formatNumber(-0.4, { maxDecimals: 0, usd: true })).toBe('-$0');
    expect(formatNumber(-20, { maxDecimals: 0, usd: true, hideNegativeZero: true })).toBe('-$20');
    expect(formatNumber(7.25, { maxDecimals: 1 })).toBe('7.3');
    expect(formatNumber(7, { maxDecimals: 1 })).toBe('7');
    expect(formatNumber(999.96, { maxDecimals: 1 })).toBe('1,000');
  });

  it('passes values it does not format itself to Intl', () => {
    expect(formatNumber(Number.POSITIVE_INFINITY, { maxDecimals: 0, usd: true })).toBe('$∞');
    expect(formatNumber(Number.NaN, { maxDecimals: 0 })).toBe('NaN');
    expect(formatNumber(2e21, { maxDecimals: 0 })).toBe('2,000,000,000,000,000,000,000');
  });
});
