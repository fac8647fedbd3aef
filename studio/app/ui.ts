// The studio's look: plain, calm and high-contrast (WCAG 2.2 AA), readable at 1280 px, usable at 390 px.
import { css } from '@emotion/react';
import { visuallyHidden } from '../../ui/styles.ts';

/**
 * Every colour the studio draws with, named by what it is for. Components use these names, never a
 * colour written out, so the palette (and its contrast) is checked and changed in one place.
 */
export const color = {
  text: '#0f172a',
  mutedText: '#475569',
  disabledText: '#64748b',
  surface: '#fff',
  /** The navigator and list items: set off from the form without a border of their own. */
  panel: '#f8fafc',
  hover: '#f1f5f9',
  border: '#cbd5e1',
  strongBorder: '#94a3b8',
  inputBorder: '#64748b',
  /** A button that cannot be pressed. */
  disabled: '#94a3b8',
  accent: '#4338ca',
  accentDark: '#3730a3',
  accentLight: '#eef2ff',
  accentTint: '#e0e7ff',
  accentInk: '#312e81',
  danger: '#b91c1c',
  dangerLight: '#fef2f2',
  dangerTint: '#fee2e2',
  dangerInk: '#7f1d1d',
  warning: '#b45309',
  warningLight: '#fffbeb',
  warningInk: '#78350f',
  ok: '#047857',
  okLight: '#ecfdf5',
  okInk: '#064e3b',
  /** Lines a publish adds and removes, in the review screen's diff. */
  added: '#dcfce7',
  removed: '#fee2e2',
  /** The outlines the preview draws round the block under the pointer and the block being edited. */
  previewHover: '#6366f1',
  previewSelected: '#4f46e5',
} as const;

export const font = {
  mono: 'ui-monospace, SFMono-Regular, Menlo, monospace',
} as const;

const focus = { outline: `3px solid ${color.accent}`, outlineOffset: 2 };

export const ui = {
  /** A form (or a text) and the page's preview: side by side on a wide screen, the preview below on a narrow one. */
  besidePreview: css({
    display: 'grid',
    gap: 16,
    gridTemplateColumns: 'minmax(0, 1fr)',
    '@media (min-width: 1100px)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' },
  }),
  field: css({ display: 'grid', gap: 4, marginBottom: 14 }),
  label: css({ fontWeight: 600, color: color.text }),
  checkboxLabel: css({ display: 'flex', gap: 8, alignItems: 'center', fontWeight: 600 }),
  help: css({ margin: 0, color: color.mutedText, fontSize: 14 }),
  input: css({
    font: 'inherit',
    padding: '8px 10px',
    border: `1px solid ${color.inputBorder}`,
    borderRadius: 6,
    background: color.surface,
    color: color.text,
    width: '100%',
    boxSizing: 'border-box',
    '&:focus-visible': focus,
    '&[aria-invalid="true"]': { borderColor: color.danger, borderWidth: 2 },
  }),
  // A text area grows with what it holds (where the browser can), so a three-line sub-line shows whole.
  textarea: css({ minHeight: 90, maxHeight: '24em', resize: 'vertical', ['fieldSizing' as string]: 'content' }),
  /** A value shown but not changed here (the home page's address): set off from the boxes people type in. */
  readOnlyInput: css({ background: color.panel, borderStyle: 'dashed', color: color.text }),
  /** A closed-by-default part of a form (page settings, advanced options): its frame and its one-line summary. */
  disclosure: css({ border: `1px solid ${color.border}`, borderRadius: 8, padding: '0 14px', margin: '0 0 14px', minWidth: 0 }),
  disclosureSummary: css({
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'baseline',
    columnGap: 10,
    rowGap: 2,
    padding: '10px 0',
    cursor: 'pointer',
    listStyle: 'none',
    '&::-webkit-details-marker': { display: 'none' },
    '&::before': { content: '"▸"', color: color.text },
    'details[open] > &::before': { content: '"▾"' },
    '&:focus-visible': focus,
  }),
  group: css({ border: `1px solid ${color.border}`, borderRadius: 8, padding: '10px 14px 6px', margin: '0 0 14px', minWidth: 0 }),
  groupTitle: css({ fontWeight: 700, padding: '0 4px', color: color.text }),
  error: css({ color: color.danger, fontWeight: 600, fontSize: 14, '& p': { margin: '2px 0' } }),
  /** Advice beside a field: it does not stop publishing, so it is not drawn as a mistake. */
  warning: css({ color: color.warningInk, fontSize: 14, '& p': { margin: '2px 0' } }),
  button: buttonStyle(
    { padding: '8px 14px', border: color.accent, background: color.accent, color: color.surface, hover: color.accentDark },
    { background: color.disabled, borderColor: color.disabled },
  ),
  secondaryButton: buttonStyle(
    { padding: '6px 12px', border: color.accent, background: color.surface, color: color.accentDark, hover: color.accentLight },
    { color: color.disabledText, borderColor: color.disabled },
  ),
  dangerButton: buttonStyle(
    { padding: '6px 12px', border: color.danger, background: color.surface, color: color.danger, hover: color.dangerLight },
    { color: color.disabledText, borderColor: color.disabled },
  ),
  linkButton: css({
    font: 'inherit',
    background: 'none',
    border: 'none',
    padding: '4px 0',
    color: color.accentDark,
    textDecoration: 'underline',
    cursor: 'pointer',
    '&:focus-visible': focus,
  }),
  iconButton: css({
    font: 'inherit',
    minWidth: 36,
    minHeight: 36,
    borderRadius: 6,
    border: `1px solid ${color.strongBorder}`,
    background: color.surface,
    color: color.text,
    cursor: 'pointer',
    '&:hover': { background: color.hover },
    '&:focus-visible': focus,
    '&:disabled': { color: color.disabled, cursor: 'not-allowed' },
  }),
  visuallyHidden,
  badge: css({
    fontSize: 12,
    fontWeight: 700,
    borderRadius: 999,
    padding: '1px 8px',
    background: color.accentTint,
    color: color.accentInk,
    whiteSpace: 'nowrap',
  }),
  banner: css({
    border: `1px solid ${color.warning}`,
    background: color.warningLight,
    color: color.warningInk,
    borderRadius: 8,
    padding: '10px 14px',
    margin: '0 0 14px',
  }),
  errorBanner: css({
    border: `1px solid ${color.danger}`,
    background: color.dangerLight,
    color: color.dangerInk,
    borderRadius: 8,
    padding: '10px 14px',
    margin: '0 0 14px',
  }),
  okBanner: css({
    border: `1px solid ${color.ok}`,
    background: color.okLight,
    color: color.okInk,
    borderRadius: 8,
    padding: '10px 14px',
    margin: '0 0 14px',
  }),
};

/** A filled or outlined button: its colours, and how it looks when it cannot be pressed. */
function buttonStyle(
  look: { padding: string; border: string; background: string; color: string; hover: string },
  disabled: { color?: string; background?: string; borderColor: string },
) {
  return css({
    font: 'inherit',
    fontWeight: 600,
    padding: look.padding,
    borderRadius: 6,
    border: `1px solid ${look.border}`,
    background: look.background,
    color: look.color,
    cursor: 'pointer',
    '&:hover': { background: look.hover },
    '&:focus-visible': focus,
    '&:disabled': { ...disabled, cursor: 'not-allowed' },
  });
}
