// Field speed in a real browser: a page load sends one report when the page is hidden, with its
// Largest Contentful Paint and Cumulative Layout Shift, and Interaction to Next Paint once the visitor
// has clicked; the code that measures them is fetched only after the first paint; the server takes
// the report as sent, and thirty page loads of a page show on the console's Analytics screen. A
// visitor with Do Not Track or Global Privacy Control sends nothing at all.
//
// The page is hidden as a switch to another tab hides it: the document reports "hidden" and fires
// `visibilitychange`. A headless browser never hides a page itself, and a beacon sent while a page
// unloads leaves the browser outside the test's reach, so this is how a test sees the report.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { CONSOLE_STORES, startConsoleServer, type ConsoleServer } from './console-server.ts';
import { waitForHydration } from './support.ts';

type Beacon = { type: string; path: string; vitals?: Record<string, number> };

/** Every beacon the context's pages send, passed on to the server; its answers' statuses beside them. */
async function catchBeacons(context: BrowserContext) {
  const beacons: Beacon[] = [];
  const statuses: number[] = [];
  await context.route('**/api/events', async (route) => {
    beacons.push(JSON.parse(route.request().postData() ?? 'null') as Beacon);
    const response = await route.fetch();
    statuses.push(response.status());
    await route.fulfill({ response });
  });
  return { beacons, statuses, vitals: () => beacons.filter((beacon) => beacon.type === 'vitals') };
}

/** Hides the page as switching to another tab does, then shows it again as switching back does. */
async function hideAndShow(page: Page) {
  for (const state of ['hidden', 'visible'])
    await page.evaluate((visibility) => {
      Object.defineProperty(document, 'visibilityState', { value: visibility, configurable: true });
      Object.defineProperty(document, 'hidden', { value: visibility === 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    }, state);
}

/** Whether the field speed code has been fetched. */
const vitalsFetched = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /\/vitals-[\w-]+\.js$/.test(entry.name)));

test('a page load sends its field speed once, when the page is first hidden, measured by code fetched after the first paint', async ({
  context,
  page,
}) => {
  const { vitals, statuses } = await catchBeacons(context);
  await page.goto('/about');
  await waitForHydration(page);
  // The measuring code has arrived, after the first paint.
  await expect.poll(() => vitalsFetched(page)).toBe(true);
  const [paint, chunk] = await page.evaluate(() => [
    performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
    performance.getEntriesByType('resource').find((entry) => /\/vitals-[\w-]+\.js$/.test(entry.name))!.startTime,
  ]);
  expect(chunk).toBeGreaterThan(paint);

  // A click on the page's heading: an interaction that leads nowhere.
  await page.getByRole('heading', { level: 1 }).click();
  // The browser times an interaction up to the next frame it paints.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
  expect(vitals()).toEqual([]);

  await hideAndShow(page);
  await expect.poll(() => vitals().length).toBe(1);
  // Hidden again later: the page load has sent its report already.
  await page.getByRole('heading', { level: 1 }).click();
  await hideAndShow(page);
  const [report] = vitals();
  expect(Object.keys(report!).sort()).toEqual(['path', 'type', 'vitals']);
  expect(report!.path).toBe('/about');
  expect(Object.keys(report!.vitals!).sort()).toEqual(['CLS', 'INP', 'LCP']);
  expect(report!.vitals!.LCP).toBeGreaterThan(0);
  expect(report!.vitals!.CLS).toBeGreaterThanOrEqual(0);
  expect(report!.vitals!.INP).toBeGreaterThanOrEqual(0);
  expect(vitals()).toHaveLength(1);
  // The server took it as it was sent (every answer a 204, none refused).
  await expect.poll(() => statuses.length).toBeGreaterThanOrEqual(2);
  expect(new Set(statuses)).toEqual(new Set([204]));
});

test('a page load without a click sends its field speed without Interaction to Next Paint', async ({ context, page }) => {
  const { vitals } = await catchBeacons(context);
  await page.goto('/');
  await waitForHydration(page);
  await expect.poll(() => vitalsFetched(page)).toBe(true);
  await hideAndShow(page);
  await expect.poll(() => vitals().length).toBe(1);
  expect(vitals()[0]).toMatchObject({ type: 'vitals', path: '/' });
  expect(Object.keys(vitals()[0]!.vitals!).sort()).toEqual(['CLS', 'LCP']);
});

for (const [name, header, script] of [
  ['Do Not Track', { DNT: '1' }, () => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })],
  [
    'Global Privacy Control',
    { 'Sec-GPC': '1' },
    () => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
  ],
] as const) {
  test(`a visitor with ${name} sends no field speed, and no beacon at all`, async ({ browser }) => {
    const context = await browser.newContext({ extraHTTPHeaders: header });
    await context.addInitScript(script);
    const { beacons } = await catchBeacons(context);
    const page = await context.newPage();
    await page.goto('/about');
    await waitForHydration(page);
    await page.getByRole('heading', { level: 1 }).click();
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5_000 })));
    expect(await vitalsFetched(page)).toBe(false);
    await hideAndShow(page);
    // Time for a report that should not come.
    await page.waitForTimeout(500);
    expect(beacons).toEqual([]);
    await context.close();
  });
}

test.describe('from the browser to the console', () => {
  const PASSWORD = 'correct horse battery staple';
  const OWNER = 'owner@example.com';
  // A person's browser: a headless browser's own string is a robot's, which is never counted.
  const VISITOR = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  let server: ConsoleServer;

  test.beforeAll(async () => {
    server = await startConsoleServer(CONSOLE_STORES[0]!);
    await server.addAccount(OWNER, 'admin', PASSWORD);
  });
  test.afterAll(async () => server?.stop());

  test('thirty page loads of a page show its field speed on the Analytics screen, which fits a phone', async ({ browser }) => {
    test.setTimeout(120_000);
    const visitor = await browser.newContext({ userAgent: VISITOR });
    const page = await visitor.newPage();
    for (let load = 0; load < 30; load++) {
      await page.goto(`${server.url}/about`);
      await expect.poll(() => vitalsFetched(page)).toBe(true);
      await page.getByRole('heading', { level: 1 }).click();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
      const sent = page.waitForRequest(
        (request) => request.url().endsWith('/api/events') && request.postData()?.includes('"vitals"') === true,
      );
      await hideAndShow(page);
      await sent;
    }
    await visitor.close();

    const phone = await browser.newContext({ userAgent: VISITOR, viewport: { width: 390, height: 844 } });
    const console = await phone.newPage();
    await console.goto(`${server.url}/console/analytics`);
    await console.getByLabel('E-mail address').fill(OWNER);
    await console.getByLabel('Password').fill(PASSWORD);
    await console.getByRole('button', { name: 'Sign in' }).click();
    const section = console.getByRole('region', { name: 'Page speed for real visitors' });
    const about = section.getByRole('heading', { level: 3, name: '/about' }).locator('..');
    await expect(about.getByRole('definition')).toHaveCount(3, { timeout: 15_000 });
    await expect(about).toContainText(/Largest Contentful Paint\s*\d+\.\d s\s*(Good|Needs improvement|Poor)\s*30 visits measured/);
    await expect(about).toContainText(/Interaction to Next Paint\s*\d+ ms/);
    await expect(about).toContainText(/Cumulative Layout Shift\s*\d\.\d\d/);
    await expect(section).toContainText('A page is shown once it has 30 visits measured');
    expect(await console.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(console)).toEqual([]);
    await phone.close();
  });
});
