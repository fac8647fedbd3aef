// The section around a lead form: tone, width, and the heading that names both the region and the
// form. 'split' puts the heading beside the form on wide screens; 'stacked' puts it above.
import { css, useTheme } from '@emotion/react';
import type { ReactNode } from 'react';
import type { Tone } from '../generated/content-types.ts';
import { eyebrowStyle, isDarkTone, toneStyles } from '../ui/Section.tsx';
import { container } from '../ui/styles.ts';

type LeadFormSectionProps = {
  id?: string | undefined;
  tone?: Tone | undefined;
  eyebrow?: string | undefined;
  heading: string;
  headingId: string;
  intro?: string | undefined;
  layout: 'split' | 'stacked';
  /** Widest the form card may grow in the stacked layout. */
  maxWidth?: 'form' | 'content';
  children: ReactNode;
};

export function LeadFormSection({
  id,
  tone = 'plain',
  eyebrow,
  heading,
  headingId,
  intro,
  layout,
  maxWidth = 'form',
  children,
}: LeadFormSectionProps) {
  const theme = useTheme();
  const dark = isDarkTone(tone);
  const split = layout === 'split';
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      css={[
        toneStyles(theme, tone),
        css({ paddingBlock: theme.space[8], scrollMarginTop: '5rem', [theme.mq.md]: { paddingBlock: theme.space[9] } }),
      ]}
    >
      <div
        css={[
          container(theme),
          css({ display: 'grid', gap: theme.space[7], alignItems: 'center' }),
          split && css({ [theme.mq.lg]: { gridTemplateColumns: 'minmax(0, 5fr) minmax(0, 7fr)', gap: theme.space[8] } }),
        ]}
      >
        <header
          css={css({
            textAlign: split ? 'start' : 'center',
            maxWidth: split ? undefined : '44rem',
            marginInline: split ? undefined : 'auto',
          })}
        >
          {eyebrow ? <p css={eyebrowStyle(theme, dark)}>{eyebrow}</p> : null}
          <h2
            id={headingId}
            css={css({
              margin: 0,
              fontSize: theme.fontSize['2xl'],
              lineHeight: 1.15,
              letterSpacing: '-0.02em',
              color: dark ? theme.colors.white : theme.colors.text,
            })}
          >
            {heading}
          </h2>
          {intro ? (
            <p
              css={css({
                margin: `${theme.space[4]} 0 0`,
                fontSize: theme.fontSize.lg,
                lineHeight: 1.6,
                color: tone === 'brand' ? theme.colors.white : dark ? theme.colors.onDark : theme.colors.muted,
              })}
            >
              {intro}
            </p>
          ) : null}
        </header>
        <div
          css={css({ width: '100%', minWidth: 0, marginInline: 'auto', maxWidth: split || maxWidth === 'content' ? undefined : '48rem' })}
        >
          {children}
        </div>
      </div>
    </section>
  );
}
