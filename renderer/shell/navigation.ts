// Client-side navigation for prerendered pages, without React: a followed link fetches the next
// page's prerendered HTML (the same file a full load would get), and the shell swaps it in: the new
// page's styles and head tags, then the content of #root. The address, scroll position and focus
// behave as after a page load, Back and Forward included; a page that cannot be fetched as one of
// ours is loaded in full instead, so nothing is ever worse than without the shell.
import { FULL_LOAD_ATTRIBUTE } from '../../ui/page/page-markers.ts';
import { clientNavigationTarget, isPlainClick } from './link-policy.ts';
import { NAVIGATE_EVENT, NAVIGATED_EVENT, type NavigateRequest } from './navigation-events.ts';
import { syncHead } from './head-sync.ts';

export type NavigationHooks = {
  /** A navigation started (the current page is still shown). */
  onStart(): void;
  /** The page content in `root` is about to be replaced. */
  beforeSwap(root: HTMLElement): void;
  /** `root` holds the new page, the address is the new one, scroll and focus are set. */
  afterSwap(root: HTMLElement): void;
};

type LoadedPage = { readonly url: string; readonly document: Document };
type HistoryState = { scroll?: [number, number] } | null;

/** A prefetched page is reused for this long; after that the page is fetched again. */
const PREFETCH_TTL_MS = 30_000;
const PREFETCH_LIMIT = 20;
const ROOT_ID = 'root';
const MAIN_ID = 'main';

const fetched = new Map<string, { at: number; page: Promise<LoadedPage | null> }>();
let latest = 0;
/** The page on screen, as path and query: Back and Forward between anchors of one page need no fetch. */
let shownPage = pageKey(new URL(window.location.href));

export function startNavigation(hooks: NavigationHooks): void {
  document.addEventListener('click', (event) => {
    const link = linkOf(event.target);
    const modifierKey = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
    if (!link || !isPlainClick({ button: event.button, modifierKey, defaultPrevented: event.defaultPrevented })) return;
    const url = targetOf(link);
    if (!url) return;
    event.preventDefault();
    void navigate(url, 'push', hooks);
  });
  // Fetching starts when the pointer rests on a link or it gets focus, so most pages are in hand
  // by the time the click lands. On a touch screen it starts with the tap (which sends mouseover
  // before its click): a touchstart listener would have the browser hand every touch on the page,
  // scrolls included, to the main thread, ~25 ms each on a slow phone, for a head start of one tap.
  for (const type of ['mouseover', 'focusin'] as const)
    document.addEventListener(
      type,
      (event) => {
        const link = linkOf(event.target);
        const url = link ? targetOf(link) : null;
        // A failed prefetch is forgotten; the click then tries again (or loads the page in full).
        if (url && pageKey(url) !== shownPage) loadPage(url).catch(() => {});
      },
      { passive: true },
    );
  window.addEventListener(NAVIGATE_EVENT, (event) => {
    const { href, replace } = (event as CustomEvent<NavigateRequest>).detail;
    const url = new URL(href, window.location.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    void navigate(url, replace ? 'replace' : 'push', hooks);
  });
  window.addEventListener('popstate', (event) => {
    const url = new URL(window.location.href);
    if (pageKey(url) === shownPage) return;
    void navigate(url, 'none', hooks, (event.state as HistoryState)?.scroll);
  });
  // Scroll positions of pages shown by the shell are restored by the shell; a reload or a visit to
  // another site and back restores the browser's own way.
  window.addEventListener('pagehide', () => {
    window.history.scrollRestoration = 'auto';
  });
}

/** The HTML link an event happened in (not an SVG one, whose href and target work differently). */
function linkOf(target: EventTarget | null): HTMLAnchorElement | null {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  return link instanceof HTMLAnchorElement ? link : null;
}

function targetOf(link: HTMLAnchorElement): URL | null {
  return clientNavigationTarget(
    {
      href: link.getAttribute('href') ?? '',
      target: link.target,
      download: link.hasAttribute('download'),
      fullLoad: link.hasAttribute(FULL_LOAD_ATTRIBUTE),
    },
    new URL(window.location.href),
  );
}

function pageKey(url: URL): string {
  return url.pathname + url.search;
}

async function navigate(url: URL, history: 'push' | 'replace' | 'none', hooks: NavigationHooks, scroll?: [number, number]) {
  const navigation = ++latest;
  hooks.onStart();
  const page = await loadPage(url).catch(() => null);
  if (navigation !== latest) return;
  if (!page) {
    // Not a page of this site (or the network failed): let the browser load it and show what it gets.
    if (history === 'none') window.location.reload();
    else window.location.assign(url.href);
    return;
  }
  const root = document.getElementById(ROOT_ID);
  const nextRoot = page.document.getElementById(ROOT_ID);
  if (!root || !nextRoot) return window.location.assign(url.href);

  const finalUrl = new URL(page.url);
  finalUrl.hash = url.hash;
  if (history !== 'none') {
    window.history.scrollRestoration = 'manual';
    const state = (window.history.state as HistoryState) ?? {};
    window.history.replaceState({ ...state, scroll: [window.scrollX, window.scrollY] }, '');
    if (history === 'push') window.history.pushState({}, '', finalUrl.href);
    else window.history.replaceState({}, '', finalUrl.href);
  }
  shownPage = pageKey(finalUrl);

  syncHead(document, page.document);
  hooks.beforeSwap(root);
  for (const { name, value } of nextRoot.attributes) root.setAttribute(name, value);
  // Copies, so a fetched page stays whole for the next visit to it.
  root.replaceChildren(...[...nextRoot.childNodes].map((node) => document.importNode(node, true)));
  placeViewport(finalUrl.hash, scroll);
  window.dispatchEvent(new CustomEvent(NAVIGATED_EVENT));
  hooks.afterSwap(root);
}

/** After a swap: back to where the visitor was (Back/Forward), to the #anchor, or to the top with focus on the content. */
function placeViewport(hash: string, scroll: [number, number] | undefined) {
  if (scroll) return window.scrollTo({ left: scroll[0], top: scroll[1], behavior: 'instant' });
  const anchor = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  if (anchor) return anchor.scrollIntoView();
  window.scrollTo({ left: 0, top: 0, behavior: 'instant' });
  // Screen readers start reading the new page; the skip link is one Tab away again.
  document.getElementById(MAIN_ID)?.focus({ preventScroll: true });
}

/** The prerendered page at `url`: fetched once, shared by prefetch and navigation, null when it is not one of ours. */
function loadPage(url: URL): Promise<LoadedPage | null> {
  const key = pageKey(url);
  const cached = fetched.get(key);
  if (cached && performance.now() - cached.at < PREFETCH_TTL_MS) return cached.page;
  const page = fetchPage(key);
  fetched.set(key, { at: performance.now(), page });
  // A failed fetch is not kept: the next attempt goes to the network again.
  page.then(
    (loaded) => loaded ?? fetched.delete(key),
    () => fetched.delete(key),
  );
  if (fetched.size > PREFETCH_LIMIT) fetched.delete(fetched.keys().next().value!);
  return page;
}

async function fetchPage(address: string): Promise<LoadedPage | null> {
  const response = await fetch(address, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
  if (!(response.headers.get('Content-Type') ?? '').startsWith('text/html')) return null;
  const document = new DOMParser().parseFromString(await response.text(), 'text/html');
  return document.getElementById(ROOT_ID) ? { url: response.url, document } : null;
}
