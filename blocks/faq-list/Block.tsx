import { css, useTheme, type Theme } from '@emotion/react';
import type { FaqListBlock } from '../../generated/content-types.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { isDarkTone, Section } from '../../ui/Section.tsx';
import { alpha } from '../../ui/alpha.ts';
import { UiIcon } from '../../ui/UiIcon.tsx';

/**
 * Native <details> disclosures: they work before (and without) JavaScript, open independently and are
 * keyboard-operable. `open` is only the initial state; the browser owns it afterwards, so React never
 * re-applies it (the prop of an item never changes between renders).
 */
export default function FaqList({ id, eyebrow, heading, intro, tone, categories }: FaqListBlock) {
  const theme = useTheme();
  const dark = isDarkTone(tone);
  // Categories sit under the section heading; without one they are the section's top headings.
  const categoryLevel = heading ? 3 : 2;
  const CategoryHeading = heading ? 'h3' : 'h2';
  const styles = faqStyles(theme, dark);
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone} narrow>
      <div css={css({ display: 'grid', gap: theme.space[7] })}>
        {categories.map((category, categoryIndex) => (
          <div key={category.name} css={css({ display: 'grid', gap: theme.space[4] })}>
            <CategoryHeading css={styles.category}>{category.name}</CategoryHeading>
            <div css={css({ display: 'grid', gap: theme.space[3] })}>
              {category.items.map((item, itemIndex) => (
                <details key={item.question} open={categoryIndex === 0 && itemIndex === 0 ? true : undefined} css={styles.item}>
                  <summary css={styles.summary}>
                    <span>{item.question}</span>
                    <span data-chevron="" css={styles.chevron}>
                      <UiIcon name="chevron-down" size={18} />
                    </span>
                  </summary>
                  <div css={styles.answer}>
                    <Markdown parentLevel={categoryLevel} onDark={dark}>
                      {item.answer}
                    </Markdown>
                  </div>
                </details>
              ))}
            </div>
          </div>
        ))}
      </div>
    </Section>
  );
}

function faqStyles(theme: Theme, dark: boolean) {
  const accent = dark ? theme.colors.white : theme.colors.primary;
  return {
    category: css({
      display: 'flex',
      alignItems: 'center',
      gap: theme.space[3],
      margin: 0,
      fontSize: theme.fontSize.lg,
      fontWeight: 700,
      color: dark ? theme.colors.white : theme.colors.text,
      '&::before': {
        content: '""',
        width: theme.space[5],
        height: theme.space[1],
        borderRadius: theme.radius.pill,
        background: dark ? theme.colors.onDark : theme.colors.primary,
      },
    }),
    item: css({
      borderRadius: theme.radius.md,
      border: `1px solid ${dark ? alpha(theme.colors.white, 16) : theme.colors.border}`,
      background: dark ? alpha(theme.colors.white, 5) : theme.colors.white,
      transition: `border-color ${theme.motion.base}, box-shadow ${theme.motion.base}`,
      '&:hover': { borderColor: alpha(accent, 45) },
      '&[open]': { borderColor: alpha(accent, 35), boxShadow: dark ? 'none' : theme.shadow.card },
    }),
    summary: css({
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      gap: theme.space[4],
      padding: `${theme.space[4]} ${theme.space[5]}`,
      borderRadius: theme.radius.md,
      cursor: 'pointer',
      listStyle: 'none',
      fontSize: theme.fontSize.md,
      fontWeight: 600,
      lineHeight: 1.45,
      color: dark ? theme.colors.white : theme.colors.text,
      transition: `color ${theme.motion.fast}`,
      '&::-webkit-details-marker': { display: 'none' },
      '&:hover': { color: dark ? theme.colors.white : theme.colors.primaryDark },
      '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
      'details[open] > &': { color: dark ? theme.colors.white : theme.colors.primaryDark },
    }),
    chevron: css({
      display: 'inline-flex',
      flexShrink: 0,
      alignItems: 'center',
      justifyContent: 'center',
      width: theme.space[6],
      height: theme.space[6],
      borderRadius: theme.radius.pill,
      background: dark ? alpha(theme.colors.white, 10) : alpha(theme.colors.primary, 10),
      color: accent,
      transition: `transform ${theme.motion.base}, background ${theme.motion.fast}`,
      'summary:hover > &': { background: dark ? alpha(theme.colors.white, 18) : alpha(theme.colors.primary, 18) },
      'details[open] > summary > &': { transform: 'rotate(180deg)' },
    }),
    answer: css({ padding: `0 ${theme.space[5]} ${theme.space[5]}`, color: dark ? theme.colors.onDark : theme.colors.muted }),
  };
}
