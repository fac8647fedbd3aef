import { css, type Theme } from '@emotion/react';
import type { CardGridBlock } from '../../generated/content-types.ts';
import type { TonePalette } from '../../ui/tone-palette.ts';

type Columns = NonNullable<CardGridBlock['columns']>;

export const listReset = css({ listStyle: 'none', margin: 0, padding: 0 });

/** One card per row on phones, two on tablets, `columns` from the large breakpoint. */
export const grid = (theme: Theme, columns: Columns) =>
  css(listReset, {
    display: 'grid',
    gap: theme.space[5],
    gridTemplateColumns: 'minmax(0, 1fr)',
    [theme.mq.md]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    [theme.mq.lg]: { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: columns === 4 ? theme.space[5] : theme.space[6] },
  });

export const card = (theme: Theme, palette: TonePalette) =>
  css({
    display: 'flex',
    flexDirection: 'column',
    minWidth: 0,
    padding: theme.space[5],
    borderRadius: theme.radius.lg,
    background: palette.card,
    border: `1px solid ${palette.cardBorder}`,
    boxShadow: palette.cardShadow,
    color: palette.body,
    [theme.mq.md]: { padding: theme.space[6] },
  });

/** Metric cards are size containers, so their number can be sized to the card's width. */
export const metricCard = css({ alignItems: 'center', textAlign: 'center', containerType: 'inline-size' });

export const iconChip = (theme: Theme, palette: TonePalette) =>
  css({
    flex: 'none',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: theme.space[7],
    height: theme.space[7],
    borderRadius: theme.radius.md,
    color: palette.accent,
    background: palette.accentSoft,
  });

export const pill = (theme: Theme, palette: TonePalette) =>
  css({
    display: 'inline-block',
    padding: `${theme.space[1]} ${theme.space[3]}`,
    borderRadius: theme.radius.pill,
    fontSize: theme.fontSize.xs,
    fontWeight: 700,
    letterSpacing: '0.06em',
    textTransform: 'uppercase',
    color: palette.accent,
    background: palette.accentSoft,
  });

export const title = (theme: Theme, palette: TonePalette, size: 'md' | 'lg' | 'xl') =>
  css({ margin: 0, fontSize: theme.fontSize[size], fontWeight: 700, lineHeight: 1.3, letterSpacing: '-0.01em', color: palette.heading });

export const meta = (theme: Theme, palette: TonePalette) =>
  css({ margin: `${theme.space[2]} 0 0`, fontSize: theme.fontSize.sm, fontWeight: 600, color: palette.accent });

export const text = (theme: Theme, palette: TonePalette) =>
  css({ margin: `${theme.space[3]} 0 0`, fontSize: theme.fontSize.sm, lineHeight: 1.7, color: palette.body });

/** Big metric numbers: a brand gradient on light tones, plain white on dark ones. */
export const metricValue = (theme: Theme, palette: TonePalette) =>
  css({
    order: -1,
    margin: `0 0 ${theme.space[2]}`,
    // Scales with the card (see metricCard), so "90 Days" stays on one line in a four-column row.
    fontSize: `min(${theme.fontSize['3xl']}, 22cqi)`,
    fontWeight: 800,
    lineHeight: 1,
    letterSpacing: '-0.04em',
    fontVariantNumeric: 'tabular-nums',
    color: palette.dark ? palette.heading : theme.colors.primary,
    ...(!palette.dark && {
      background: `linear-gradient(120deg, ${theme.colors.primaryDark}, ${theme.colors.primary} 45%, ${theme.colors.accent})`,
      WebkitBackgroundClip: 'text',
      backgroundClip: 'text',
      WebkitTextFillColor: 'transparent',
      '@media (forced-colors: active)': { WebkitTextFillColor: 'CanvasText', background: 'none' },
    }),
  });

export const note = (theme: Theme, palette: TonePalette) =>
  css({
    maxWidth: theme.width.text,
    margin: `${theme.space[6]} auto 0`,
    textAlign: 'center',
    fontSize: theme.fontSize.sm,
    lineHeight: 1.6,
    color: palette.subtle,
  });
