// When each island of a page hydrates: at once when it is on screen as the page starts, otherwise
// when it is about to scroll into view, when the visitor touches or focuses it, or when the browser
// is idle, whichever comes first. React and the island's block load only then, and only on pages
// that have islands.
import { ISLAND_SELECTOR } from '../islands/island-markup.ts';
import type * as IslandRuntime from '../islands/hydrate-island.tsx';
import type { HydratedIsland } from '../islands/hydrate-island.tsx';

/** How far below the screen an island starts hydrating, so it is ready when it comes into view. */
const VISIBLE_MARGIN = '50% 0px';
/** Browsers without requestIdleCallback wait this long after the load event instead. */
const IDLE_FALLBACK_MS = 300;

type Scheduled = { cancel(): void; island: Promise<HydratedIsland | undefined> };
const islands = new Map<HTMLElement, Scheduled>();

let runtime: Promise<typeof IslandRuntime> | undefined;

/** Schedules every island in `container`; resolves when all of them have hydrated (or failed, which is logged). */
export function hydrateIslands(container: ParentNode): Promise<void> {
  const elements = [...container.querySelectorAll<HTMLElement>(ISLAND_SELECTOR)];
  return Promise.all(elements.map((element) => schedule(element).island)).then(() => undefined);
}

/** Stops the islands inside `container` (before its content is replaced). */
export function unmountIslands(container: Node): void {
  for (const [element, scheduled] of islands) {
    if (!container.contains(element)) continue;
    scheduled.cancel();
    void scheduled.island.then((island) => island?.unmount());
    islands.delete(element);
  }
}

function schedule(element: HTMLElement): Scheduled {
  const existing = islands.get(element);
  if (existing) return existing;
  // The wrapper has no box (display: contents): measure and watch the block inside it.
  const box = element.firstElementChild ?? element;
  let started = false;
  let cancelled = false;
  let stopWaiting = () => {};
  let cancelPending = () => {};
  const island = new Promise<HydratedIsland | undefined>((resolve) => {
    const start = () => {
      if (started || cancelled) return;
      started = true;
      stopWaiting();
      runtime ??= import('../islands/hydrate-island.tsx');
      runtime
        .then(({ hydrateIsland }) => hydrateIsland(element))
        .then(resolve, (error: unknown) => {
          console.error(`The "${element.dataset.island}" block could not start`, error);
          resolve(undefined);
        });
    };
    if (isOnScreen(box)) return start();
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && start(), {
      rootMargin: VISIBLE_MARGIN,
    });
    observer.observe(box);
    const cancelIdle = whenIdle(start);
    const interactions = ['pointerdown', 'focusin'] as const;
    for (const type of interactions) element.addEventListener(type, start, { once: true, capture: true });
    stopWaiting = () => {
      observer.disconnect();
      cancelIdle();
      for (const type of interactions) element.removeEventListener(type, start, { capture: true });
    };
    // A cancelled island never hydrates; its promise settles so nothing waits on it forever.
    cancelPending = () => {
      stopWaiting();
      resolve(undefined);
    };
  });
  const scheduled = {
    cancel() {
      cancelled = true;
      cancelPending();
    },
    island,
  };
  islands.set(element, scheduled);
  return scheduled;
}

function isOnScreen(box: Element): boolean {
  const rect = box.getBoundingClientRect();
  return rect.top < window.innerHeight && rect.bottom > 0;
}

/** Runs `callback` once the page has loaded and the main thread is idle; returns a cancel function. */
function whenIdle(callback: () => void): () => void {
  let cancel = () => {};
  const afterLoad = () => {
    // Safari has no requestIdleCallback.
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(callback);
      cancel = () => cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(callback, IDLE_FALLBACK_MS);
      cancel = () => clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') afterLoad();
  else {
    window.addEventListener('load', afterLoad, { once: true });
    cancel = () => window.removeEventListener('load', afterLoad);
  }
  return () => cancel();
}
