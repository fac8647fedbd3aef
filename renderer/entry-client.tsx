// The browser entry of `npm run dev`: there is no prerendered HTML there, so React renders whole
// pages in the browser and react-router navigates between them. Prerendered pages start with the
// page shell instead (renderer/shell/entry.ts). Both share the header menu's behaviour.
import createCache from '@emotion/cache';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { captureVisitAttribution } from '../ui/page/visit-attribution.ts';
import { AppProviders, EMOTION_KEY } from './AppProviders.tsx';
import { createRoutes } from './routes.tsx';
import { startMenu } from './shell/menu.ts';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from the page');
startMenu();
captureVisitAttribution();
createRoot(root).render(
  <StrictMode>
    <AppProviders cache={createCache({ key: EMOTION_KEY })}>
      <RouterProvider router={createBrowserRouter(createRoutes())} />
    </AppProviders>
  </StrictMode>,
);
document.documentElement.dataset.hydrated = 'true';
