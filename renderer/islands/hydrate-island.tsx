// Hydrates one island in the browser: loads its block, reads its data from the wrapper and hydrates
// the wrapper's content as a React root of its own. Loaded by the page shell only on pages that have
// islands, so React reaches the browser only where something responds to the visitor.
import createCache, { type EmotionCache } from '@emotion/cache';
import { startTransition, type ComponentType } from 'react';
import type * as ReactDomClient from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { createPath, type Navigator } from 'react-router-dom';
import { blockRegistry, isInteractive } from '../block-registry.ts';
import type { Block, BlockType } from '../../generated/content-types.ts';
import { EMOTION_KEY } from '../AppProviders.tsx';
import { adoptPrerenderedStyles } from '../prerendered-styles.ts';
import { NAVIGATED_EVENT, requestNavigation } from '../shell/navigation-events.ts';
import { idleTask } from '../../ui/page/when-idle.ts';
import { holdFieldEventsFromReact } from './field-events-guard.ts';
import { withoutUnhandledEventListeners } from './island-events.ts';
import { warmUpEvents } from './warm-up.tsx';
import { IslandRoot, type IslandLocation, type LocationSource } from './IslandRoot.tsx';
import {
  ISLAND_ATTRIBUTE,
  ISLAND_HYDRATED_ATTRIBUTE,
  ISLAND_ID_ATTRIBUTE,
  ISLAND_PROPS_ATTRIBUTE,
  islandIdentifierPrefix,
} from './island-markup.ts';

export type HydratedIsland = { readonly element: HTMLElement; unmount(): void };

let cache: EmotionCache | undefined;
let reactDom: Promise<typeof ReactDomClient> | undefined;

/** One emotion cache for every island: rules the page's prerendered <style> elements hold are never inserted again. */
function islandCache(): EmotionCache {
  cache ??= createCache({ key: EMOTION_KEY });
  // Pages reached by client-side navigation bring their own <style> elements: adopt them too.
  adoptPrerenderedStyles(cache);
  return cache;
}

/** Resolves once the island has committed, i.e. it responds to the visitor. */
export async function hydrateIsland(element: HTMLElement): Promise<HydratedIsland> {
  const type = element.getAttribute(ISLAND_ATTRIBUTE) as BlockType;
  if (!Object.hasOwn(blockRegistry, type) || !isInteractive(type)) throw new Error(`"${type}" is not an interactive block type`);
  const block = JSON.parse(element.getAttribute(ISLAND_PROPS_ATTRIBUTE) ?? 'null') as Block;
  // react-dom sets itself up when first evaluated (tens of ms on a phone), and a form block brings
  // its engine: each in its own task at an idle moment, so neither adds to the other's and a tap in
  // between is answered first.
  reactDom ??= idleTask().then(() => import('react-dom/client'));
  const client = await reactDom;
  const { hydrateRoot } = client;
  await idleTask();
  const Component = (await blockRegistry[type].load()).default as ComponentType<Block>;
  await idleTask();
  const identifierPrefix = islandIdentifierPrefix(element.getAttribute(ISLAND_ID_ATTRIBUTE) ?? '');
  let root: Root | undefined;
  // Keys and taps in the fields meanwhile are the browser's to answer, so React never hydrates the
  // whole island in one task to answer one of them (field-events-guard.ts).
  const releaseFields = holdFieldEventsFromReact(element);
  try {
    await new Promise<void>((resolve, reject) => {
      // As a transition, React hydrates in short slices and input stays responsive. React does not
      // listen on the island for touches, pointers, hover or transitions, which no block handles
      // (island-events.ts). startTransition reports an error thrown in it instead of passing it on,
      // so a root that cannot be created rejects here: the fields are released and the failure logged.
      startTransition(() => {
        try {
          root = withoutUnhandledEventListeners(element, () =>
            hydrateRoot(
              element,
              <IslandRoot
                cache={islandCache()}
                location={SHELL_LOCATION}
                navigator={SHELL_NAVIGATOR}
                isStatic={false}
                block={block}
                Component={Component}
                onHydrated={resolve}
              />,
              { identifierPrefix },
            ),
          );
        } catch (error) {
          reject(error);
        }
      });
    });
  } finally {
    releaseFields();
  }
  element.setAttribute(ISLAND_HYDRATED_ATTRIBUTE, '');
  // An island with fields will be tapped and typed into: React's code for that is compiled ahead (warm-up.tsx).
  if (element.querySelector('input, textarea, select'))
    void warmUpEvents(client).catch((error: unknown) => console.error('Warming up the islands’ events failed', error));
  return { element, unmount: () => root?.unmount() };
}

function readLocation(): IslandLocation {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash };
}

// The address, as islands see it: updated when the shell navigates (an island outside the page
// content, like the toaster, outlives a navigation).
let location = readLocation();
const listeners = new Set<() => void>();
const onAddressChange = () => {
  location = readLocation();
  listeners.forEach((listener) => listener());
};
window.addEventListener(NAVIGATED_EVENT, onAddressChange);
window.addEventListener('popstate', onAddressChange);

const SHELL_LOCATION: LocationSource = {
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => location,
};

/** react-router's links and navigate() inside islands go through the page shell. */
const SHELL_NAVIGATOR: Navigator = {
  createHref: (to) => (typeof to === 'string' ? to : createPath(to)),
  go: (delta) => window.history.go(delta),
  push: (to) => requestNavigation(typeof to === 'string' ? to : createPath(to)),
  replace: (to) => requestNavigation(typeof to === 'string' ? to : createPath(to), true),
};
