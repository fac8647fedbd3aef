import { css, useTheme } from '@emotion/react';
import { useEffect, useRef, type CSSProperties } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { Toaster } from 'sonner';
import { useDocumentHead } from './Head.tsx';
import { Footer } from './layout/Footer.tsx';
import { GlobalStyles } from './layout/GlobalStyles.tsx';
import { Header } from './layout/Header.tsx';
import { resolveHead } from './page-head.ts';
import { useSite } from './site-context.tsx';

// Spec §9 'Other constants': the toast system (sonner) shows 3 toasts for 4000 ms each, 356 px wide,
// 14 px apart, 32 px from the viewport edge. Mounted once here so toasts survive client-side navigation.
const TOAST_VISIBLE_COUNT = 3;
const TOAST_DURATION_MS = 4000;
const TOAST_WIDTH_PX = 356;
const TOAST_GAP_PX = 14;
const TOAST_OFFSET_PX = 32;

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
      <Toaster
        visibleToasts={TOAST_VISIBLE_COUNT}
        duration={TOAST_DURATION_MS}
        gap={TOAST_GAP_PX}
        offset={TOAST_OFFSET_PX}
        closeButton
        richColors
        style={
          {
            '--width': `${TOAST_WIDTH_PX}px`,
            '--normal-text': theme.colors.text,
            '--success-bg': theme.colors.white,
            '--success-border': theme.colors.success,
            '--success-text': theme.colors.success,
            '--error-bg': theme.colors.white,
            '--error-border': theme.colors.danger,
            '--error-text': theme.colors.danger,
          } as CSSProperties
        }
        toastOptions={{ style: { fontFamily: theme.font.body, fontSize: theme.fontSize.sm } }}
      />
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
