import { css, useTheme } from '@emotion/react';
import { SmartLink } from '../../ui/SmartLink.tsx';
import { container } from '../../ui/styles.ts';
import { useSite } from '../../ui/page/site-context.tsx';
import { Logo } from './Logo.tsx';

export function Footer() {
  const theme = useTheme();
  const site = useSite();
  const { footer, contact, company } = site;
  const linkStyle = css({
    color: theme.colors.onDark,
    textDecoration: 'none',
    '&:hover': { color: theme.colors.white, textDecoration: 'underline' },
  });
  const headingStyle = css({
    margin: `0 0 ${theme.space[4]}`,
    fontSize: theme.fontSize.sm,
    fontWeight: 700,
    letterSpacing: '0.06em',
    textTransform: 'uppercase',
    color: theme.colors.white,
  });
  return (
    <footer
      css={css({ background: theme.colors.ink, color: theme.colors.onDarkMuted, paddingTop: theme.space[8], fontSize: theme.fontSize.sm })}
    >
      <div
        css={[
          container(theme),
          css({
            display: 'grid',
            gap: theme.space[7],
            gridTemplateColumns: '1fr',
            [theme.mq.md]: { gridTemplateColumns: `2fr repeat(${footer.groups.length + 1}, 1fr)` },
          }),
        ]}
      >
        <div>
          <div css={css({ display: 'flex', alignItems: 'center', gap: theme.space[2] })}>
            <Logo onDark />
          </div>
          <p css={css({ marginTop: theme.space[4], maxWidth: '28rem', lineHeight: 1.7 })}>{footer.text}</p>
        </div>
        {footer.groups.map((group) => (
          <nav key={group.heading} aria-label={group.heading}>
            <h2 css={headingStyle}>{group.heading}</h2>
            <ul css={css({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: theme.space[3] })}>
              {group.links.map((link) => (
                <li key={link.href}>
                  <SmartLink href={link.href} css={linkStyle}>
                    {link.label}
                  </SmartLink>
                </li>
              ))}
            </ul>
          </nav>
        ))}
        <div>
          <h2 css={headingStyle}>Contact</h2>
          <ul css={css({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: theme.space[3] })}>
            <li>
              <a href={`mailto:${contact.email}`} css={linkStyle}>
                {contact.email}
              </a>
            </li>
            <li>
              <a href={`tel:${contact.phoneHref}`} css={linkStyle}>
                {contact.phone}
              </a>
            </li>
            {footer.social?.map((profile) => (
              <li key={profile.href}>
                <SmartLink href={profile.href} css={linkStyle}>
                  {profile.label}
                </SmartLink>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div
        css={[
          container(theme),
          css({
            marginTop: theme.space[8],
            paddingBlock: theme.space[5],
            borderTop: '1px solid rgba(148, 163, 184, 0.25)',
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'space-between',
            gap: theme.space[3],
          }),
        ]}
      >
        <p css={css({ margin: 0 })}>
          © {footer.copyrightYear} {company.name}. All rights reserved.
        </p>
        <p css={css({ margin: 0 })}>{contact.address}</p>
      </div>
    </footer>
  );
}
