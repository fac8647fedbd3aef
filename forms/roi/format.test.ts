import { describe, expect, it } from 'vitest';
import type { RoiResult } from '../../lead/roi/engine.ts';
import { formatHours, formatPercent, formatRoiResult, formatUsd } from './format.ts';

describe('display formatting', () => {
  it.each([
    [0, '$0'],
    [999.4, '$999'],
    [1234.5, '$1,235'],
    [487_500, '$487,500'],
    [1_234_567.89, '$1,234,568'],
    [-0.4, '$0'],
  ])('formats %d dollars as %j', (amount, text) => {
    expect(formatUsd(amount)).toBe(text);
  });

  it.each([
    [0, '0%'],
    [72.6, '73%'],
    [875, '875%'],
    [1234.4, '1,234%'],
  ])('formats ROI %d with no decimals as %j', (roi, text) => {
    expect(formatPercent(roi)).toBe(text);
  });

  it.each([
    [2.5, '2.5'],
    [15, '15'],
  ])('formats %d weekly hours as %j', (hours, text) => {
    expect(formatHours(hours)).toBe(text);
  });

  it('formats every figure of a result', () => {
    const result: RoiResult = {
      revenueIncrease: 375_000,
      laborSavings: 112_500.4,
      totalSavings: 487_500.4,
      roi: 875.0008,
      weeklyHoursSaved: 15,
      upliftPercentage: 15,
    };
    expect(formatRoiResult(result)).toEqual({
      revenueIncrease: '$375,000',
      laborSavings: '$112,500',
      totalSavings: '$487,500',
      roi: '875%',
      weeklyHoursSaved: '15',
      upliftPercentage: '15%',
    });
  });
});
