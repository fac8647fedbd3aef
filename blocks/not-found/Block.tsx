import { css, useTheme } from '@emotion/react';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import type { NotFoundBlock } from '../../generated/content-types.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { container, visuallyHidden } from '../../ui/styles.ts';

export default function NotFound({ code = '404', heading, text, action }: NotFoundBlock) {
  const theme = useTheme();
  const { pathname } = useLocation();
  useEffect(() => {
    // The missing path is logged to the console.
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);
  return (
    <section
      css={[
        container(theme),
        css({ minHeight: '60vh', display: 'grid', placeItems: 'center', textAlign: 'center', paddingBlock: theme.space[9] }),
      ]}
    >
      <div>
        <p
          aria-hidden="true"
          css={css({
            margin: 0,
            fontSize: 'clamp(4rem, 2rem + 10vw, 8rem)',
            fontWeight: 800,
            lineHeight: 1,
            letterSpacing: '-0.05em',
            background: `linear-gradient(135deg, ${theme.colors.primary}, ${theme.colors.accent})`,
            WebkitBackgroundClip: 'text',
            backgroundClip: 'text',
            color: 'transparent',
          })}
        >
          {code}
        </p>
        <h1 css={css({ margin: `${theme.space[4]} 0 0`, fontSize: theme.fontSize['2xl'] })}>
          <span css={visuallyHidden}>{code} </span>
          {heading}
        </h1>
        {text ? <p css={css({ margin: `${theme.space[3]} auto 0`, maxWidth: '32rem', color: theme.colors.muted })}>{text}</p> : null}
        <div css={css({ marginTop: theme.space[6] })}>
          <ActionButton action={action} />
        </div>
      </div>
    </section>
  );
}
