import { css, useTheme } from '@emotion/react';
import { useId } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { container, visuallyHidden } from '../../ui/styles.ts';
import { MENU_TOGGLE_ATTRIBUTE } from '../shell/menu.ts';
import { useSite } from '../../ui/page/site-context.tsx';
import { Logo } from './Logo.tsx';

/**
 * The site header. It is never hydrated: the menu toggle's aria-expanded drives the menu through CSS,
 * and renderer/shell/menu.ts flips it (and closes the menu on Escape or when a link in it is followed).
 */
export function Header() {
  const theme = useTheme();
  const site = useSite();
  const menuId = useId();
  const toggleAttribute = { [MENU_TOGGLE_ATTRIBUTE]: '' };

  const linkStyle = css({
    display: 'block',
    padding: `${theme.space[3]} ${theme.space[3]}`,
    borderRadius: theme.radius.sm,
    color: theme.colors.text,
    fontWeight: 500,
    fontSize: theme.fontSize.sm,
    textDecoration: 'none',
    transition: `background ${theme.motion.fast}, color ${theme.motion.fast}`,
    '&:hover': { background: theme.colors.surface, color: theme.colors.primary },
    '&[aria-current="page"]': { color: theme.colors.primary, background: '#EEF2FF', fontWeight: 650 },
    [theme.mq.lg]: { padding: `${theme.space[2]} ${theme.space[3]}` },
  });

  return (
    <header
      css={css({
        position: 'sticky',
        top: 0,
        zIndex: 40,
        background: 'rgba(255,255,255,0.94)',
        backdropFilter: 'saturate(180%) blur(12px)',
        borderBottom: `1px solid ${theme.colors.border}`,
      })}
    >
      <div
        css={[
          container(theme),
          css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: theme.space[4], minHeight: '4rem' }),
        ]}
      >
        {/* Named by its visible text and a hidden ", home" rather than an aria-label: a name that
            does not contain the words people see fails speech control ("click Premier AI"). */}
        <Link
          to="/"
          css={css({
            display: 'inline-flex',
            alignItems: 'center',
            gap: theme.space[2],
            textDecoration: 'none',
            color: theme.colors.text,
            borderRadius: theme.radius.sm,
          })}
        >
          <Logo />
          <span css={visuallyHidden}>, home</span>
        </Link>
        <button
          {...toggleAttribute}
          type="button"
          aria-expanded="false"
          aria-controls={menuId}
          css={css({
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            width: '2.75rem',
            height: '2.75rem',
            border: `1px solid ${theme.colors.border}`,
            borderRadius: theme.radius.sm,
            background: theme.colors.white,
            color: theme.colors.text,
            cursor: 'pointer',
            [theme.mq.lg]: { display: 'none' },
            '& .menu-close, &[aria-expanded="true"] .menu-open': { display: 'none' },
            '&[aria-expanded="true"] .menu-close': { display: 'inline' },
          })}
        >
          <span css={visuallyHidden}>Toggle menu</span>
          <svg
            width="22"
            height="22"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            aria-hidden="true"
            focusable="false"
          >
            <path className="menu-open" d="M4 6h16M4 12h16M4 18h16" />
            <path className="menu-close" d="M18 6 6 18M6 6l12 12" />
          </svg>
        </button>
        <nav
          id={menuId}
          aria-label="Main"
          css={css({
            display: 'none',
            '[aria-expanded="true"] + &': { display: 'block' },
            position: 'absolute',
            insetInline: 0,
            top: '100%',
            background: theme.colors.white,
            borderBottom: `1px solid ${theme.colors.border}`,
            boxShadow: theme.shadow.card,
            padding: `${theme.space[3]} ${theme.space[5]} ${theme.space[5]}`,
            [theme.mq.lg]: {
              display: 'flex',
              '[aria-expanded="true"] + &': { display: 'flex' },
              alignItems: 'center',
              gap: theme.space[4],
              position: 'static',
              padding: 0,
              border: 0,
              boxShadow: 'none',
              background: 'transparent',
            },
          })}
        >
          <ul
            css={css({
              listStyle: 'none',
              margin: 0,
              padding: 0,
              display: 'grid',
              gap: theme.space[1],
              [theme.mq.lg]: { display: 'flex', gap: theme.space[1] },
            })}
          >
            {site.navigation.map((item) => (
              <li key={item.href}>
                <NavLink to={item.href} end={item.href === '/'} css={linkStyle}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          {site.headerAction ? (
            <div css={css({ marginTop: theme.space[4], [theme.mq.lg]: { marginTop: 0 } })}>
              <ActionButton action={site.headerAction} />
            </div>
          ) : null}
        </nav>
      </div>
    </header>
  );
}
