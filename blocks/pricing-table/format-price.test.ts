import { describe, expect, it } from 'vitest';
import { formatPriceUsd } from './format-price.ts';

describe('formatPriceUsd', () => {
  it.each([
    { priceUsd: 299, shown: '$299' },
    { priceUsd: 1749, shown: '$1,749' },
    { priceUsd: 0, shown: '$0' },
    { priceUsd: 0.45, shown: '$0.45' },
    { priceUsd: 1249.5, shown: '$1,249.50' },
  ])('shows $priceUsd as $shown', ({ priceUsd, shown }) => {
    expect(formatPriceUsd(priceUsd)).toBe(shown);
  });
});
