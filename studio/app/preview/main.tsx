// The studio's preview: the real page, drawn by the site's own renderer, blocks, theme and frame
// (header and footer), from the data the editor sends as the person types. Links do not navigate;
// a click on a block tells the editor which block to open.
import createCache from '@emotion/cache';
import { CacheProvider, ThemeProvider } from '@emotion/react';
import { StrictMode, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import type { PageContent } from '../../../generated/content-types.ts';
import type { Article } from '../../../content-model/blog-index.ts';
import { loadBlockComponents, type ResolvedBlocks } from '../../../renderer/block-registry.ts';
import { Footer } from '../../../renderer/layout/Footer.tsx';
import { GlobalStyles } from '../../../renderer/layout/GlobalStyles.tsx';
import { Header } from '../../../renderer/layout/Header.tsx';
import { RenderBlocks } from '../../../renderer/RenderBlocks.tsx';
import { startMenu } from '../../../renderer/shell/menu.ts';
import { SiteProvider, type SiteData } from '../../../ui/page/site-context.tsx';
import { createTheme } from '../../../ui/theme.ts';
import { EDITOR_SOURCE, PREVIEW_BLOCK_ATTRIBUTE, PREVIEW_SOURCE, type FromPreview, type ToPreview } from '../preview-protocol.ts';
import { color } from '../ui.ts';
import { liveSite, setLiveContent } from './live-content.ts';

type Shown = {
  page: PageContent;
  path: string;
  article: Article | null;
  site: SiteData;
  components: ResolvedBlocks;
  selected: number | null;
};

let shown: Shown | undefined;
const listeners = new Set<() => void>();
const store = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => shown,
};

function post(message: FromPreview): void {
  window.parent.postMessage({ source: PREVIEW_SOURCE, ...message }, window.location.origin);
}

/**
 * Who waits for a render to reach the page. The router draws its first page after its loader ran and
 * later pages in a transition, so "navigate() returned" is not "the page is on screen": the frame
 * says when it has drawn each version.
 */
const drawnWaiters = new Map<Shown, () => void>();

function drawn(target: Shown): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle(), 5_000); // never hold the queue for a render that was superseded
    const settle = () => {
      clearTimeout(timer);
      drawnWaiters.delete(target);
      resolve();
    };
    drawnWaiters.set(target, settle);
  });
}

function Frame() {
  const current = useSyncExternalStore(store.subscribe, store.get);
  useLayoutEffect(() => {
    if (current) drawnWaiters.get(current)?.();
  });
  // What only the site settings draw (theme, header, footer) is made again only when they change,
  // not on every keystroke in a page (the site object may be changed in place: compared as text).
  const siteText = current ? JSON.stringify(current.site) : '';
  const theme = useMemo(() => createTheme((JSON.parse(siteText || '{}') as SiteData).brand), [siteText]);
  const frame = useMemo(() => (siteText ? { header: <Header />, footer: <Footer /> } : undefined), [siteText]);
  if (!current || !frame) return null;
  return (
    <ThemeProvider theme={theme}>
      <SiteProvider site={current.site}>
        <GlobalStyles />
        {frame.header}
        <main id="main" tabIndex={-1}>
          <RenderBlocks
            blocks={current.page.blocks}
            components={current.components}
            markBlock={(index) => ({ [PREVIEW_BLOCK_ATTRIBUTE]: String(index) })}
          />
        </main>
        {frame.footer}
      </SiteProvider>
    </ThemeProvider>
  );
}

// Nothing to show while the first loader runs: the page appears as soon as it has its data.
const routes: RouteObject[] = [
  { path: '*', element: <Frame />, loader: () => ({ article: shown?.article ?? null }), HydrateFallback: () => null },
];
let router: ReturnType<typeof createMemoryRouter> | undefined;
let root: ReturnType<typeof createRoot> | undefined;

async function render(message: Extract<ToPreview, { type: 'render' }>): Promise<void> {
  const started = performance.now();
  const components = await loadBlockComponents(message.page.blocks);
  const previousArticle = shown?.article;
  shown = {
    page: message.page,
    path: message.path,
    article: message.article ?? null,
    site: message.site ?? liveSite,
    components,
    selected: shown?.selected ?? null,
  };
  const onScreen = drawn(shown);
  if (!root || !router) {
    router = createMemoryRouter(routes, { initialEntries: [message.path] });
    root = createRoot(document.getElementById('root')!);
    flushSync(() =>
      root!.render(
        <StrictMode>
          <CacheProvider value={createCache({ key: 'c' })}>
            <RouterProvider router={router!} />
          </CacheProvider>
        </StrictMode>,
      ),
    );
  } else {
    if (router.state.location.pathname !== message.path) await router.navigate(message.path);
    else if (previousArticle !== shown.article) await router.revalidate();
    flushSync(() => listeners.forEach((listener) => listener()));
  }
  await onScreen;
  post({ type: 'rendered', seq: message.seq, ms: performance.now() - started });
}

// The page as people see it, but nothing leaves the preview: links and forms stay put.
document.addEventListener(
  'click',
  (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('a[href]')) event.preventDefault();
    const block = target?.closest(`[${PREVIEW_BLOCK_ATTRIBUTE}]`);
    if (block && !target?.closest('[data-menu-toggle]'))
      post({ type: 'select', index: Number(block.getAttribute(PREVIEW_BLOCK_ATTRIBUTE)) });
  },
  true,
);
document.addEventListener('submit', (event) => event.preventDefault(), true);

let queue = Promise.resolve();
window.addEventListener('message', (event: MessageEvent<ToPreview & { source?: string }>) => {
  if (event.origin !== window.location.origin || event.data?.source !== EDITOR_SOURCE) return;
  const message = event.data;
  if (message.type === 'content') setLiveContent(message.content);
  else if (message.type === 'render') queue = queue.then(() => render(message)).catch((error: unknown) => console.error(error));
  // After any render already asked for, so the block scrolled to is the one drawn last.
  else if (message.type === 'scroll-to') queue = queue.then(() => scrollToBlock(message.index));
});

function scrollToBlock(index: number) {
  // The marker has no box of its own (display: contents): its first element is where the block is.
  const element = document.querySelector(`[${PREVIEW_BLOCK_ATTRIBUTE}="${index}"]`)?.firstElementChild;
  // Scrolls this frame only: scrollIntoView would scroll the editor's page too (it jumped to the preview).
  if (element) window.scrollTo({ top: element.getBoundingClientRect().top + window.scrollY, behavior: 'instant' });
  document.querySelectorAll('[data-studio-selected]').forEach((e) => e.removeAttribute('data-studio-selected'));
  element?.setAttribute('data-studio-selected', '');
}

const style = document.createElement('style');
style.textContent = `[${PREVIEW_BLOCK_ATTRIBUTE}]>*{cursor:pointer}[${PREVIEW_BLOCK_ATTRIBUTE}]>*:hover{outline:2px dashed ${color.previewHover};outline-offset:-2px}[data-studio-selected]{outline:3px solid ${color.previewSelected};outline-offset:-3px}`;
document.head.append(style);
startMenu();
post({ type: 'ready' });
