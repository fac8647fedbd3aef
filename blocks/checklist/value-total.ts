// The value list of a checklist: items may carry a dollar value; the total is computed, never typed in content.
import { formatNumber } from '../../ui/number-format.ts';

/** "$2,500": whole US dollars with thousands separators. */
export function formatUsd(amountUsd: number): string {
  return formatNumber(amountUsd, { maxDecimals: 0, usd: true });
}

/** True when at least one item has a value, so the list shows values and a total. */
export function hasValues(items: readonly { valueUsd?: number | undefined }[]): boolean {
  return items.some((item) => item.valueUsd !== undefined);
}

/** The sum of the items' values; items without a value count as nothing. */
export function sumValuesUsd(items: readonly { valueUsd?: number | undefined }[]): number {
  return items.reduce((total, item) => total + (item.valueUsd ?? 0), 0);
}
