import { css, useTheme } from '@emotion/react';
import { Icon } from './Icon.tsx';
import type { TonePalette } from './tone-palette.ts';

/** The round check bullet of "included" lists (checklists, offer cards). Decorative: the list says what is included. */
export function CheckMark({ palette, size = 'md' }: { palette: TonePalette; size?: 'sm' | 'md' }) {
  const theme = useTheme();
  const box = size === 'sm' ? theme.space[5] : theme.space[6];
  return (
    <span
      css={css({
        flex: 'none',
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: box,
        height: box,
        borderRadius: theme.radius.pill,
        color: palette.positive,
        background: palette.positiveSoft,
      })}
    >
      <Icon name="check" size={size === 'sm' ? 14 : 16} />
    </span>
  );
}
