import { css, useTheme } from '@emotion/react';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { useDocumentHead } from './Head.tsx';
import { Footer } from './layout/Footer.tsx';
import { GlobalStyles } from './layout/GlobalStyles.tsx';
import { Header } from './layout/Header.tsx';
import { resolveHead } from './page-head.ts';
import { useSite } from '../ui/page/site-context.tsx';

/**
 * The page frame: skip link, header, the route's blocks in <main>, footer. Prerendering renders it
 * to HTML; in the browser it renders only where no page was prerendered (`npm run dev`), where it
 * also keeps the head, scroll and focus in step with client-side navigation as the page shell
 * (renderer/shell/) does for prerendered pages.
 */
export function Layout() {
  const theme = useTheme();
  const site = useSite();
  const location = useLocation();
  const matches = useMatches();
  useDocumentHead(resolveHead(matches, site, location.pathname));
  useRouteFocus();

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
