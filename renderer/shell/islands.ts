// When each island of a page hydrates: at once when it is on screen as the page starts, otherwise
// when it comes within a screen's height of the viewport, or when the visitor taps, clicks or focuses it
// (a keyboard user tabbing into a form far down). React and the island's block load only then, and
// only on pages that have islands, so a phone reading the top of a long page spends nothing on a
// form at its end. A value typed before the island hydrated is kept: the form takes it in once hydrated.
//
// A form (a lead form, the calculator) waits for the visitor even when it is on screen: it hydrates
// when they point at it, tap it or tab into it, or scroll it near, and then only once they pause
// (FORM_PAUSE_MS without a key or a tap in it). Until then it is the prerendered form, which takes
// typing natively and sends without script. React's own start-up is the one piece that cannot be cut
// into short tasks (evaluating react-dom takes a few hundred ms at 16× CPU slowdown), so it starts in
// a pause of the visitor's rather than under their tap: the first tap and the keys typed without a
// pause are answered by the browser at once. A key typed once the pause is over can still wait behind
// it; keys typed while the form hydrates are the browser's (renderer/islands/field-events-guard.ts).
import { ISLAND_SELECTOR } from '../islands/island-markup.ts';
import { FORM_PAUSE_MS } from '../islands/island-timing.ts';
import { FORM_SHOWN_AT_ATTRIBUTE } from '../../ui/page/page-markers.ts';
import { idleTask } from '../../ui/page/when-idle.ts';
import type * as IslandRuntime from '../islands/hydrate-island.tsx';
import type { HydratedIsland } from '../islands/hydrate-island.tsx';

/** How far outside the screen an island starts hydrating, so it is ready when it comes into view. */
const NEAR_MARGIN = '100% 0px';

/**
 * What the visitor does in a form that postpones its hydration to their next pause. Mouse events, not
 * pointer or touch events: while a page has any pointer or touch listener, the browser hands every
 * touch (a scroll's included) to the main thread as it lands, ~25 ms of work per touch at 16× CPU
 * slowdown ahead of the tap's own. A tap sends mouseover and mousedown too, as it is answered.
 */
const FORM_ACTIVITY = ['mousedown', 'keydown', 'input'] as const;

type Scheduled = { cancel(): void; island: Promise<HydratedIsland | undefined>; startedAtOnce: boolean };
const islands = new Map<HTMLElement, Scheduled>();

let runtime: Promise<typeof IslandRuntime> | undefined;

/**
 * Schedules every island in `container`. Resolves when the islands on screen have hydrated (or
 * failed, which is logged): the page then responds to everything the visitor can see.
 */
export function hydrateIslands(container: ParentNode): Promise<void> {
  const elements = [...container.querySelectorAll<HTMLElement>(ISLAND_SELECTOR)];
  const started = elements.map(schedule).filter((scheduled) => scheduled.startedAtOnce);
  return Promise.all(started.map((scheduled) => scheduled.island)).then(() => undefined);
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
  let pause: ReturnType<typeof setTimeout> | undefined;
  let cancelPending = () => {};
  let releaseSubmit: (hydrated: HydratedIsland | undefined) => void = () => {};
  const form = element.querySelector('form');
  const waitsForVisitor = form !== null;
  const startedAtOnce = !waitsForVisitor && isOnScreen(box);
  const island = new Promise<HydratedIsland | undefined>((resolve) => {
    const start = () => {
      if (started || cancelled) return;
      started = true;
      clearTimeout(pause);
      stopWaiting();
      // At an idle moment: the tap or key that started it is painted first, before React's modules are evaluated.
      runtime ??= loadRuntime().catch((error: unknown) => {
        // A failed download is tried again by the next island that starts.
        runtime = undefined;
        throw error;
      });
      runtime
        .then(({ hydrateIsland }) => hydrateIsland(element))
        .then(
          (hydrated) => {
            resolve(hydrated);
            releaseSubmit(hydrated);
          },
          (error: unknown) => {
            console.error(`The "${element.dataset.island}" block could not start`, error);
            resolve(undefined);
            releaseSubmit(undefined);
          },
        );
    };
    if (startedAtOnce) return start();
    // A form starts at the visitor's next pause: pointing at it, tapping it, tabbing into it or
    // scrolling it near sets the clock; every key or tap in it before then sets it again (a finger
    // scrolling over it is not a tap: the browser does not hand it to us, see FORM_ACTIVITY).
    const startWhenPaused = () => {
      if (started || cancelled) return;
      clearTimeout(pause);
      pause = setTimeout(start, FORM_PAUSE_MS);
    };
    const arm = () => {
      if (pause === undefined) startWhenPaused();
    };
    const activity = () => {
      if (pause !== undefined) startWhenPaused();
    };
    const begin = waitsForVisitor ? arm : start;
    // A form on screen as the page starts is not "near" yet: it is once the visitor scrolls. The shell's
    // own scrolling (to the top, or back to where the visitor was, after a navigation) happened before
    // this, so a scroll to where the page already is does not count.
    const scrolledFrom = window.scrollY;
    let scrolled = !waitsForVisitor;
    let near = false;
    const observer = new IntersectionObserver(
      (entries) => {
        near = entries.some((entry) => entry.isIntersecting);
        if (!near) return;
        if (waitsForVisitor && !element.hasAttribute(FORM_SHOWN_AT_ATTRIBUTE))
          element.setAttribute(FORM_SHOWN_AT_ATTRIBUTE, String(Date.now()));
        if (scrolled) begin();
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(box);
    const onScroll = () => {
      if (window.scrollY === scrolledFrom) return;
      scrolled = true;
      if (near) begin();
    };
    if (waitsForVisitor) addEventListener('scroll', onScroll, { passive: true });
    // Pointing at it with a mouse, tapping or clicking it, tabbing into it (mouse events: see FORM_ACTIVITY).
    const interactions = waitsForVisitor ? (['mouseover', 'mousedown', 'focusin'] as const) : (['mousedown', 'focusin'] as const);
    for (const type of interactions) element.addEventListener(type, begin, { capture: true });
    if (waitsForVisitor) for (const type of FORM_ACTIVITY) element.addEventListener(type, activity, { capture: true, passive: true });
    // A form sent before it has hydrated (autofill, then Go) waits for it, then is sent by the form
    // itself, with its checks, attribution and message; should the block fail to start, the browser
    // sends it as a plain post, as without script.
    let submitPressed = false;
    const holdSubmit = (event: Event) => {
      event.preventDefault();
      // The held submission has one owner: should the form have just hydrated, React does not send it too.
      event.stopPropagation();
      if (submitPressed) return;
      submitPressed = true;
      start();
    };
    form?.addEventListener('submit', holdSubmit, { capture: true });
    // Tapped and typed into before this script ran (a slow phone): no touch or focus is coming to
    // start it, so the clock starts now.
    if (waitsForVisitor && element.contains(document.activeElement)) arm();
    stopWaiting = () => {
      observer.disconnect();
      removeEventListener('scroll', onScroll);
      for (const type of interactions) element.removeEventListener(type, begin, { capture: true });
      for (const type of FORM_ACTIVITY) element.removeEventListener(type, activity, { capture: true });
    };
    releaseSubmit = (hydrated) => {
      form?.removeEventListener('submit', holdSubmit, { capture: true });
      if (!submitPressed || !form?.isConnected) return;
      if (!hydrated) return form.submit();
      // The form itself waits until it has taken in what was typed before it hydrated (forms/use-lead-form.ts).
      form.requestSubmit();
    };
    // A cancelled island never hydrates; its promise settles so nothing waits on it forever.
    cancelPending = () => {
      clearTimeout(pause);
      stopWaiting();
      // The page is being replaced: a held submission goes nowhere.
      form?.removeEventListener('submit', holdSubmit, { capture: true });
      resolve(undefined);
    };
  });
  const scheduled = {
    cancel() {
      cancelled = true;
      cancelPending();
    },
    island,
    startedAtOnce,
  };
  islands.set(element, scheduled);
  return scheduled;
}

/**
 * Emotion, the site's settings, the providers and react-router, each evaluated in an idle task of its
 * own, then the island runtime that uses them. A module graph is evaluated in one go, so imported
 * together they were one task of ~120 ms at 16× CPU slowdown as the first form started. (React is
 * not a step of its own: a CommonJS module imported from here would load the bundler's interop
 * helper on every page.)
 */
function loadRuntime(): Promise<typeof IslandRuntime> {
  const parts: (() => Promise<unknown>)[] = [
    () => import('@emotion/cache'),
    () => import('virtual:content/site'),
    () => import('../AppProviders.tsx'),
    () => import('../islands/IslandRoot.tsx'),
  ];
  return parts
    .reduce((loaded, load) => loaded.then(idleTask).then(load), Promise.resolve<unknown>(undefined))
    .then(idleTask)
    .then(() => import('../islands/hydrate-island.tsx'));
}

function isOnScreen(box: Element): boolean {
  const rect = box.getBoundingClientRect();
  return rect.top < window.innerHeight && rect.bottom > 0;
}
