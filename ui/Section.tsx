import { css, useTheme, type Theme } from '@emotion/react';
import { useId, type ReactNode } from 'react';
import type { Tone } from '../generated/content-types.ts';
import { container } from './styles.ts';

export type SectionHeaderProps = {
  eyebrow?: string | undefined;
  heading?: string | undefined;
  intro?: string | undefined;
};

type SectionProps = SectionHeaderProps & {
  id?: string | undefined;
  tone?: Tone | undefined;
  /** Narrow column for reading text. */
  narrow?: boolean;
  align?: 'center' | 'start';
  /** Extra styles from the block (Emotion `css` prop on <Section>), e.g. decoration or tighter padding. */
  className?: string;
  children?: ReactNode;
};

export function toneStyles(theme: Theme, tone: Tone) {
  switch (tone) {
    case 'muted':
      return css({ background: theme.colors.surface });
    case 'dark':
      return css({ background: theme.colors.ink, color: theme.colors.onDark });
    case 'brand':
      return css({
        background: `linear-gradient(135deg, ${theme.colors.primaryDark} 0%, ${theme.colors.primary} 55%, ${theme.colors.accent} 130%)`,
        color: theme.colors.white,
      });
    default:
      return css({ background: theme.colors.white });
  }
}

export const isDarkTone = (tone: Tone | undefined) => tone === 'dark' || tone === 'brand';

/** The shell every block section uses: background tone, width, and a heading linked to the region. */
export function Section({ id, tone = 'plain', narrow, align = 'center', eyebrow, heading, intro, className, children }: SectionProps) {
  const theme = useTheme();
  const headingId = useId();
  const dark = isDarkTone(tone);
  return (
    <section
      id={id}
      className={className}
      aria-labelledby={heading ? headingId : undefined}
      css={[
        toneStyles(theme, tone),
        css({ paddingBlock: theme.space[8], [theme.mq.md]: { paddingBlock: theme.space[9] }, scrollMarginTop: '5rem' }),
      ]}
    >
      <div css={[container(theme), narrow && css({ maxWidth: theme.width.text })]}>
        {heading ? (
          <header
            css={css({
              textAlign: align,
              maxWidth: align === 'center' ? '44rem' : undefined,
              marginInline: align === 'center' ? 'auto' : undefined,
              marginBottom: theme.space[7],
            })}
          >
            {eyebrow ? <p css={eyebrowStyle(theme, dark)}>{eyebrow}</p> : null}
            <h2 id={headingId} css={sectionHeadingStyle(theme, dark)}>
              {heading}
            </h2>
            {intro ? (
              <p
                css={css({
                  marginTop: theme.space[4],
                  marginBottom: 0,
                  fontSize: theme.fontSize.lg,
                  lineHeight: 1.6,
                  color: dark ? theme.colors.onDark : theme.colors.muted,
                })}
              >
                {intro}
              </p>
            ) : null}
          </header>
        ) : null}
        {children}
      </div>
    </section>
  );
}

/** A block's own section heading (an h2 beside its eyebrow and intro), on a light or a dark tone. */
export function sectionHeadingStyle(theme: Theme, dark: boolean) {
  return css({
    margin: 0,
    fontSize: theme.fontSize['2xl'],
    lineHeight: 1.15,
    letterSpacing: '-0.02em',
    color: dark ? theme.colors.white : theme.colors.text,
  });
}

export function eyebrowStyle(theme: Theme, dark: boolean) {
  return css({
    display: 'inline-block',
    margin: `0 0 ${theme.space[3]}`,
    fontSize: theme.fontSize.xs,
    fontWeight: 700,
    letterSpacing: '0.08em',
    textTransform: 'uppercase',
    color: dark ? '#C7D2FE' : theme.colors.primary,
  });
}
