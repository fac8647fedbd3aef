import { css, type Theme } from '@emotion/react';

export const visuallyHidden = css({
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
});

export const container = (theme: Theme) =>
  css({
    width: '100%',
    maxWidth: theme.width.content,
    marginInline: 'auto',
    paddingInline: theme.space[5],
    [theme.mq.md]: { paddingInline: theme.space[6] },
  });
