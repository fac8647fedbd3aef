import { css, type Theme } from '@emotion/react';
import { alpha } from './alpha.ts';

type TagTone = 'brand' | 'success' | 'neutral';

/** A small pill label (category, use case). Display only: no hover or pointer, so it never looks clickable. */
export function tagStyle(theme: Theme, tone: TagTone = 'brand') {
  const colors: Record<TagTone, { text: string; wash: string }> = {
    brand: { text: theme.colors.primaryDark, wash: alpha(theme.colors.primary, 10) },
    success: { text: theme.colors.success, wash: alpha(theme.colors.success, 10) },
    neutral: { text: theme.colors.muted, wash: theme.colors.surface },
  };
  return css({
    display: 'inline-flex',
    alignItems: 'center',
    gap: theme.space[1],
    padding: `${theme.space[1]} ${theme.space[3]}`,
    borderRadius: theme.radius.pill,
    background: colors[tone].wash,
    color: colors[tone].text,
    fontSize: theme.fontSize.xs,
    fontWeight: 600,
    lineHeight: 1.5,
    letterSpacing: '0.01em',
  });
}
