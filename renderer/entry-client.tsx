// Browser entry: hydrates the prerendered page, then routes client-side.
import createCache from '@emotion/cache';
import { startTransition, StrictMode } from 'react';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders, EMOTION_KEY } from './AppProviders.tsx';
import { HYDRATION_DATA_ID, ROUTE_ID_ATTRIBUTE, type HydrationData } from './hydration-data.ts';
import { adoptPrerenderedStyles } from './prerendered-styles.ts';
import { createRoutes } from './routes.tsx';

async function start() {
  const routes = createRoutes();
  // react-dom sets itself up when first imported (~30 ms of main thread on a phone): in a task of its
  // own rather than in the one that evaluates this entry. The build preloads it with the entry.
  const reactDom = nextTask().then(() => import('react-dom/client'));
  const matches = await resolveLazyMatches(routes, window.location);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from the page');

  // A static host may answer an unknown address with another page's HTML (e.g. 404.html for a
  // missing article): hydrate only when the HTML was rendered for the route we are on.
  const renderedFor = root.getAttribute(ROUTE_ID_ATTRIBUTE);
  const canHydrate = root.hasChildNodes() && renderedFor === matches.at(-1)?.route.id;
  const router = createBrowserRouter(routes, canHydrate ? { hydrationData: readHydrationData() } : {});
  const { createRoot, hydrateRoot } = await reactDom;
  const cache = createCache({ key: EMOTION_KEY });
  adoptPrerenderedStyles(cache);
  const app = (
    <StrictMode>
      <AppProviders cache={cache}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  if (!canHydrate) {
    createRoot(root).render(app);
    return;
  }
  // The prerendered page is already complete: let the browser paint it first, then hydrate as a
  // transition, which React splits into short tasks (input stays responsive; no long task).
  await nextFrame();
  startTransition(() => {
    hydrateRoot(root, app);
  });
}

/** Resolves in a later task. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Resolves after the browser has had a chance to paint. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Lazy routes of the current address must be loaded before hydration, or React would see a mismatch. */
async function resolveLazyMatches(routes: RouteObject[], location: Location) {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, { ...resolved, lazy: undefined });
    }),
  );
  return matches;
}

function readHydrationData(): HydrationData | undefined {
  const text = document.getElementById(HYDRATION_DATA_ID)?.textContent;
  return text ? (JSON.parse(text) as HydrationData) : undefined;
}

void start();
