// How the ROI result screen prints each figure: amounts with thousands separators, ROI with no
// decimals. Display belongs to the page; the maths is in lead/roi/engine.ts.
import type { RoiResult } from '../../lead/roi/engine.ts';
import { formatNumber } from '../../ui/number-format.ts';

// Uplift percentages keep the engine's two decimals (14.5%).
const PERCENTAGE_DECIMALS = 2;

// en-US, fixed, so the prerendered HTML and the hydrated page print the same text (ui/number-format.ts).
const HOURS_MAX_DECIMALS = 1;
const ROI_DECIMALS = 0;

/** '$1,234,568' — whole dollars with thousands separators; a rounded -0.4 prints as '$0', not '-$0'. */
export function formatUsd(amountUsd: number): string {
  return formatNumber(amountUsd, { maxDecimals: 0, usd: true, hideNegativeZero: true });
}

/** '220%' with no decimals by default; '14.5%' with maxDecimals 1. */
export function formatPercent(percent: number, maxDecimals: number = ROI_DECIMALS): string {
  return `${formatNumber(percent, { maxDecimals, hideNegativeZero: true })}%`;
}

/** '7.5' — weekly hours. */
export function formatHours(hours: number): string {
  return formatNumber(hours, { maxDecimals: HOURS_MAX_DECIMALS });
}

export interface RoiDisplay {
  readonly revenueIncrease: string;
  readonly laborSavings: string;
  readonly totalSavings: string;
  readonly roi: string;
  readonly weeklyHoursSaved: string;
  readonly upliftPercentage: string;
}

/** Every figure of a result as the result screen prints it. */
export function formatRoiResult(result: RoiResult): RoiDisplay {
  return {
    revenueIncrease: formatUsd(result.revenueIncrease),
    laborSavings: formatUsd(result.laborSavings),
    totalSavings: formatUsd(result.totalSavings),
    roi: formatPercent(result.roi, ROI_DECIMALS),
    weeklyHoursSaved: formatHours(result.weeklyHoursSaved),
    upliftPercentage: formatPercent(result.upliftPercentage, PERCENTAGE_DECIMALS),
  };
}
