// Nothing leaves the site: every request of every route (load, hydration, lazy images further down,
// client-side navigation) goes to our own origin, and no route logs a console error or warning.
import { expect, test, type Page } from '@playwright/test';
import { ROUTES, waitForHydration, watchConsole } from './support.ts';

function recordRequests(page: Page, origin: string) {
  const foreign: string[] = [];
  let count = 0;
  page.on('request', (request) => {
    count++;
    const url = request.url();
    if (/^(data|blob):/.test(url)) return;
    if (new URL(url).origin !== origin) foreign.push(`${request.resourceType()} ${url}`);
  });
  return { foreign, count: () => count };
}

/**
 * Scrolls to the end in steps, a frame apart, so lazy images and anything loaded on view are
 * requested too. The steps run inside the page: one round trip instead of one a step (seconds less
 * a route).
 */
async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    for (let y = 0; y < document.documentElement.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await nextFrame();
    }
  });
  await page.waitForLoadState('networkidle');
}

// Each route is loaded once, narrow, and then widened and scrolled through again. The site's images
// and files do not depend on the width (no srcset, no media-bound preload; the layout is CSS media
// queries alone, see a11y.spec.ts), and what a wider layout brings into view is requested on the
// second pass, so the one load covers what a first load at either width requests.
const WIDTHS = [390, 1280] as const;

for (const route of ROUTES) {
  test(`${route.path}: only same-origin requests, no console errors, at ${WIDTHS.join(' and ')} px`, async ({ page, baseURL }) => {
    const requests = recordRequests(page, new URL(baseURL!).origin);
    const messages = watchConsole(page);
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await page.goto(route.path);
    await waitForHydration(page);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await scrollThrough(page);
      expect(requests.foreign, `requests to other origins at ${width} px`).toEqual([]);
      expect(messages, `console errors and warnings at ${width} px`).toEqual([]);
    }
    expect(requests.count(), 'requests were recorded').toBeGreaterThan(3);
  });
}

test('client-side navigation through the menu makes no third-party request either', async ({ page, baseURL }) => {
  test.slow();
  const requests = recordRequests(page, new URL(baseURL!).origin);
  const messages = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await waitForHydration(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['About', 'Services', 'Voice AI', 'Blog', 'FAQs', 'Testimonials', 'Contact', 'Home']) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await scrollThrough(page);
  }
  expect(requests.foreign).toEqual([]);
  expect(messages).toEqual([]);
});
