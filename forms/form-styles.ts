// Styles of the lead forms, from theme tokens only. Form cards are always light, whatever the section
// tone, so field colours need one palette.
import { css, keyframes, type Theme } from '@emotion/react';

/** A token colour mixed with white: lighter shades stay on-brand without new hex values. */
export const tint = (color: string, percent: number) => `color-mix(in srgb, ${color} ${percent}%, white)`;
/** A token colour at `percent` opacity. */
export const wash = (color: string, percent: number) => `color-mix(in srgb, ${color} ${percent}%, transparent)`;

// WCAG 1.4.11: control borders need 3:1 against white; the muted text colour mixed to 70% clears it.
const controlBorder = (theme: Theme) => tint(theme.colors.muted, 70);

export const formCard = (theme: Theme) =>
  css({
    position: 'relative',
    display: 'grid',
    gap: theme.space[6],
    minWidth: 0,
    padding: theme.space[5],
    borderRadius: theme.radius.lg,
    background: theme.colors.white,
    color: theme.colors.text,
    border: `1px solid ${theme.colors.border}`,
    boxShadow: theme.shadow.raised,
    [theme.mq.md]: { padding: theme.space[6] },
    [theme.mq.lg]: { padding: theme.space[7] },
  });

export const fieldGrid = (theme: Theme) =>
  css({
    display: 'grid',
    gap: theme.space[5],
    gridTemplateColumns: 'minmax(0, 1fr)',
    [theme.mq.md]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', columnGap: theme.space[5] },
  });

export const fieldSpan = (span: 'half' | 'full') => css({ gridColumn: span === 'full' ? '1 / -1' : undefined, minWidth: 0 });

/** The ROI form: 'column' groups side by side from the large breakpoint, 'full' ones across. */
export const groupGrid = (theme: Theme) =>
  css({
    display: 'grid',
    gap: theme.space[6],
    gridTemplateColumns: 'minmax(0, 1fr)',
    [theme.mq.lg]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', columnGap: theme.space[7] },
  });

export const groupSpan = (layout: 'column' | 'full') => css({ gridColumn: layout === 'full' ? '1 / -1' : undefined, minWidth: 0 });

export const fieldset = css({ margin: 0, padding: 0, border: 0, minWidth: 0 });

export const legend = (theme: Theme) =>
  css({
    display: 'flex',
    alignItems: 'center',
    gap: theme.space[3],
    width: '100%',
    padding: 0,
    marginBottom: theme.space[5],
    fontSize: theme.fontSize.lg,
    fontWeight: 700,
    letterSpacing: '-0.01em',
    color: theme.colors.text,
    '&::after': { content: '""', flex: 1, height: 1, background: theme.colors.border },
  });

export const labelRow = (theme: Theme) =>
  css({ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: theme.space[3], marginBottom: theme.space[2] });

export const label = (theme: Theme) => css({ fontSize: theme.fontSize.sm, fontWeight: 600, color: theme.colors.text });

export const optionalTag = (theme: Theme) => css({ fontSize: theme.fontSize.xs, color: theme.colors.muted });

export const hint = (theme: Theme) => css({ margin: `0 0 ${theme.space[2]}`, fontSize: theme.fontSize.xs, color: theme.colors.muted });

export const control = (theme: Theme) =>
  css({
    display: 'block',
    width: '100%',
    minHeight: '2.875rem',
    padding: `${theme.space[3]} ${theme.space[4]}`,
    borderRadius: theme.radius.sm,
    border: `1px solid ${controlBorder(theme)}`,
    background: theme.colors.white,
    color: theme.colors.text,
    fontSize: theme.fontSize.md,
    lineHeight: 1.4,
    // WCAG 2.4.11: a field focused after a failed submit must not land under the sticky site header.
    scrollMarginTop: theme.space[9],
    transition: `border-color ${theme.motion.fast}, box-shadow ${theme.motion.fast}`,
    '&::placeholder': { color: theme.colors.muted, opacity: 0.85 },
    '&:hover': { borderColor: theme.colors.muted },
    '&:focus-visible, &:focus': { outline: 'none', borderColor: theme.colors.primary, boxShadow: theme.focusRing },
    '&[aria-invalid="true"]': {
      borderColor: theme.colors.danger,
      background: tint(theme.colors.danger, 3),
      '&:focus, &:focus-visible': { boxShadow: `0 0 0 3px ${theme.colors.white}, 0 0 0 5px ${theme.colors.danger}` },
    },
  });

export const textArea = (theme: Theme) => css({ resize: 'vertical', minHeight: `calc(${theme.space[7]} * 2.5)` });

export const selectWrap = css({ position: 'relative' });

export const select = (theme: Theme) =>
  css({
    appearance: 'none',
    paddingRight: theme.space[7],
    cursor: 'pointer',
    '&:invalid, &[data-empty="true"]': { color: theme.colors.muted },
  });

export const selectChevron = (theme: Theme) =>
  css({
    position: 'absolute',
    right: theme.space[4],
    top: '50%',
    transform: 'translateY(-50%)',
    pointerEvents: 'none',
    color: theme.colors.muted,
  });

export const errorMessage = (theme: Theme) =>
  css({
    display: 'flex',
    alignItems: 'flex-start',
    gap: theme.space[2],
    margin: `${theme.space[2]} 0 0`,
    fontSize: theme.fontSize.sm,
    fontWeight: 500,
    lineHeight: 1.4,
    color: theme.colors.danger,
    '& svg': { flex: 'none', marginTop: '0.1em' },
  });

/** Off-screen, not display:none: bots that skip hidden fields still find it; people and AT never do. */
export const honeypot = css({
  position: 'absolute',
  left: '-10000px',
  top: 'auto',
  width: 1,
  height: 1,
  overflow: 'hidden',
  opacity: 0,
  pointerEvents: 'none',
});

export const actions = (theme: Theme) =>
  css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: theme.space[3], [theme.mq.md]: { gap: theme.space[4] } });

export const submitButton = (theme: Theme) =>
  css({
    width: '100%',
    minHeight: '3.25rem',
    fontSize: theme.fontSize.md,
    boxShadow: theme.shadow.card,
    [theme.mq.md]: { width: 'auto', paddingInline: theme.space[6] },
  });

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

export const spinner = (theme: Theme) =>
  css({
    width: '1.1em',
    height: '1.1em',
    borderRadius: theme.radius.pill,
    border: `2px solid ${wash(theme.colors.white, 40)}`,
    borderTopColor: theme.colors.white,
    animation: `${spin} 0.8s linear infinite`,
  });

export const consent = (theme: Theme) => css({ margin: 0, fontSize: theme.fontSize.xs, lineHeight: 1.6, color: theme.colors.muted });

export const footerRule = (theme: Theme) =>
  css({ display: 'grid', gap: theme.space[4], paddingTop: theme.space[5], borderTop: `1px solid ${theme.colors.border}` });

/** "Call me back now": the tick box beside its label and text, the box at least 24 px square (a comfortable target). */
export const callbackBox = (theme: Theme) =>
  css({ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', gap: theme.space[3], alignItems: 'start', marginTop: theme.space[5] });

export const checkbox = (theme: Theme) =>
  css({ width: '1.5rem', height: '1.5rem', margin: 0, accentColor: theme.colors.primary, cursor: 'pointer' });

export const callbackText = (theme: Theme) => css({ margin: 0, fontSize: theme.fontSize.xs, lineHeight: 1.6, color: theme.colors.muted });
