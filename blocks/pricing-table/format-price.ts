// Plan prices as shown: whole dollars without cents ("$1,749"), other amounts with two decimals ("$0.45").
import { formatNumber } from '../../ui/number-format.ts';

export function formatPriceUsd(priceUsd: number): string {
  return Number.isInteger(priceUsd)
    ? formatNumber(priceUsd, { maxDecimals: 0, usd: true })
    : formatNumber(priceUsd, { minDecimals: 2, maxDecimals: 2, usd: true });
}
