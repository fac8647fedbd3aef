// Colours for content inside a Section, per tone, so every block keeps ≥ 4.5:1 text contrast on every background.
import { css, type Theme } from '@emotion/react';
import type { Tone } from '../generated/content-types.ts';

/** A lighter shade of a token colour (mixed with white): tints come from the brand, never hard-coded. */
export const tint = (color: string, percent: number) => `color-mix(in srgb, ${color} ${percent}%, white)`;

/** A darker shade of a token colour (mixed with black). */
export const shade = (color: string, percent: number) => `color-mix(in srgb, ${color} ${percent}%, black)`;

export type TonePalette = {
  dark: boolean;
  /** Titles and big numbers. */
  heading: string;
  /** Running text. */
  body: string;
  /** Meta lines, notes, labels. */
  subtle: string;
  /** Icons, links, highlighted values. */
  accent: string;
  /** Background of icon chips and small pills. */
  accentSoft: string;
  /** Check marks and other "included" signals. */
  positive: string;
  positiveSoft: string;
  card: string;
  cardBorder: string;
  cardShadow: string;
  /** Hairlines inside cards and lists. */
  rule: string;
};

export function tonePalette(theme: Theme, tone: Tone = 'plain'): TonePalette {
  const { colors, shadow } = theme;
  switch (tone) {
    case 'dark':
      return {
        dark: true,
        heading: colors.white,
        body: colors.onDark,
        subtle: colors.onDarkMuted,
        accent: tint(colors.primary, 45),
        accentSoft: 'rgba(255, 255, 255, 0.08)',
        positive: tint(colors.success, 45),
        positiveSoft: 'rgba(255, 255, 255, 0.08)',
        card: 'rgba(255, 255, 255, 0.05)',
        cardBorder: 'rgba(255, 255, 255, 0.12)',
        cardShadow: 'none',
        rule: 'rgba(255, 255, 255, 0.12)',
      };
    case 'brand':
      // The gradient's lightest corner only clears 4.5:1 for pure white, so all text stays white and every surface darkens it.
      return {
        dark: true,
        heading: colors.white,
        body: colors.white,
        subtle: colors.white,
        accent: colors.white,
        accentSoft: 'rgba(15, 23, 42, 0.24)',
        positive: colors.white,
        positiveSoft: 'rgba(15, 23, 42, 0.24)',
        card: 'rgba(15, 23, 42, 0.24)',
        cardBorder: 'rgba(255, 255, 255, 0.2)',
        cardShadow: 'none',
        rule: 'rgba(255, 255, 255, 0.2)',
      };
    default:
      return {
        dark: false,
        heading: colors.text,
        body: colors.muted,
        subtle: colors.muted,
        accent: colors.primary,
        accentSoft: tint(colors.primary, 10),
        positive: colors.success,
        positiveSoft: tint(colors.success, 12),
        card: colors.white,
        cardBorder: colors.border,
        cardShadow: shadow.card,
        rule: colors.border,
      };
  }
}

/** A small lift on hover: enough to read as "this answers the pointer", skipped when motion is reduced. */
const HOVER_LIFT = 'translateY(-2px)';

/** Cards holding a link or button answer the pointer and keyboard focus as a whole. */
export function interactiveCard(theme: Theme, palette: TonePalette) {
  return css({
    transition: `border-color ${theme.motion.base}, box-shadow ${theme.motion.base}, transform ${theme.motion.base}`,
    '&:hover, &:focus-within': {
      borderColor: palette.dark ? 'rgba(255, 255, 255, 0.32)' : tint(theme.colors.primary, 35),
      boxShadow: palette.dark ? palette.cardShadow : theme.shadow.raised,
    },
    '@media (hover: hover) and (prefers-reduced-motion: no-preference)': { '&:hover': { transform: HOVER_LIFT } },
  });
}
