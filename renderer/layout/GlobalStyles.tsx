import { Global, useTheme, type Theme } from '@emotion/react';
import { ISLAND_ATTRIBUTE } from '../islands/island-markup.ts';
import interLatinUrl from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';

/** The one preloaded font file (self-hosted, Latin subset, variable weight). */
export const FONT_URL = interLatinUrl;

/** Marks the <style> element that carries globalCss() in prerendered pages. */
export const GLOBAL_STYLES_ATTRIBUTE = 'data-global-styles';

/**
 * The site-wide CSS: the font, element defaults, focus ring and reduced motion. Prerendered pages
 * carry it as a static <style> element (renderer/entry-server.tsx) that the app never touches, so
 * hydration does not restyle the page; <GlobalStyles> adds it only where no page was prerendered.
 */
export function globalCss(theme: Theme): string {
  return `
    @font-face {
      font-family: 'Inter Variable';
      font-style: normal;
      font-display: swap;
      font-weight: 100 900;
      src: url(${interLatinUrl}) format('woff2-variations');
      unicode-range: U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD;
    }
    *, *::before, *::after { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; scroll-behavior: smooth; }
    body {
      margin: 0;
      font-family: ${theme.font.body};
      font-size: ${theme.fontSize.md};
      line-height: 1.6;
      color: ${theme.colors.text};
      background: ${theme.colors.white};
      -webkit-font-smoothing: antialiased;
      text-rendering: optimizeLegibility;
    }
    h1, h2, h3, h4 { line-height: 1.2; letter-spacing: -0.015em; text-wrap: balance; }
    p { text-wrap: pretty; }
    img, svg { max-width: 100%; height: auto; }
    a { color: ${theme.colors.primary}; text-underline-offset: 0.18em; }
    a:hover { color: ${theme.colors.primaryDark}; }
    :focus-visible { outline: 3px solid ${theme.colors.primary}; outline-offset: 2px; }
    main:focus { outline: none; }
    [${ISLAND_ATTRIBUTE}] { display: contents; }
    button, input, select, textarea { font: inherit; }
    ::selection { background: #C7D2FE; color: ${theme.colors.text}; }
    @media (prefers-reduced-motion: reduce) {
      html { scroll-behavior: auto; }
      *, *::before, *::after {
        animation-duration: 0.01ms !important;
        animation-iteration-count: 1 !important;
        transition-duration: 0.01ms !important;
      }
    }
  `
    .replace(/\n\s*/g, ' ')
    .trim();
}

// Decided once: either the prerendered page has the static element (always, in production), or the
// app started without prerendered HTML (`npm run dev`, a page rendered in the browser) and needs it.
const needsGlobalStyles = typeof document !== 'undefined' && document.querySelector(`style[${GLOBAL_STYLES_ATTRIBUTE}]`) === null;

export function GlobalStyles() {
  const theme = useTheme();
  return needsGlobalStyles ? <Global styles={globalCss(theme)} /> : null;
}
