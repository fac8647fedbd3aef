// The analytics beacon in a real browser, its requests caught before they reach the server: a page
// view on load with where the visit came from and the forms the page shows, one after a client-side
// navigation, a lead form started once and sent, a booking click; nothing stored on the device while
// browsing; and nothing at all sent for a visitor with Global Privacy Control.
import { expect, test, type Page } from '@playwright/test';
import { startLeadReceiver } from './lead-receiver.ts';
import { BOOKING_URL, isSameDocument, markDocument, waitForHydration } from './support.ts';

type Beacon = { type: string; path: string; [field: string]: unknown };

async function catchBeacons(page: Page): Promise<Beacon[]> {
  const beacons: Beacon[] = [];
  await page.route('**/api/events', async (route) => {
    beacons.push(JSON.parse(route.request().postData() ?? 'null') as Beacon);
    await route.fulfill({ status: 204 });
  });
  return beacons;
}

/** Waits until the browser has been idle once: beacons queued before are sent by then. */
async function idle(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5_000 })));
}

test('page views, a lead form started and sent, a booking click; nothing stored while browsing', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const beacons = await catchBeacons(page);
  const receiver = await startLeadReceiver(page);
  await context.route(`${BOOKING_URL}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Booking</title>' }),
  );

  await page.goto('/about?utm_source=newsletter&utm_campaign=fall-launch&gclid=abc123');
  await waitForHydration(page);
  await expect
    .poll(() => beacons)
    .toEqual([{ type: 'pageview', path: '/about', campaign: { source: 'newsletter', name: 'fall-launch' }, click: 'gclid' }]);
  expect(JSON.stringify(beacons)).not.toContain('abc123');

  await markDocument(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page).toHaveURL('/');
  await waitForHydration(page);
  expect(await isSameDocument(page)).toBe(true);
  await expect.poll(() => beacons.at(-1)).toEqual({ type: 'pageview', path: '/', forms: ['home'] });

  const form = page.getByRole('form', { name: 'Get Your Free Consultation' });
  await form.getByLabel('Full Name').fill('Dana Reyes');
  await form.getByLabel('Business Email').fill('dana@reyes.example');
  await form.getByLabel('Phone Number').fill('+1 512 555 0148');
  await form.getByLabel('Company Name').fill('Reyes Dental');
  await idle(page);
  expect(beacons.filter((beacon) => beacon.type === 'form_start')).toEqual([{ type: 'form_start', path: '/', form: 'home' }]);

  const popup = page.waitForEvent('popup');
  await page.locator(`a[href="${BOOKING_URL}"]`).first().click();
  await (await popup).close();
  await expect.poll(() => beacons.at(-1)).toEqual({ type: 'booking_click', path: '/' });

  // Browsing wrote nothing to the device; only a lead sent is remembered (the forms' rate limit).
  expect(await page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual(['', 0, 0]);

  await form.getByRole('button', { name: 'Get Started Now' }).click();
  await expect.poll(() => receiver.leads.length).toBe(1);
  expect(beacons.filter((beacon) => beacon.type === 'form_submit')).toEqual([{ type: 'form_submit', path: '/', form: 'home' }]);
  expect(await page.evaluate(() => [document.cookie, sessionStorage.length])).toEqual(['', 0]);
});

test('a visitor with Global Privacy Control sends no beacon at all', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
  const beacons = await catchBeacons(page);
  await page.goto('/?utm_source=newsletter');
  await waitForHydration(page);
  const form = page.getByRole('form', { name: 'Get Your Free Consultation' });
  await form.getByLabel('Full Name').fill('Dana Reyes');
  await form.getByRole('button', { name: 'Get Started Now' }).click();
  await idle(page);
  expect(await page.evaluate(() => (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl)).toBe(true);
  expect(beacons).toEqual([]);
});
