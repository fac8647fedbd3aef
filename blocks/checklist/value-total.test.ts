import { describe, expect, it } from 'vitest';
import { formatUsd, hasValues, sumValuesUsd } from './value-total.ts';

describe('sumValuesUsd', () => {
  it('adds the five thank-you page items to the advertised total of $8,750', () => {
    const items = [{ valueUsd: 2500 }, { valueUsd: 2000 }, { valueUsd: 1500 }, { valueUsd: 1750 }, { valueUsd: 1000 }];
    expect(sumValuesUsd(items)).toBe(8750);
    expect(formatUsd(sumValuesUsd(items))).toBe('$8,750');
  });

  it('counts items without a value as zero', () => {
    expect(sumValuesUsd([{ valueUsd: 1200 }, {}, { valueUsd: 300 }])).toBe(1500);
  });

  it('is zero for a list without values', () => {
    expect(sumValuesUsd([{}, {}])).toBe(0);
  });
});

describe('formatUsd', () => {
  it.each([
    [0, '$0'],
    [999, '$999'],
    [2500, '$2,500'],
    [47500, '$47,500'],
    [1250000, '$1,250,000'],
    [1749.6, '$1,750'],
  ])('formats %d as %s', (amountUsd, expected) => {
    expect(formatUsd(amountUsd)).toBe(expected);
  });
});

describe('hasValues', () => {
  it.each([
    ['no item has a value', [{}, {}], false],
    ['one item has a value', [{}, { valueUsd: 100 }], true],
    ['a value of zero still counts', [{ valueUsd: 0 }], true],
  ])('is right when %s', (_case, items, expected) => {
    expect(hasValues(items)).toBe(expected);
  });
});
