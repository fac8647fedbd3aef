// The section around a lead form: tone, width, and the heading that names both the region and the
// form. 'split' puts the heading beside the form on wide screens; 'stacked' puts it above.
import { css, useTheme, type Theme } from '@emotion/react';
import { memo, useMemo, type ReactNode } from 'react';
import type { Tone } from '../generated/content-types.ts';
import { eyebrowStyle, isDarkTone, sectionHeadingStyle, toneStyles } from '../ui/Section.tsx';
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
  const split = layout === 'split';
  // The form inside re-renders on every key, and this section with it: its styles are computed once
  // and its heading is a memoised component, so a key redraws only the two boxes around the form (on
  // a slow phone each style serialised again costs a hash per render).
  const boxes = useMemo(() => sectionStyles(theme, tone, split, maxWidth), [theme, tone, split, maxWidth]);
  return (
    <section id={id} aria-labelledby={headingId} css={boxes.section}>
      <div css={boxes.layout}>
        <SectionHeader tone={tone} eyebrow={eyebrow} heading={heading} headingId={headingId} intro={intro} split={split} />
        <div css={boxes.formColumn}>{children}</div>
      </div>
    </section>
  );
}

function sectionStyles(theme: Theme, tone: Tone, split: boolean, maxWidth: 'form' | 'content') {
  return {
    // One serialised style each (not an array, which emotion would serialise again on every render).
    section: css([
      toneStyles(theme, tone),
      css({ paddingBlock: theme.space[8], scrollMarginTop: '5rem', [theme.mq.md]: { paddingBlock: theme.space[9] } }),
    ]),
    layout: css([
      container(theme),
      css({ display: 'grid', gap: theme.space[7], alignItems: 'center' }),
      split && css({ [theme.mq.lg]: { gridTemplateColumns: 'minmax(0, 5fr) minmax(0, 7fr)', gap: theme.space[8] } }),
    ]),
    formColumn: css({ width: '100%', minWidth: 0, marginInline: 'auto', maxWidth: split || maxWidth === 'content' ? undefined : '48rem' }),
  };
}

type SectionHeaderProps = Pick<LeadFormSectionProps, 'eyebrow' | 'heading' | 'headingId' | 'intro'> & { tone: Tone; split: boolean };

const SectionHeader = memo(function SectionHeader({ tone, eyebrow, heading, headingId, intro, split }: SectionHeaderProps) {
  const theme = useTheme();
  const dark = isDarkTone(tone);
  return (
    <header
      css={css({
        textAlign: split ? 'start' : 'center',
        maxWidth: split ? undefined : '44rem',
        marginInline: split ? undefined : 'auto',
      })}
    >
      {eyebrow ? <p css={eyebrowStyle(theme, dark)}>{eyebrow}</p> : null}
      <h2 id={headingId} css={sectionHeadingStyle(theme, dark)}>
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
  );
});
