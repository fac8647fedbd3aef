// Numbers as the site prints them (en-US): "$1,234", "$0.45", "14.5", "-$20".
//
// The output is exactly what Intl.NumberFormat('en-US') prints for the same options (a property
// test compares the two), but without Intl: the first Intl.NumberFormat a page creates loads the
// locale data, which took ~40 ms of main thread on this machine and ~160 ms on Lighthouse's
// slow phone. Any page with a price, a value list or a lead form paid that while starting.

export type NumberFormatOptions = {
  /** Digits after the point that always show (default 0). */
  minDecimals?: number;
  /** Digits after the point at most; more are rounded half away from zero, as Intl does. */
  maxDecimals: number;
  /** Print as US dollars: "$1,234", "-$5". */
  usd?: boolean;
  /** No minus sign on a value that rounds to zero ("0", not "-0"): Intl's signDisplay 'negative'. */
  hideNegativeZero?: boolean;
};

const GROUP = /\B(?=(\d{3})+(?!\d))/g;
// Below this, String() switches to exponent notation ("1e-7") and the value rounds to 0 anyway.
const SMALLEST_PLAIN = 1e-6;
// From here on String() uses exponent notation too ("1e+21"); the site never prints such numbers.
const LARGEST_PLAIN = 1e21;

export function formatNumber(value: number, options: NumberFormatOptions): string {
  const { minDecimals = 0, maxDecimals, usd = false, hideNegativeZero = false } = options;
  const magnitude = Math.abs(value);
  if (!Number.isFinite(value) || magnitude >= LARGEST_PLAIN) return formatNumberWithIntl(value, options);

  const [whole, fraction] = roundHalfExpand(magnitude < SMALLEST_PLAIN ? '0' : String(magnitude), maxDecimals);
  let shown = fraction;
  while (shown.length > minDecimals && shown.endsWith('0')) shown = shown.slice(0, -1);
  const digits = `${whole.replace(GROUP, ',')}${shown ? `.${shown}` : ''}`;

  const negative = value < 0 || Object.is(value, -0);
  const roundsToZero = /^[0.,]*$/.test(digits);
  const sign = negative && !(hideNegativeZero && roundsToZero) ? '-' : '';
  return `${sign}${usd ? '$' : ''}${digits}`;
}

/**
 * A non-negative decimal string rounded to `decimals` digits after the point, half away from zero,
 * on the number's shortest decimal form (what Intl rounds too): returns [whole part, fraction digits].
 */
function roundHalfExpand(decimal: string, decimals: number): [string, string] {
  const [whole = '0', fraction = ''] = decimal.split('.');
  if (fraction.length <= decimals) return [whole, fraction.padEnd(decimals, '0')];
  const kept = `${whole}${fraction.slice(0, decimals)}`;
  const rounded = fraction[decimals]! >= '5' ? incrementDigits(kept) : kept;
  const wholeLength = rounded.length - decimals;
  return [rounded.slice(0, wholeLength), rounded.slice(wholeLength)];
}

/** "199" → "200", "99" → "100": adds one to a string of decimal digits. */
function incrementDigits(digits: string): string {
  let result = '';
  let index = digits.length - 1;
  while (index >= 0 && digits[index] === '9') {
    result = `0${result}`;
    index--;
  }
  return index < 0 ? `1${result}` : `${digits.slice(0, index)}${Number(digits[index]) + 1}${result}`;
}

/**
 * The same format through Intl: the fallback for Infinity, NaN and astronomically large values (rare
 * enough to pay for Intl), and the reference the tests hold formatNumber to.
 */
export function formatNumberWithIntl(
  value: number,
  { minDecimals = 0, maxDecimals, usd = false, hideNegativeZero = false }: NumberFormatOptions,
): string {
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: minDecimals,
    maximumFractionDigits: maxDecimals,
    ...(usd ? { style: 'currency', currency: 'USD' } : {}),
    ...(hideNegativeZero ? { signDisplay: 'negative' } : {}),
  }).format(value);
}
