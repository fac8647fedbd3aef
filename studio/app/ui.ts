// The studio's look: plain, calm and high-contrast (WCAG 2.2 AA), readable at 1280 px, usable at 390 px.
import { css } from '@emotion/react';
import { visuallyHidden } from '../../ui/styles.ts';

const focus = { outline: '3px solid #4338ca', outlineOffset: 2 };

export const ui = {
  field: css({ display: 'grid', gap: 4, marginBottom: 14 }),
  label: css({ fontWeight: 600, color: '#0f172a' }),
  checkboxLabel: css({ display: 'flex', gap: 8, alignItems: 'center', fontWeight: 600 }),
  help: css({ margin: 0, color: '#475569', fontSize: 14 }),
  input: css({
    font: 'inherit',
    padding: '8px 10px',
    border: '1px solid #64748b',
    borderRadius: 6,
    background: '#fff',
    color: '#0f172a',
    width: '100%',
    boxSizing: 'border-box',
    '&:focus-visible': focus,
    '&[aria-invalid="true"]': { borderColor: '#b91c1c', borderWidth: 2 },
  }),
  textarea: css({ minHeight: 90, resize: 'vertical' }),
  group: css({ border: '1px solid #cbd5e1', borderRadius: 8, padding: '10px 14px 6px', margin: '0 0 14px', minWidth: 0 }),
  groupTitle: css({ fontWeight: 700, padding: '0 4px', color: '#0f172a' }),
  error: css({ color: '#b91c1c', fontWeight: 600, fontSize: 14, '& p': { margin: '2px 0' } }),
  button: buttonStyle(
    { padding: '8px 14px', border: '#4338ca', background: '#4338ca', color: '#fff', hover: '#3730a3' },
    {
      background: '#94a3b8',
      borderColor: '#94a3b8',
    },
  ),
  secondaryButton: buttonStyle(
    { padding: '6px 12px', border: '#4338ca', background: '#fff', color: '#3730a3', hover: '#eef2ff' },
    {
      color: '#64748b',
      borderColor: '#94a3b8',
    },
  ),
  dangerButton: buttonStyle(
    { padding: '6px 12px', border: '#b91c1c', background: '#fff', color: '#b91c1c', hover: '#fef2f2' },
    {
      color: '#64748b',
      borderColor: '#94a3b8',
    },
  ),
  linkButton: css({
    font: 'inherit',
    background: 'none',
    border: 'none',
    padding: '4px 0',
    color: '#3730a3',
    textDecoration: 'underline',
    cursor: 'pointer',
    '&:focus-visible': focus,
  }),
  iconButton: css({
    font: 'inherit',
    minWidth: 36,
    minHeight: 36,
    borderRadius: 6,
    border: '1px solid #94a3b8',
    background: '#fff',
    color: '#0f172a',
    cursor: 'pointer',
    '&:hover': { background: '#f1f5f9' },
    '&:focus-visible': focus,
    '&:disabled': { color: '#94a3b8', cursor: 'not-allowed' },
  }),
  visuallyHidden,
  badge: css({
    fontSize: 12,
    fontWeight: 700,
    borderRadius: 999,
    padding: '1px 8px',
    background: '#e0e7ff',
    color: '#312e81',
    whiteSpace: 'nowrap',
  }),
  banner: css({
    border: '1px solid #b45309',
    background: '#fffbeb',
    color: '#78350f',
    borderRadius: 8,
    padding: '10px 14px',
    margin: '0 0 14px',
  }),
  errorBanner: css({
    border: '1px solid #b91c1c',
    background: '#fef2f2',
    color: '#7f1d1d',
    borderRadius: 8,
    padding: '10px 14px',
    margin: '0 0 14px',
  }),
  okBanner: css({
    border: '1px solid #047857',
    background: '#ecfdf5',
    color: '#064e3b',
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
