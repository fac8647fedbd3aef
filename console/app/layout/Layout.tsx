// Every signed-in screen: a skip link, the header (who is signed in, their role, sign out) and the
// navigation, whose current link says aria-current="page" (NavLink sets it). Each screen is listed
// only for those whose role may read it: "Call now" first for those who work leads (their day runs
// from it); the audit log for those who may manage accounts, the people it is kept for; the lead
// screens, Analytics and Speed to lead for those who may read the leads. An editor's account is for
// the content studio and finds no screen here.
import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import type { Action } from '../../api-types.ts';
import { useSession } from '../session.tsx';

type NavItem = { to: string; label: string; end?: boolean; requires?: Action };

// "Call now" comes first for those who work leads: it is the screen their day runs from. A
// salesperson's first screen is "Call now", so their Health link has an address of its own.
const NAV: readonly NavItem[] = [
  { to: '/call-now', label: 'Call now', requires: 'leads:work' },
  { to: '/', label: 'Health', end: true, requires: 'leads:read' },
  { to: '/leads', label: 'Inbox', requires: 'leads:read' },
  { to: '/spam', label: 'Spam', requires: 'leads:read' },
  { to: '/analytics', label: 'Analytics', requires: 'analytics:read' },
  { to: '/speed', label: 'Speed to lead', requires: 'leads:read' },
  { to: '/audit', label: 'Audit log', requires: 'accounts:manage' },
  { to: '/settings', label: 'Settings', requires: 'leads:read' },
];

export function Layout() {
  const { info, can, signOut } = useSession();
  const [signingOut, setSigningOut] = useState(false);
  const { pathname } = useLocation();
  const firstScreen = useRef(true);

  // A new screen takes the focus to its content, as a page load would, so keyboard and screen
  // reader users start there instead of on the link they left.
  useEffect(() => {
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [pathname]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to the content
      </a>
      <header className="header">
        <p className="brand">Console</p>
        <div className="who">
          <span>
            Signed in as <strong>{info.email}</strong> <span className="role">({info.role})</span>
          </span>
          <button
            type="button"
            className="button"
            disabled={signingOut}
            onClick={() => {
              setSigningOut(true);
              void signOut();
            }}
          >
            {signingOut ? 'Signing out…' : 'Sign out'}
          </button>
        </div>
      </header>
      <nav className="nav" aria-label="Console">
        <ul>
          {NAV.filter((item) => !item.requires || can(item.requires)).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to === '/' && info.role === 'sales' ? '/health' : item.to} end={item.end ?? false}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
