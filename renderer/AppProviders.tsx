import { CacheProvider, ThemeProvider, type EmotionCache } from '@emotion/react';
import type { ReactNode } from 'react';
import site from 'virtual:content/site';
import { SiteProvider } from '../ui/page/site-context.tsx';
import { createTheme } from '../ui/theme.ts';

/** Emotion's cache key; server and browser must agree so prerendered styles are reused, not re-inserted. */
export const EMOTION_KEY = 'c';

/** The theme every page uses, from content/site.yaml's brand. */
export const theme = createTheme(site.brand);

export function AppProviders({ cache, children }: { cache: EmotionCache; children: ReactNode }) {
  return (
    <CacheProvider value={cache}>
      <ThemeProvider theme={theme}>
        <SiteProvider site={site}>{children}</SiteProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}
