import { css, useTheme } from '@emotion/react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { container } from '../ui/styles.ts';

// The router's default error screen.
export const ERROR_TITLE = 'Unexpected Application Error!';

export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

export function ErrorPanel({ message }: { message: string }) {
  const theme = useTheme();
  return (
    <div role="alert" css={[container(theme), css({ paddingBlock: theme.space[7] })]}>
      <div
        css={css({
          border: `1px solid ${theme.colors.border}`,
          borderLeft: `4px solid ${theme.colors.danger}`,
          borderRadius: theme.radius.md,
          padding: theme.space[5],
          background: theme.colors.white,
        })}
      >
        <h2 css={css({ margin: 0, fontSize: theme.fontSize.xl, color: theme.colors.text })}>{ERROR_TITLE}</h2>
        <p
          css={css({
            margin: `${theme.space[3]} 0 0`,
            color: theme.colors.danger,
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
            fontSize: theme.fontSize.sm,
            wordBreak: 'break-word',
          })}
        >
          {message}
        </p>
      </div>
    </div>
  );
}

/** The router's errorElement: shown when a route fails to load or render (status text or message). */
export function ErrorScreen({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const panel = <ErrorPanel message={describeRouteError(error)} />;
  // Inside the layout the <main> already exists; a failure of the layout itself needs its own.
  return standalone ? <main id="main">{panel}</main> : panel;
}
