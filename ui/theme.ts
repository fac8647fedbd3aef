// Design tokens. Colours come from site.yaml's brand section; spacing, type and radii are the house scale.
import { BRAND_DEFAULTS, FIXED_COLOURS } from '../content-model/brand-colours.ts';
import type { SiteContent } from '../generated/content-types.ts';

export type ThemeColors = { [K in keyof typeof BRAND_DEFAULTS]: string };

export function createTheme(brand: SiteContent['brand'] = {}) {
  const colors: ThemeColors = { ...BRAND_DEFAULTS, ...brand };
  return {
    colors: { ...colors, ...FIXED_COLOURS },
    /** 4px base spacing scale. */
    space: { 1: '0.25rem', 2: '0.5rem', 3: '0.75rem', 4: '1rem', 5: '1.5rem', 6: '2rem', 7: '3rem', 8: '4rem', 9: '6rem' },
    /** Fluid type scale: clamp(min, preferred, max). */
    fontSize: {
      xs: '0.8125rem',
      sm: '0.9375rem',
      md: '1.0625rem',
      lg: '1.25rem',
      xl: 'clamp(1.375rem, 1.1rem + 1vw, 1.75rem)',
      '2xl': 'clamp(1.75rem, 1.3rem + 1.8vw, 2.5rem)',
      '3xl': 'clamp(2.25rem, 1.4rem + 3.4vw, 3.75rem)',
      display: 'clamp(2.5rem, 1.5rem + 4vw, 4.25rem)',
    },
    font: {
      body: '"Inter Variable", Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    },
    radius: { sm: '0.5rem', md: '0.875rem', lg: '1.25rem', pill: '999px' },
    shadow: {
      card: '0 1px 2px rgba(15, 23, 42, 0.06), 0 8px 24px -12px rgba(15, 23, 42, 0.18)',
      raised: '0 2px 4px rgba(15, 23, 42, 0.06), 0 24px 48px -24px rgba(49, 46, 129, 0.45)',
    },
    width: { content: '72rem', text: '46rem' },
    /** Min-width media queries. */
    mq: { sm: '@media (min-width: 640px)', md: '@media (min-width: 768px)', lg: '@media (min-width: 1024px)' },
    motion: { fast: '150ms ease', base: '250ms ease' },
    focusRing: `0 0 0 3px #FFFFFF, 0 0 0 5px ${colors.primary}`,
  } as const;
}

export type Theme = ReturnType<typeof createTheme>;
