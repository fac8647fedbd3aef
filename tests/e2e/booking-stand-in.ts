// The booking provider's stand-in and the ROI form a visitor sends before booking, shared by the
// journeys that book in the page. No internet here: a stand-in answers for the booking page's origin
// with a small page that behaves as Cal.com's embed does (shows a slot; on a click posts Cal.com's
// documented "booking successful" message, with the start time, to the page around it).
import { type BrowserContext, type Locator, type Page, type Request } from '@playwright/test';
import { expectToast } from './lead-receiver.ts';
import { BOOKING_URL, waitForHydration } from './support.ts';

export const BOOKING_ORIGIN = new URL(BOOKING_URL).origin;
export const VISITOR = { name: 'Dana Whitfield', email: 'dana@whitfield-dental.example' };
/** The stand-in's one slot: 3:00 PM in New York on Tuesday 1 December 2026, for 30 minutes. */
export const SLOT = { label: 'Tue 1 Dec, 3:00 PM', start: '2026-12-01T20:00:00.000Z', end: '2026-12-01T20:30:00.000Z' } as const;
/** What the page says once the slot is booked (the visitor's clock is New York's). */
export const CONFIRMATION = 'Your meeting is booked for Tue 1 Dec at 3:00 PM.';

/** The stand-in booking page: one slot; choosing it posts Cal.com's bookingSuccessfulV2 to the parent. */
const STAND_IN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Discovery call</title></head>
<body style="font-family: sans-serif; margin: 16px">
<h1 style="font-size: 20px">Discovery call</h1>
<p>Booking for <span id="who"></span></p>
<button id="slot" type="button" style="padding: 12px 16px">${SLOT.label}</button>
<script>
  const params = new URLSearchParams(location.search);
  document.getElementById('who').textContent = params.get('name') + ' <' + params.get('email') + '>';
  document.getElementById('slot').addEventListener('click', () => {
    parent.postMessage({
      originator: 'CAL',
      type: 'bookingSuccessfulV2',
      namespace: params.get('embed') || '',
      fullType: 'CAL:' + (params.get('embed') || '') + ':bookingSuccessfulV2',
      data: { uid: 'bk_standin', title: 'Discovery call', startTime: '${SLOT.start}', endTime: '${SLOT.end}', status: 'ACCEPTED' },
    }, '*');
  });
</script>
</body></html>`;

/** Serves the stand-in for every request to the booking page's origin (one page or a whole browser context), and records them. */
export async function standInProvider(target: Page | BrowserContext): Promise<Request[]> {
  const requests: Request[] = [];
  await target.route(`${BOOKING_ORIGIN}/**`, async (route) => {
    requests.push(route.request());
    await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: STAND_IN_PAGE });
  });
  return requests;
}

/**
 * Opens the calculator at `address` (relative to the test's base address, or whole), sends the ROI
 * form as VISITOR, waits for the toast that offers a time, and answers the booking offer.
 */
export async function sendRoiForm(page: Page, address: string): Promise<Locator> {
  await page.goto(address);
  await waitForHydration(page);
  const form = page.getByRole('form', { name: 'Get Your Personalized ROI Analysis' });
  const field = (label: string) => form.getByLabel(label, { exact: true });
  await field('Full Name').fill(VISITOR.name);
  await field('Business Email').fill(VISITOR.email);
  await field('Phone Number').fill('(512) 555-0147');
  await field('Company Name').fill('Whitfield Dental');
  await field('Company Size').selectOption('11-50');
  await field('Annual Revenue').fill('2000000');
  await field('Industry').selectOption('healthcare');
  await field('Team Size').fill('10');
  await field('Average Salary').fill('60000');
  await field('Manual Hours per Week').selectOption('10-20');
  await form.getByRole('button', { name: 'Get My ROI Analysis & Book Session' }).click();
  await expectToast(page, 'Success!', 'Our team will call you within 24 hours — or pick a time now.', 'success');
  return page.locator('[data-booking-offer]');
}

/** Scrolls the offer's top just under the sticky header, for the screenshots. */
export async function showFromTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const top = document.querySelector('[data-booking-offer]')!.getBoundingClientRect().top + window.scrollY;
    window.scrollTo({ top: top - 96, behavior: 'instant' });
  });
}
