import { css, useTheme } from '@emotion/react';
import type { HeroBlock } from '../../generated/content-types.ts';
import { ActionRow } from '../../ui/ActionButton.tsx';
import { eyebrowStyle } from '../../ui/Section.tsx';
import { container } from '../../ui/styles.ts';

export default function Hero({ variant = 'page', eyebrow, heading, text, actions, note }: HeroBlock) {
  const theme = useTheme();
  const feature = variant === 'feature';
  const compact = variant === 'compact';
  return (
    <section
      css={css({
        position: 'relative',
        overflow: 'hidden',
        color: theme.colors.white,
        background: feature
          ? `radial-gradient(60rem 30rem at 85% -10%, rgba(8, 145, 178, 0.45), transparent 60%), radial-gradient(50rem 30rem at 0% 110%, rgba(124, 58, 237, 0.45), transparent 60%), ${theme.colors.ink}`
          : `linear-gradient(135deg, ${theme.colors.ink} 0%, #1E1B4B 100%)`,
        paddingBlock: compact ? theme.space[8] : feature ? `clamp(4.5rem, 10vw, 8rem)` : theme.space[9],
      })}
    >
      <div css={[container(theme), css({ position: 'relative', textAlign: 'center', maxWidth: feature ? '60rem' : '52rem' })]}>
        {eyebrow ? (
          <p
            css={[
              eyebrowStyle(theme, true),
              css({
                padding: `${theme.space[2]} ${theme.space[4]}`,
                borderRadius: theme.radius.pill,
                background: 'rgba(255,255,255,0.08)',
                border: '1px solid rgba(255,255,255,0.16)',
                marginBottom: theme.space[5],
              }),
            ]}
          >
            {eyebrow}
          </p>
        ) : null}
        <h1
          css={css({
            margin: 0,
            fontSize: feature ? theme.fontSize.display : compact ? theme.fontSize['2xl'] : theme.fontSize['3xl'],
            fontWeight: 800,
            lineHeight: 1.05,
            letterSpacing: '-0.035em',
          })}
        >
          {heading}
        </h1>
        {text ? (
          <p
            css={css({
              margin: `${theme.space[5]} auto 0`,
              maxWidth: '42rem',
              fontSize: compact ? theme.fontSize.md : theme.fontSize.lg,
              lineHeight: 1.65,
              color: theme.colors.onDark,
            })}
          >
            {text}
          </p>
        ) : null}
        {actions?.length ? (
          <div css={css({ marginTop: theme.space[6] })}>
            <ActionRow actions={actions} onDark align="center" />
          </div>
        ) : null}
        {note ? (
          <p css={css({ margin: `${theme.space[5]} 0 0`, fontSize: theme.fontSize.sm, color: theme.colors.onDarkMuted })}>{note}</p>
        ) : null}
      </div>
    </section>
  );
}
