// The ROI engine: pure functions of the
// visitor's inputs and the parameters from content/roi.yaml.
import type { Industry, ManualHours } from '../rules.ts';

export interface RoiParameters {
  /** Share of current revenue the engagement is expected to add, by industry; 'other' also covers unknown industries. */
  readonly upliftRateByIndustry: Readonly<Record<Industry, number>>;
  /** Weekly hours saved per person, by the visitor's manual-hours answer. */
  readonly weeklyHoursSavedByManualHours: Readonly<Record<ManualHours, number>>;
  /** Weekly hours saved when the manual-hours answer is not one of the options. */
  readonly fallbackWeeklyHoursSaved: number;
  readonly investmentUsd: number;
  readonly weeksPerYear: number;
  readonly workHoursPerWeek: number;
  readonly defaultAverageSalaryUsd: number;
  readonly defaultTeamSize: number;
}

// An industry the table does not know takes the 'other' rate.
const FALLBACK_INDUSTRY: Industry = 'other';
const PERCENT = 100;
// Rates like 0.14 × 100 carry float noise (14.000000000000002); percentages keep this many decimals.
const PERCENTAGE_DECIMALS = 2;

/** The raw form answers the engine reads; numbers may still be the text the visitor typed. */
export interface RoiInputs {
  readonly currentRevenue: string | number;
  readonly industry: string;
  readonly teamSize: string | number;
  readonly averageSalary: string | number;
  readonly manualHours: string;
}

/** What the engine computes, unrounded; `roi` and `upliftPercentage` are percentages. */
export interface RoiResult {
  readonly revenueIncrease: number;
  readonly laborSavings: number;
  readonly totalSavings: number;
  readonly roi: number;
  readonly weeklyHoursSaved: number;
  readonly upliftPercentage: number;
}

// Decimal digits with an optional sign and fraction: what a number input holds. `Number()` alone
// would also read `0x10` as 16 and `1e300` as a figure no business has.
const DECIMAL_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A finite number from a number or decimal text (surrounding spaces allowed); otherwise undefined. */
export function parseNumber(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const text = value.trim();
  if (!DECIMAL_NUMBER.test(text)) return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function lookupUpliftRate(industry: string, parameters: RoiParameters): number {
  const rates = parameters.upliftRateByIndustry;
  return Object.hasOwn(rates, industry) ? rates[industry as Industry] : rates[FALLBACK_INDUSTRY];
}

export function lookupWeeklyHoursSaved(manualHours: string, parameters: RoiParameters): number {
  const hoursMap = parameters.weeklyHoursSavedByManualHours;
  return Object.hasOwn(hoursMap, manualHours) ? hoursMap[manualHours as ManualHours] : parameters.fallbackWeeklyHoursSaved;
}

export function calculateRoi(inputs: RoiInputs, parameters: RoiParameters): RoiResult {
  // Revenue that is not a number counts as 0, matching its 'Under 1M' bracket.
  const revenueUsd = parseNumber(inputs.currentRevenue) ?? 0;
  // Salary defaults to 50000 if not parsable; team size defaults to 1.
  const averageSalaryUsd = parseNumber(inputs.averageSalary) ?? parameters.defaultAverageSalaryUsd;
  const teamSize = parseNumber(inputs.teamSize) ?? parameters.defaultTeamSize;

  const upliftRate = lookupUpliftRate(inputs.industry, parameters);
  const weeklyHoursSaved = lookupWeeklyHoursSaved(inputs.manualHours, parameters);

  // Hourly wage = salary / (52 × 40); labour savings = hours × 52 × wage × team size.
  const hourlyWageUsd = averageSalaryUsd / (parameters.weeksPerYear * parameters.workHoursPerWeek);
  const revenueIncrease = revenueUsd * upliftRate;
  const laborSavings = weeklyHoursSaved * parameters.weeksPerYear * hourlyWageUsd * teamSize;
  const totalSavings = revenueIncrease + laborSavings;
  // ROI against the fixed investment, floored at 0.
  const roi = Math.max(0, ((totalSavings - parameters.investmentUsd) / parameters.investmentUsd) * PERCENT);

  return {
    revenueIncrease,
    laborSavings,
    totalSavings,
    roi,
    weeklyHoursSaved,
    upliftPercentage: roundTo(upliftRate * PERCENT, PERCENTAGE_DECIMALS),
  };
}

// ---------------------------------------------------------------------------------------------
// Revenue brackets: the first bracket whose bound exceeds the revenue.

export const REVENUE_BRACKETS = [
  { label: 'Under 1M', belowUsd: 1_000_000 },
  { label: '1M-2M', belowUsd: 2_000_000 },
  { label: '2M-5M', belowUsd: 5_000_000 },
  { label: '5M-10M', belowUsd: 10_000_000 },
  { label: '10M-25M', belowUsd: 25_000_000 },
  { label: '25M-100M', belowUsd: 100_000_000 },
  { label: '100M+', belowUsd: Number.POSITIVE_INFINITY },
] as const;
export type RevenueBracket = (typeof REVENUE_BRACKETS)[number]['label'];

// Revenue that is not a number is 'Under 1M'.
const DEFAULT_REVENUE_BRACKET: RevenueBracket = 'Under 1M';

/** The bracket label sent as the ROI payload's `currentRevenue`. */
export function revenueBracket(revenue: string | number): RevenueBracket {
  const revenueUsd = parseNumber(revenue);
  if (revenueUsd === undefined) return DEFAULT_REVENUE_BRACKET;
  return REVENUE_BRACKETS.find((bracket) => revenueUsd < bracket.belowUsd)?.label ?? DEFAULT_REVENUE_BRACKET;
}
