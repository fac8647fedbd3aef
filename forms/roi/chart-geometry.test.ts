import { describe, expect, it } from 'vitest';
import { SHIPPED_ROI_PARAMETERS } from '../../content-model/testing/shipped-content.ts';
import { describeSavings, layoutSavingsBars, MIN_VISIBLE_BAR_PERCENT } from './chart-geometry.ts';
import { calculateRoi } from '../../lead/roi/engine.ts';

// Technology, $2,000,000 revenue, $60,000 salary, 10 people, 10-20 manual hours.
const RESULT = calculateRoi(
  { currentRevenue: '2000000', industry: 'technology', teamSize: '10', averageSalary: '60000', manualHours: '10-20' },
  SHIPPED_ROI_PARAMETERS,
);

describe('layoutSavingsBars', () => {
  it('draws revenue increase, labor savings and the investment, scaled to the largest', () => {
    expect(layoutSavingsBars(RESULT, SHIPPED_ROI_PARAMETERS.investmentUsd)).toEqual([
      { key: 'revenue', label: 'Revenue increase', amountUsd: 300_000, widthPercent: 100 },
      { key: 'labor', label: 'Labor cost savings', amountUsd: 225_000, widthPercent: 75 },
      { key: 'investment', label: 'Investment', amountUsd: 50_000, widthPercent: (50_000 / 300_000) * 100 },
    ]);
  });

  it('the investment is the full bar when the savings are smaller', () => {
    const bars = layoutSavingsBars({ revenueIncrease: 10_000, laborSavings: 25_000 }, 50_000);
    expect(bars.map((bar) => bar.widthPercent)).toEqual([20, 50, 100]);
  });

  it('a tiny non-zero amount still shows; zero shows nothing', () => {
    const bars = layoutSavingsBars({ revenueIncrease: 15_000_000, laborSavings: 0 }, 50_000);
    expect(bars.map((bar) => bar.widthPercent)).toEqual([100, 0, MIN_VISIBLE_BAR_PERCENT]);
  });

  it('never divides by zero', () => {
    expect(layoutSavingsBars({ revenueIncrease: 0, laborSavings: 0 }, 0).map((bar) => bar.widthPercent)).toEqual([0, 0, 0]);
  });
});

describe('describeSavings', () => {
  it('reads out every figure and the multiple of the investment', () => {
    expect(describeSavings(RESULT, 50_000)).toBe(
      'Revenue increase $300,000, labor cost savings $225,000, compared with an investment of $50,000. ' +
        'Total annual savings of $525,000 are 10.5 times the investment.',
    );
  });

  it('leaves the multiple out when there is no investment', () => {
    expect(describeSavings(RESULT, 0)).toBe('Revenue increase $300,000, labor cost savings $225,000, compared with an investment of $0.');
  });
});
