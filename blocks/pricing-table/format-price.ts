// Plan prices as shown: whole dollars without cents ("$1,749"), other amounts with two decimals ("$0.45").
const WHOLE_DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const WITH_CENTS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

export function formatPriceUsd(priceUsd: number): string {
  return (Number.isInteger(priceUsd) ? WHOLE_DOLLARS : WITH_CENTS).format(priceUsd);
}
