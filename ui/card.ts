import { css, type Theme } from '@emotion/react';

/** The white card surface shared by content cards (team, testimonials, plans, articles); it stays white on dark sections. */
export function cardStyle(theme: Theme) {
  return css({
    position: 'relative',
    display: 'flex',
    flexDirection: 'column',
    background: theme.colors.white,
    color: theme.colors.text,
    border: `1px solid ${theme.colors.border}`,
    borderRadius: theme.radius.lg,
    boxShadow: theme.shadow.card,
  });
}

/** A grid that is one column on phones, two on tablets and `wide` columns from the large breakpoint. */
export function cardGridStyle(theme: Theme, wide: number) {
  return css({
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gap: theme.space[5],
    gridTemplateColumns: 'minmax(0, 1fr)',
    [theme.mq.md]: { gridTemplateColumns: `repeat(${Math.min(wide, 2)}, minmax(0, 1fr))` },
    [theme.mq.lg]: { gridTemplateColumns: `repeat(${wide}, minmax(0, 1fr))`, gap: theme.space[6] },
  });
}
