import * as fc from 'fast-check';
import { SHIPPED_ROI_PARAMETERS } from '../../content-model/testing/shipped-content.ts';
import { describe, expect, it } from 'vitest';
import { INDUSTRY_OPTIONS, MANUAL_HOURS_OPTIONS } from '../rules.ts';
import {
  calculateRoi as calculateRoiWith,
  lookupUpliftRate as lookupUpliftRateWith,
  lookupWeeklyHoursSaved as lookupWeeklyHoursSavedWith,
  parseNumber,
  revenueBracket,
  type RoiInputs,
  type RoiParameters,
} from './engine.ts';

// The site's own numbers (content/roi.yaml) unless a test passes others.
const calculateRoi = (inputs: RoiInputs, parameters: RoiParameters = SHIPPED_ROI_PARAMETERS) => calculateRoiWith(inputs, parameters);
const lookupUpliftRate = (industry: string) => lookupUpliftRateWith(industry, SHIPPED_ROI_PARAMETERS);
const lookupWeeklyHoursSaved = (manualHours: string) => lookupWeeklyHoursSavedWith(manualHours, SHIPPED_ROI_PARAMETERS);

// A salary of 2,080 $/year makes the hourly wage exactly $1 (52 weeks × 40 hours).
const ONE_DOLLAR_AN_HOUR_SALARY = '2080';

const BASE_INPUTS: RoiInputs = {
  currentRevenue: '1000000',
  industry: 'technology',
  teamSize: '1',
  averageSalary: '50000',
  manualHours: '5-10',
};

describe('the shipped ROI numbers (content/roi.yaml)', () => {
  it("holds the product's numbers", () => {
    expect(SHIPPED_ROI_PARAMETERS).toEqual({
      upliftRateByIndustry: {
        technology: 0.15,
        healthcare: 0.12,
        finance: 0.14,
        retail: 0.1,
        manufacturing: 0.13,
        real_estate: 0.08,
        consulting: 0.11,
        other: 0.1,
      },
      weeklyHoursSavedByManualHours: { '<5': 2.5, '5-10': 7.5, '10-20': 15, '20+': 25 },
      fallbackWeeklyHoursSaved: 10,
      investmentUsd: 50000,
      weeksPerYear: 52,
      workHoursPerWeek: 40,
      defaultAverageSalaryUsd: 50000,
      defaultTeamSize: 1,
    });
  });

  it('has an uplift rate for every industry option and hours for every manual-hours option', () => {
    expect(Object.keys(SHIPPED_ROI_PARAMETERS.upliftRateByIndustry)).toEqual(INDUSTRY_OPTIONS.map((o) => o.value));
    expect(Object.keys(SHIPPED_ROI_PARAMETERS.weeklyHoursSavedByManualHours)).toEqual(MANUAL_HOURS_OPTIONS.map((o) => o.value));
  });
});

describe('revenue increase by industry', () => {
  it.each([
    ['technology', 0.15, 150_000, 15],
    ['healthcare', 0.12, 120_000, 12],
    ['finance', 0.14, 140_000, 14],
    ['retail', 0.1, 100_000, 10],
    ['manufacturing', 0.13, 130_000, 13],
    ['real_estate', 0.08, 80_000, 8],
    ['consulting', 0.11, 110_000, 11],
    ['other', 0.1, 100_000, 10],
    ['aerospace', 0.1, 100_000, 10],
    ['', 0.1, 100_000, 10],
    ['toString', 0.1, 100_000, 10],
  ])('%j uses rate %d: $1M revenue adds $%d (%d%%)', (industry, rate, revenueIncrease, upliftPercentage) => {
    expect(lookupUpliftRate(industry)).toBe(rate);
    const result = calculateRoi({ ...BASE_INPUTS, industry });
    expect(result.revenueIncrease).toBeCloseTo(revenueIncrease, 6);
    expect(result.upliftPercentage).toBe(upliftPercentage);
  });
});

describe('labour savings by manual hours', () => {
  it.each([
    ['<5', 2.5],
    ['5-10', 7.5],
    ['10-20', 15],
    ['20+', 25],
    ['40+', 10],
    ['', 10],
    ['constructor', 10],
  ])('%j saves %d hours a week', (manualHours, weeklyHoursSaved) => {
    expect(lookupWeeklyHoursSaved(manualHours)).toBe(weeklyHoursSaved);
    const result = calculateRoi({ ...BASE_INPUTS, manualHours, averageSalary: ONE_DOLLAR_AN_HOUR_SALARY });
    expect(result.weeklyHoursSaved).toBe(weeklyHoursSaved);
    // At $1 an hour, yearly savings are hours × 52 weeks.
    expect(result.laborSavings).toBeCloseTo(weeklyHoursSaved * 52, 9);
  });
});

describe('calculateRoi', () => {
  it.each([
    // revenue, industry, team, salary, hours → revenueIncrease, laborSavings, totalSavings, roi
    ['2500000', 'technology', '5', '60000', '10-20', 375_000, 112_500, 487_500, 875],
    ['1000000', 'real_estate', '1', '52000', '<5', 80_000, 3_250, 83_250, 66.5],
    ['0', 'retail', '2', '41600', '20+', 0, 52_000, 52_000, 4],
    ['500000', 'consulting', '10', '104000', '5-10', 55_000, 195_000, 250_000, 400],
  ])(
    'revenue %s, %s, team %s, salary %s, hours %s',
    (currentRevenue, industry, teamSize, averageSalary, manualHours, revenueIncrease, laborSavings, totalSavings, roi) => {
      const result = calculateRoi({ currentRevenue, industry, teamSize, averageSalary, manualHours });
      expect(result.revenueIncrease).toBeCloseTo(revenueIncrease, 6);
      expect(result.laborSavings).toBeCloseTo(laborSavings, 6);
      expect(result.totalSavings).toBeCloseTo(totalSavings, 6);
      expect(result.roi).toBeCloseTo(roi, 6);
    },
  );

  it('floors ROI at 0 when savings are below the $50,000 investment', () => {
    const result = calculateRoi({ ...BASE_INPUTS, currentRevenue: '0', averageSalary: '0' });
    expect(result.totalSavings).toBe(0);
    expect(result.roi).toBe(0);
  });

  it('gives ROI 0 at exactly the investment', () => {
    const result = calculateRoi({ ...BASE_INPUTS, currentRevenue: '500000', industry: 'retail', averageSalary: '0' });
    expect(result.totalSavings).toBeCloseTo(50_000, 6);
    expect(result.roi).toBeCloseTo(0, 9);
  });

  it.each([['abc'], [''], ['  ']])('uses the default $50,000 salary when salary is %j', (averageSalary) => {
    const result = calculateRoi({ ...BASE_INPUTS, averageSalary });
    expect(result.laborSavings).toBeCloseTo(calculateRoi({ ...BASE_INPUTS, averageSalary: '50000' }).laborSavings, 9);
  });

  it('keeps a salary of 0 (it is a number, not a missing value)', () => {
    expect(calculateRoi({ ...BASE_INPUTS, averageSalary: '0' }).laborSavings).toBe(0);
  });

  it.each([['abc'], ['']])('uses the default team of 1 when team size is %j', (teamSize) => {
    const result = calculateRoi({ ...BASE_INPUTS, teamSize });
    expect(result.laborSavings).toBeCloseTo(calculateRoi({ ...BASE_INPUTS, teamSize: '1' }).laborSavings, 9);
  });

  it('multiplies labour savings by team size', () => {
    const single = calculateRoi({ ...BASE_INPUTS, teamSize: '1' }).laborSavings;
    expect(calculateRoi({ ...BASE_INPUTS, teamSize: '7' }).laborSavings).toBeCloseTo(single * 7, 6);
  });

  it('counts revenue that is not a number as 0', () => {
    expect(calculateRoi({ ...BASE_INPUTS, currentRevenue: 'lots' }).revenueIncrease).toBe(0);
  });

  it('accepts numbers as well as typed text', () => {
    expect(calculateRoi({ ...BASE_INPUTS, currentRevenue: 1_000_000, teamSize: 1, averageSalary: 50_000 })).toEqual(
      calculateRoi(BASE_INPUTS),
    );
  });

  it('takes its numbers from the parameters it is given', () => {
    const parameters: RoiParameters = {
      ...SHIPPED_ROI_PARAMETERS,
      investmentUsd: 100_000,
      upliftRateByIndustry: { ...SHIPPED_ROI_PARAMETERS.upliftRateByIndustry, technology: 0.2 },
      weeklyHoursSavedByManualHours: { ...SHIPPED_ROI_PARAMETERS.weeklyHoursSavedByManualHours, '5-10': 0 },
    };
    const result = calculateRoi(BASE_INPUTS, parameters);
    expect(result.revenueIncrease).toBeCloseTo(200_000, 6);
    expect(result.laborSavings).toBe(0);
    expect(result.roi).toBeCloseTo(100, 6);
  });
});

describe('calculateRoi properties', () => {
  const revenueUsd = fc.double({ min: 0, max: 1e10, noNaN: true });
  const inputs = fc.record({
    currentRevenue: revenueUsd.map(String),
    industry: fc.oneof(fc.constantFrom(...INDUSTRY_OPTIONS.map((o) => o.value)), fc.string()),
    teamSize: fc.integer({ min: 1, max: 10_000 }).map(String),
    averageSalary: fc.double({ min: 0, max: 1e7, noNaN: true }).map(String),
    manualHours: fc.oneof(fc.constantFrom(...MANUAL_HOURS_OPTIONS.map((o) => o.value)), fc.string()),
  });

  it('total savings are revenue increase plus labour savings', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const result = calculateRoi(input);
        expect(result.totalSavings).toBe(result.revenueIncrease + result.laborSavings);
      }),
    );
  });

  it('ROI is never negative', () => {
    fc.assert(fc.property(inputs, (input) => calculateRoi(input).roi >= 0));
  });

  it('more revenue never means less savings or a lower ROI', () => {
    fc.assert(
      fc.property(inputs, revenueUsd, revenueUsd, (input, a, b) => {
        const [lower, higher] = a <= b ? [a, b] : [b, a];
        const low = calculateRoi({ ...input, currentRevenue: lower });
        const high = calculateRoi({ ...input, currentRevenue: higher });
        return high.totalSavings >= low.totalSavings && high.roi >= low.roi;
      }),
    );
  });
});

describe('revenueBracket', () => {
  it.each([
    [0, 'Under 1M'],
    [999_999, 'Under 1M'],
    [1_000_000, '1M-2M'],
    [1_999_999, '1M-2M'],
    [2_000_000, '2M-5M'],
    [4_999_999, '2M-5M'],
    [5_000_000, '5M-10M'],
    [9_999_999, '5M-10M'],
    [10_000_000, '10M-25M'],
    [24_999_999, '10M-25M'],
    [25_000_000, '25M-100M'],
    [99_999_999, '25M-100M'],
    [100_000_000, '100M+'],
    [5e12, '100M+'],
    [-5, 'Under 1M'],
    ['999999', 'Under 1M'],
    ['1000000', '1M-2M'],
    [' 100000000 ', '100M+'],
    ['abc', 'Under 1M'],
    ['', 'Under 1M'],
    ['1,000,000', 'Under 1M'],
    [Number.NaN, 'Under 1M'],
    [Number.POSITIVE_INFINITY, 'Under 1M'],
  ])('puts %j in %j', (revenue, bracket) => {
    expect(revenueBracket(revenue)).toBe(bracket);
  });
});

describe('parseNumber', () => {
  it.each([
    ['42', 42],
    [' 2500000 ', 2_500_000],
    ['0.5', 0.5],
    ['-3', -3],
    ['1e6', undefined],
    ['1e300', undefined],
    ['0x10', undefined],
    ['0b11', undefined],
    ['Infinity', undefined],
    ['12abc', undefined],
    ['1,000', undefined],
    ['0', 0],
    [12.5, 12.5],
    ['', undefined],
    ['abc', undefined],
    [Number.NaN, undefined],
    [Number.NEGATIVE_INFINITY, undefined],
  ])('reads %j as %j', (value, expected) => {
    expect(parseNumber(value)).toBe(expected);
  });
});
