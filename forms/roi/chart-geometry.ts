// The savings chart's numbers: revenue increase vs labor savings vs the investment, as
// bar widths relative to the largest, and the sentence that describes the chart to screen readers.
import type { RoiResult } from '../../lead/roi/engine.ts';
import { formatUsd } from './format.ts';
import { formatNumber } from '../../ui/number-format.ts';

export type SavingsBarKey = 'revenue' | 'labor' | 'investment';

export interface SavingsBar {
  readonly key: SavingsBarKey;
  readonly label: string;
  readonly amountUsd: number;
  /** Share of the chart's width, 0-100. */
  readonly widthPercent: number;
}

// A bar for a non-zero amount never shrinks below this, so a small figure still shows as a bar.
export const MIN_VISIBLE_BAR_PERCENT = 1;
const PERCENT = 100;

export const SAVINGS_BAR_LABELS: Readonly<Record<SavingsBarKey, string>> = {
  revenue: 'Revenue increase',
  labor: 'Labor cost savings',
  investment: 'Investment',
};

export function layoutSavingsBars(result: Pick<RoiResult, 'revenueIncrease' | 'laborSavings'>, investmentUsd: number): SavingsBar[] {
  const amounts: [SavingsBarKey, number][] = [
    ['revenue', Math.max(0, result.revenueIncrease)],
    ['labor', Math.max(0, result.laborSavings)],
    ['investment', Math.max(0, investmentUsd)],
  ];
  const largestUsd = Math.max(...amounts.map(([, amount]) => amount));
  return amounts.map(([key, amountUsd]) => {
    const share = largestUsd > 0 ? (amountUsd / largestUsd) * PERCENT : 0;
    return {
      key,
      label: SAVINGS_BAR_LABELS[key],
      amountUsd,
      widthPercent: amountUsd > 0 ? Math.max(MIN_VISIBLE_BAR_PERCENT, share) : 0,
    };
  });
}

/** The chart as one sentence: every figure it draws and how the total compares with the investment. */
export function describeSavings(
  result: Pick<RoiResult, 'revenueIncrease' | 'laborSavings' | 'totalSavings'>,
  investmentUsd: number,
): string {
  const figures =
    `Revenue increase ${formatUsd(result.revenueIncrease)}, labor cost savings ${formatUsd(result.laborSavings)}, ` +
    `compared with an investment of ${formatUsd(investmentUsd)}.`;
  if (investmentUsd <= 0) return figures;
  const multiple = result.totalSavings / investmentUsd;
  return `${figures} Total annual savings of ${formatUsd(result.totalSavings)} are ${formatNumber(multiple, { maxDecimals: 1 })} times the investment.`;
}
