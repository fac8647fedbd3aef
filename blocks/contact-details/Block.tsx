import { css, useTheme } from '@emotion/react';
import type { ContactDetailsBlock, Icon as IconName } from '../../generated/content-types.ts';
import { useSite, type SiteData } from '../../ui/page/site-context.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Section } from '../../ui/Section.tsx';
import { visuallyHidden } from '../../ui/styles.ts';
import { interactiveCard, tonePalette } from '../../ui/tone-palette.ts';

type ContactEntry = { key: string; label: string; icon: IconName; value: string; href?: string };

/** The icons say what each line is; these words say it to screen readers. */
function contactEntries(contact: SiteData['contact']): ContactEntry[] {
  return [
    { key: 'email', label: 'Email', icon: 'mail', value: contact.email, href: `mailto:${contact.email}` },
    { key: 'phone', label: 'Phone', icon: 'phone', value: contact.phone, href: `tel:${contact.phoneHref}` },
    { key: 'address', label: 'Address', icon: 'map-pin', value: contact.address },
    { key: 'hours', label: 'Business hours', icon: 'clock', value: contact.hours },
  ];
}

export default function ContactDetails({ id, eyebrow, heading, intro, tone }: ContactDetailsBlock) {
  const theme = useTheme();
  const { contact } = useSite();
  const palette = tonePalette(theme, tone);
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      <address css={css({ fontStyle: 'normal' })}>
        <ul
          css={css({
            listStyle: 'none',
            margin: 0,
            padding: 0,
            display: 'grid',
            gap: theme.space[4],
            [theme.mq.sm]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
          })}
        >
          {contactEntries(contact).map((entry) => (
            <li
              key={entry.key}
              css={[
                css({
                  position: 'relative',
                  display: 'flex',
                  alignItems: 'center',
                  gap: theme.space[3],
                  padding: theme.space[4],
                  borderRadius: theme.radius.lg,
                  background: palette.card,
                  border: `1px solid ${palette.cardBorder}`,
                  boxShadow: palette.cardShadow,
                  [theme.mq.sm]: { gap: theme.space[4], padding: theme.space[5] },
                }),
                entry.href && interactiveCard(theme, palette),
              ]}
            >
              <span
                css={css({
                  flex: 'none',
                  display: 'inline-flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  width: theme.space[7],
                  height: theme.space[7],
                  borderRadius: theme.radius.md,
                  color: palette.accent,
                  background: palette.accentSoft,
                })}
              >
                <Icon name={entry.icon} />
              </span>
              <span
                css={css({
                  minWidth: 0,
                  overflowWrap: 'anywhere',
                  fontSize: theme.fontSize.sm,
                  lineHeight: 1.5,
                  [theme.mq.sm]: { fontSize: theme.fontSize.md },
                })}
              >
                <span css={visuallyHidden}>{entry.label}: </span>
                {entry.href ? (
                  <a
                    href={entry.href}
                    css={css({
                      fontWeight: 600,
                      color: palette.dark ? palette.heading : theme.colors.primary,
                      textDecoration: 'none',
                      '&:hover': { color: palette.dark ? palette.heading : theme.colors.primaryDark, textDecoration: 'underline' },
                      // The whole card is the link's hit area; the focus ring follows it.
                      '&::after': { content: '""', position: 'absolute', inset: 0, borderRadius: theme.radius.lg },
                      '&:focus-visible': { outline: 'none' },
                      '&:focus-visible::after': { boxShadow: theme.focusRing },
                    })}
                  >
                    {entry.value}
                  </a>
                ) : (
                  <span css={css({ fontWeight: 500, color: palette.heading })}>{entry.value}</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      </address>
    </Section>
  );
}
