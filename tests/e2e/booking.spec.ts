// Booking in the page, the visitor's half: after the ROI form the visitor picks a time in our
// calendar without leaving the page. No internet here: a stand-in answers for the booking page's
// origin with a small page that behaves as Cal.com's embed does (shows a slot; on a click posts
// Cal.com's documented "booking successful" message, with the start time, to the page around it).
import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { BOOKING_ORIGIN, CONFIRMATION, SLOT, VISITOR, sendRoiForm, showFromTop, standInProvider } from './booking-stand-in.ts';
import { expectToast, startLeadReceiver } from './lead-receiver.ts';
import { BOOKING_URL, waitForHydration } from './support.ts';

const SHOTS = '/tmp/shots-b';
const SLOT_START = SLOT.start;

test.use({ timezoneId: 'America/New_York' });

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a visitor sends the ROI form, picks a time in the page, and the page confirms it', async ({ page }) => {
      test.setTimeout(60_000);
      mkdirSync(SHOTS, { recursive: true });
      const providerRequests = await standInProvider(page);
      const relayAnswers: string[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/api/leads') void response.text().then((body) => relayAnswers.push(body));
      });
      const offer = await sendRoiForm(page, '/calculator?utm_source=newsletter&utm_campaign=spring-launch');

      // Nothing of the booking service loads before the visitor asks for it.
      await expect(offer.getByRole('button', { name: 'Pick a time now' })).toBeVisible();
      expect(providerRequests).toEqual([]);
      await expect(offer.locator('iframe')).toHaveCount(0);

      await offer.getByRole('button', { name: 'Pick a time now' }).click();
      const frame = offer.locator('iframe');
      await expect(frame).toHaveAttribute('title', 'Our booking calendar');
      await expect(frame).toBeFocused();
      const calendar = page.frameLocator('[data-booking-offer] iframe');
      await expect(calendar.getByRole('button', { name: 'Tue 1 Dec, 3:00 PM' })).toBeVisible();
      await expect(offer.getByRole('link', { name: /Open the calendar in a new tab/ })).toBeVisible();

      // The calendar is prefilled, and carries the stored lead's id back to us in its webhook.
      const leadId = (JSON.parse(relayAnswers[0] ?? '{}') as { id?: string }).id;
      expect(leadId).toMatch(/^[0-9a-f-]{36}$/);
      const src = new URL((await frame.getAttribute('src'))!);
      expect(src.origin).toBe(BOOKING_ORIGIN);
      expect(src.pathname).toBe(`${new URL(BOOKING_URL).pathname}/embed`);
      expect(src.searchParams.get('name')).toBe(VISITOR.name);
      expect(src.searchParams.get('email')).toBe(VISITOR.email);
      expect(src.searchParams.get('metadata[leadId]')).toBe(leadId);
      expect(src.searchParams.get('embedType')).toBe('inline');
      expect(providerRequests.map((r) => r.url())).toEqual([src.toString()]);
      await expect(calendar.getByText(`Booking for ${VISITOR.name} <${VISITOR.email}>`)).toBeVisible();

      expect(await axeViolations(page), 'the open panel').toEqual([]);
      await showFromTop(page);
      await page.screenshot({ path: `${SHOTS}/panel-open-${viewport.width}.png` });

      // The same message from anywhere else (here: our own page) books nothing.
      await page.evaluate(
        (startTime) => window.postMessage({ originator: 'CAL', type: 'bookingSuccessfulV2', data: { startTime } }, '*'),
        SLOT_START,
      );
      await page.waitForTimeout(200);
      await expect(offer.getByText(CONFIRMATION)).toHaveCount(0);

      await calendar.getByRole('button', { name: 'Tue 1 Dec, 3:00 PM' }).click();
      const confirmation = offer.getByRole('status');
      await expect(confirmation).toHaveText(CONFIRMATION);
      await expect(confirmation).toBeFocused();
      await expectToast(page, 'Success!', CONFIRMATION, 'success');
      await expect(offer.locator('iframe')).toHaveCount(0);
      await showFromTop(page);
      await page.screenshot({ path: `${SHOTS}/confirmed-${viewport.width}.png` });
    });
  });
}

test('the booking page may be framed on the pages that can show it, and nowhere else', async ({ request }) => {
  const frameSources = async (path: string) => {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const policy = response.headers()['content-security-policy'] ?? '';
    return /(?:^|;)\s*frame-src ([^;]*)/.exec(policy)?.[1]?.trim().split(/\s+/);
  };
  for (const path of ['/calculator', '/contact', '/', '/thankyou'])
    expect(await frameSources(path), path).toEqual(["'self'", BOOKING_ORIGIN]);
  for (const path of ['/about', '/services', '/blog']) expect(await frameSources(path), path).toBeUndefined();
});

test('a page first loaded where framing is not allowed offers only the new tab, prefilled', async ({ page }) => {
  const providerRequests = await standInProvider(page);
  await startLeadReceiver(page, 201);
  await page.goto('/about');
  await waitForHydration(page);
  await page.getByRole('navigation').first().getByRole('link', { name: 'Contact', exact: true }).click();
  await expect(page).toHaveURL('/contact');
  await waitForHydration(page);
  const form = page.getByRole('form', { name: 'Send Us a Message' });
  await form.getByLabel('Full Name', { exact: true }).fill(VISITOR.name);
  await form.getByLabel('Email', { exact: true }).fill(VISITOR.email);
  await form.getByLabel('Phone', { exact: true }).fill('(512) 555-0147');
  await form.getByLabel('Service Interest').selectOption({ index: 1 });
  await form.getByLabel('Message').fill('We miss calls after hours and want to hear what a voice agent could do.');
  await form.getByRole('button', { name: 'Send Message' }).click();

  const offer = page.locator('[data-booking-offer]');
  const link = offer.getByRole('link', { name: /Open the calendar in a new tab/ });
  await expect(link).toBeVisible();
  await expect(offer.getByRole('button', { name: 'Pick a time now' })).toHaveCount(0);
  const href = new URL((await link.getAttribute('href'))!);
  expect(href.searchParams.get('email')).toBe(VISITOR.email);
  expect(href.searchParams.get('metadata[leadId]')).toBe('lead-1');
  expect(providerRequests).toEqual([]);
});

test("the thank-you page opens the landing form's visitor's calendar, prefilled, only when asked", async ({ page }) => {
  const providerRequests = await standInProvider(page);
  await startLeadReceiver(page, 201);
  await page.goto('/ai-transformation');
  await waitForHydration(page);
  const form = page.getByRole('form', { name: 'Claim Your Free 30-Minute Strategy Session' });
  await form.getByLabel('Full Name').fill(VISITOR.name);
  await form.getByLabel('Business Email').fill(VISITOR.email);
  await form.getByLabel('Phone Number').fill('+1 512 555 0147');
  await form.getByLabel('Company Name').fill('Whitfield Dental');
  await form.getByLabel('Annual Revenue').selectOption('1m-5m');
  await form.getByLabel('Biggest Challenge').fill('Our front desk misses calls during lunch and after hours.');
  await form.getByRole('button', { name: 'Claim My Free Strategy Session' }).click();
  await expect(page).toHaveURL('/thankyou');
  await waitForHydration(page);

  const offer = page.locator('[data-booking-offer]');
  await expect(offer.getByRole('heading', { level: 2, name: 'Prefer to pick a time yourself?' })).toBeVisible();
  const link = offer.getByRole('link', { name: /Open the calendar in a new tab/ });
  await expect.poll(async () => new URL((await link.getAttribute('href'))!).searchParams.get('metadata[leadId]')).toBe('lead-1');
  expect(providerRequests).toEqual([]);
  await offer.getByRole('button', { name: 'Pick a time now' }).click();
  const src = new URL((await offer.locator('iframe').getAttribute('src'))!);
  expect(src.searchParams.get('name')).toBe(VISITOR.name);
  expect(src.searchParams.get('metadata[leadId]')).toBe('lead-1');
  await expect(page.frameLocator('[data-booking-offer] iframe').getByRole('button', { name: 'Tue 1 Dec, 3:00 PM' })).toBeVisible();
  mkdirSync(SHOTS, { recursive: true });
  await showFromTop(page);
  await page.screenshot({ path: `${SHOTS}/thankyou-open-1280.png` });
});
