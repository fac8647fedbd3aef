import { css, useTheme } from '@emotion/react';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { captureVisitAttribution } from '../blocks/forms/browser-world.ts';
import { useDocumentHead } from './Head.tsx';
import { HYDRATED_MARK } from './hydration-data.ts';
import { Footer } from './layout/Footer.tsx';
import { GlobalStyles } from './layout/GlobalStyles.tsx';
import { Header } from './layout/Header.tsx';
import { resolveHead } from './page-head.ts';
import { useSite } from './site-context.tsx';
import { ToasterHost } from './ToasterHost.tsx';

export function Layout() {
  const theme = useTheme();
  const site = useSite();
  const location = useLocation();
  const matches = useMatches();
  useDocumentHead(resolveHead(matches, site, location.pathname));
  useRouteFocus();
  useEffect(() => {
    // Marks the document interactive: tests and CSS can tell a hydrated page from the static HTML.
    document.documentElement.dataset.hydrated = 'true';
    // The end of hydration on the performance timeline (scripts/bench/lighthouse.ts reads it from the trace).
    performance.mark(HYDRATED_MARK);
    // The visit's UTM tags, click ids and referrer are kept from the first page view, so a lead
    // sent later on another page (even after a full page load) is still attributed.
    captureVisitAttribution();
  }, []);

  return (
    <>
      <GlobalStyles />
      <a
        href="#main"
        css={css({
          position: 'absolute',
          left: theme.space[3],
          top: theme.space[3],
          zIndex: 100,
          padding: `${theme.space[3]} ${theme.space[4]}`,
          borderRadius: theme.radius.sm,
          background: theme.colors.primary,
          color: theme.colors.white,
          fontWeight: 600,
          transform: 'translateY(-200%)',
          '&:focus': { transform: 'none', color: theme.colors.white },
        })}
      >
        Skip to main content
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ToasterHost />
    </>
  );
}

/** After client-side navigation: scroll to the #hash target or the top, and move focus to the new content. */
function useRouteFocus() {
  const { pathname, hash, search } = useLocation();
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) {
      target.scrollIntoView();
      return;
    }
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname, hash, search]);
}
