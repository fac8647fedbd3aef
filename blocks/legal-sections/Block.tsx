import { css, useTheme } from '@emotion/react';
import type { LegalSectionsBlock } from '../../generated/content-types.ts';
import { Icon } from '../../ui/Icon.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { container } from '../../ui/styles.ts';
import { alpha } from '../../ui/alpha.ts';

/** Fixed label of the banner; the date itself comes from content. */
const LAST_UPDATED_LABEL = 'Last Updated:';

/** Anchor for a section, e.g. "information-we-collect", so sections can be linked to. */
function sectionAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The body of a legal page under its hero (h1): banner, intro, numbered h2 sections, contact addresses. */
export default function LegalSections({ lastUpdated, intro, sections, contacts }: LegalSectionsBlock) {
  const theme = useTheme();
  return (
    <section css={css({ paddingBlock: theme.space[8], [theme.mq.md]: { paddingBlock: theme.space[9] } })}>
      <div css={[container(theme), css({ maxWidth: theme.width.text, display: 'grid', gap: theme.space[7] })]}>
        <p
          css={css({
            justifySelf: 'start',
            display: 'inline-flex',
            alignItems: 'center',
            gap: theme.space[2],
            margin: 0,
            padding: `${theme.space[2]} ${theme.space[4]}`,
            borderRadius: theme.radius.pill,
            border: `1px solid ${alpha(theme.colors.primary, 20)}`,
            background: alpha(theme.colors.primary, 6),
            fontSize: theme.fontSize.sm,
            color: theme.colors.muted,
          })}
        >
          <Icon name="calendar" size={16} css={css({ color: theme.colors.primary })} />
          <strong css={css({ fontWeight: 600, color: theme.colors.text })}>{LAST_UPDATED_LABEL}</strong> {lastUpdated}
        </p>

        {intro ? (
          <Markdown parentLevel={1} css={css({ color: theme.colors.text })}>
            {intro}
          </Markdown>
        ) : null}

        <ol role="list" css={css({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: theme.space[7] })}>
          {sections.map((section, index) => {
            const anchor = sectionAnchor(section.heading);
            return (
              <li
                key={section.heading}
                css={css({
                  display: 'grid',
                  gap: theme.space[4],
                  paddingTop: theme.space[7],
                  borderTop: `1px solid ${theme.colors.border}`,
                })}
              >
                <h2
                  id={anchor}
                  css={css({
                    display: 'flex',
                    alignItems: 'baseline',
                    gap: theme.space[3],
                    margin: 0,
                    fontSize: theme.fontSize.xl,
                    lineHeight: 1.25,
                    letterSpacing: '-0.015em',
                    scrollMarginTop: theme.space[9],
                  })}
                >
                  <span css={css({ flexShrink: 0, color: theme.colors.primary, fontVariantNumeric: 'tabular-nums' })}>{index + 1}.</span>
                  {/* Collapsed by the flex layout, but keeps "1. Heading" apart in the accessible name. */} <span>{section.heading}</span>
                </h2>
                <Markdown parentLevel={2} css={css({ color: theme.colors.muted })}>
                  {section.body}
                </Markdown>
              </li>
            );
          })}
        </ol>

        <address
          css={css({
            fontStyle: 'normal',
            padding: theme.space[4],
            borderRadius: theme.radius.lg,
            background: theme.colors.surface,
            border: `1px solid ${theme.colors.border}`,
            [theme.mq.sm]: { padding: theme.space[5] },
            [theme.mq.md]: { padding: theme.space[6] },
          })}
        >
          <ul role="list" css={css({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: theme.space[4] })}>
            {contacts.map((contact) => (
              <li key={contact.email} css={css({ display: 'flex', gap: theme.space[3], alignItems: 'center' })}>
                <span
                  css={css({
                    display: 'none',
                    [theme.mq.sm]: { display: 'inline-grid' },
                    placeItems: 'center',
                    flexShrink: 0,
                    width: theme.space[7],
                    height: theme.space[7],
                    borderRadius: theme.radius.pill,
                    background: theme.colors.white,
                    border: `1px solid ${theme.colors.border}`,
                    color: theme.colors.primary,
                  })}
                >
                  <Icon name="mail" size={18} />
                </span>
                <span css={css({ display: 'grid', minWidth: 0, lineHeight: 1.45 })}>
                  <span css={css({ fontSize: theme.fontSize.sm, color: theme.colors.muted })}>{contact.label}</span>
                  <a
                    href={`mailto:${contact.email}`}
                    css={css({
                      justifySelf: 'start',
                      fontSize: theme.fontSize.sm,
                      fontWeight: 600,
                      [theme.mq.sm]: { fontSize: theme.fontSize.md },
                      overflowWrap: 'anywhere',
                      color: theme.colors.primary,
                      borderRadius: theme.radius.sm,
                      '&:hover': { color: theme.colors.primaryDark },
                      '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
                    })}
                  >
                    <EmailWithBreak email={contact.email} />
                  </a>
                </span>
              </li>
            ))}
          </ul>
        </address>
      </div>
    </section>
  );
}

/** Long addresses may wrap after the "@" rather than mid-word on narrow screens. */
function EmailWithBreak({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return email;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}
