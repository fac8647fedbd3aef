// The whole journey, on SQLite and on PostgreSQL: a visitor from a campaign link sends the ROI form
// and books a meeting in the page; Cal.com's signed webhook brings the booking back; the salesperson
// sees the meeting on the lead's timeline with the clock stopped, the CRM gets the signed follow-up
// event, and the owner's Analytics screen counts the meeting under the campaign, equal to the inbox.
// No internet here: the booking page is a local stand-in, and the test posts the webhook as Cal.com
// would, with its documented payload and signature.
import { createHmac } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { AnalyticsSummary, BookingList, LeadPage } from '../../console/api-types.ts';
import { calPayload } from '../../server/testing/booking-payloads.ts';
import type { ReceivedRequest } from '../../server/testing/crm-receiver.ts';
import { CONFIRMATION, SLOT, VISITOR, sendRoiForm, standInProvider } from './booking-stand-in.ts';
import { CONSOLE_STORES, signInToConsole, startConsoleServer, type ConsoleServer } from './console-server.ts';

const PASSWORD = 'correct horse battery staple';
const SAM = 'sam@example.com';
const OWNER = 'owner@example.com';
const CAMPAIGN = 'spring-audit';
const CAMPAIGN_LINK = `/calculator?utm_source=newsletter&utm_medium=email&utm_campaign=${CAMPAIGN}`;
/** The secret typed into Cal.com's webhook settings, and into the server's CAL_WEBHOOK_SECRET. */
const CAL_SECRET = 'cal-webhook-secret-for-the-journey';
/** The server signs what it sends the CRM with this Standard Webhooks secret. */
const CRM_SECRET = `whsec_${Buffer.from('a crm webhook secret of 32 bytes').toString('base64')}`;
/** A person's browser (a headless browser's own string is a robot's, which analytics never count). */
const DESKTOP_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** How the timeline says the stand-in's slot, in New York time, where the team works. */
const MEETING_ENTRY = 'Meeting booked for Tue 1 Dec, 3:00 PM';
const SHOTS = '/tmp/shots-j';
const POLL = { timeout: 15_000, intervals: [100, 250] };

/** Whether a request carries a valid Standard Webhooks signature (standardwebhooks.com) for `secret`. */
function signedWith(request: ReceivedRequest, secret: string): boolean {
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
  return String(request.headers['webhook-signature'])
    .split(' ')
    .some((signature) => signature === `v1,${expected}`);
}

for (const harness of CONSOLE_STORES) {
  test.describe(`from a campaign link to a meeting on ${harness.kind}`, () => {
    test.skip(harness.skipReason !== undefined, harness.skipReason ?? '');
    let server: ConsoleServer;
    const contexts: BrowserContext[] = [];

    test.beforeAll(async () => {
      server = await startConsoleServer(harness, { CAL_WEBHOOK_SECRET: CAL_SECRET, CRM_WEBHOOK_SECRET: CRM_SECRET });
      await server.addAccount(SAM, 'sales', PASSWORD);
      await server.addAccount(OWNER, 'admin', PASSWORD);
      await mkdir(SHOTS, { recursive: true });
    });
    test.afterAll(async () => {
      for (const context of contexts) await context.close();
      await server?.stop();
    });

    /** A browser of its own for each person, in New York time. */
    async function person(browser: Browser, width: number): Promise<Page> {
      const context = await browser.newContext({
        userAgent: DESKTOP_CHROME,
        timezoneId: 'America/New_York',
        viewport: { width, height: width < 600 ? 844 : 900 },
      });
      contexts.push(context);
      return context.newPage();
    }

    /** Screenshots for people to look at (not compared): the screen at a phone's and a desk's width. */
    async function shoot(page: Page, name: string): Promise<void> {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: path.join(SHOTS, `${harness.kind}-${name}-${width}.png`), fullPage: true });
      }
    }

    /** Posts a Cal.com webhook as Cal.com does: the JSON body, signed with X-Cal-Signature-256 (hex HMAC-SHA256 of the body). */
    async function postCalWebhook(payload: Record<string, unknown>): Promise<Response> {
      const body = JSON.stringify(payload);
      return fetch(`${server.url}/api/bookings/cal`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-cal-signature-256': createHmac('sha256', CAL_SECRET).update(body).digest('hex'),
        },
        body,
      });
    }

    test('a visitor from a campaign books in the page; the webhook stops the clock, tells the CRM and counts the meeting', async ({
      browser,
    }) => {
      // Four screens photographed at two widths and two people signed in, on a machine that may be busy.
      test.setTimeout(120_000);

      // 1. The visitor arrives by the campaign link, sends the ROI form and picks a time in the page.
      const visitor = await person(browser, 1280);
      await standInProvider(visitor.context());
      const relayAnswer = visitor.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/leads' && response.request().method() === 'POST',
      );
      const offer = await sendRoiForm(visitor, `${server.url}${CAMPAIGN_LINK}`);
      const leadId = ((await (await relayAnswer).json()) as { id: string }).id;
      await offer.getByRole('button', { name: 'Pick a time now' }).click();
      const src = new URL((await offer.locator('iframe').getAttribute('src'))!);
      expect(src.searchParams.get('metadata[leadId]')).toBe(leadId);
      await visitor.frameLocator('[data-booking-offer] iframe').getByRole('button', { name: SLOT.label }).click();
      await expect(offer.getByRole('status')).toHaveText(CONFIRMATION);

      // The salesperson's queue has the new lead, untouched, before the booking comes back.
      const sales = await person(browser, 390);
      await signInToConsole(sales, `${server.url}/console`, SAM, PASSWORD);
      await expect(sales.getByRole('heading', { level: 1 })).toHaveText('Call now');
      const card = sales.getByRole('listitem').filter({ hasText: VISITOR.name });
      await expect(card).toHaveCount(1);

      // 2. Cal.com's BOOKING_CREATED arrives, carrying the lead id the calendar's address carried.
      const unsigned = await fetch(`${server.url}/api/bookings/cal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(calPayload({ leadId })),
      });
      expect(unsigned.status, 'a delivery without the signature').toBe(401);
      const created = calPayload({
        leadId: src.searchParams.get('metadata[leadId]')!,
        name: VISITOR.name,
        email: VISITOR.email,
        startTime: SLOT.start,
        endTime: SLOT.end,
      });
      const delivered = await postCalWebhook(created);
      expect(delivered.status, await delivered.clone().text()).toBe(200);

      // 3. The clock stopped: the lead leaves Call now, and its page shows the meeting and the first touch.
      await sales.reload();
      await expect(sales.getByRole('heading', { level: 1 })).toHaveText('Call now');
      await expect(sales.getByText(/^Loading/)).toHaveCount(0);
      await expect(card).toHaveCount(0);
      await sales.goto(`${server.url}/console/leads/${leadId}`);
      await expect(sales.getByRole('heading', { level: 1 })).toContainText(VISITOR.name);
      const timeline = sales.getByRole('list', { name: 'Timeline, newest first' });
      const meeting = timeline.getByRole('listitem').filter({ hasText: MEETING_ENTRY });
      // Said once, with who told us: the booking page.
      await expect(meeting).toHaveText(/: Meeting booked for Tue 1 Dec, 3:00 PM \(Cal\.com\)$/);
      await expect(sales.getByText(/^First touched /)).toBeVisible();
      expect(await sales.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shoot(sales, 'lead-with-meeting');

      // The CRM took the lead, then got the meeting as a signed follow-up event about that lead.
      const bookingEvents = () => server.crm.requests.filter((request) => request.headers['x-lead-event'] === 'booking');
      await expect.poll(() => bookingEvents().length, POLL).toBe(1);
      const [event] = bookingEvents();
      expect(event!.json).toMatchObject({ event: 'booking', lead_id: leadId, starts_at: SLOT.start, change: 'created' });
      expect(signedWith(event!, CRM_SECRET), 'the booking event is signed with the CRM secret').toBe(true);
      expect(server.crm.leadIds()[0]).toBe(leadId);

      // The same delivery again (a provider retries) changes nothing.
      expect((await postCalWebhook(created)).status).toBe(200);
      await sales.reload();
      await expect(meeting).toHaveCount(1);
      expect(bookingEvents()).toHaveLength(1);

      // 4. The owner opens Analytics for today, once the server has counted the meeting.
      const today = new Date().toISOString().slice(0, 10);
      const owner = await person(browser, 1280);
      await signInToConsole(owner, `${server.url}/console/analytics?from=${today}&to=${today}`, OWNER, PASSWORD);
      await expect(owner.getByRole('heading', { level: 1 })).toHaveText('Analytics');
      const summaryOf = async (query: string): Promise<AnalyticsSummary> => {
        const response = await owner.request.get(`${server.url}/console/api/analytics/summary?from=${today}&to=${today}${query}`);
        expect(response.status(), await response.text()).toBe(200);
        return (await response.json()) as AnalyticsSummary;
      };
      const figuresOf = (summary: AnalyticsSummary) => Object.fromEntries(summary.figures.map((figure) => [figure.name, figure.value]));
      await expect.poll(async () => figuresOf(await summaryOf('')), POLL).toMatchObject({ accepted: 1, delivered: 1, booked: 1 });
      await owner.reload();
      const figures = owner.getByRole('region', { name: 'Key figures' });
      await expect(figures.getByRole('listitem').filter({ hasText: 'Meetings booked' })).toContainText(/^Meetings booked\s*1(?!\d)/);
      const converts = owner.getByRole('table', { name: /^What converts/ });
      const campaignRow = converts.getByRole('row').filter({ has: owner.getByRole('button', { name: CAMPAIGN, exact: true }) });
      // Visitors, leads accepted, leads the CRM took, meetings booked.
      await expect(campaignRow.getByRole('cell')).toHaveText(['1', '1', '1', '1']);
      await shoot(owner, 'analytics');
      // On a phone the campaign's four numbers are all on screen, under its name, without scrolling sideways.
      await owner.setViewportSize({ width: 390, height: 844 });
      await campaignRow.getByRole('rowheader').scrollIntoViewIfNeeded();
      for (const cell of await campaignRow.getByRole('cell').all()) await expect(cell).toBeInViewport({ ratio: 1 });
      expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // A click on the campaign narrows the whole screen to it, kept in the address; its figures are the inbox's for the same day.
      await owner.setViewportSize({ width: 1280, height: 900 });
      await campaignRow.getByRole('button', { name: CAMPAIGN, exact: true }).click();
      await expect(owner).toHaveURL(new RegExp(`[?&]campaign=${CAMPAIGN}(&|$)`));
      await expect(owner.getByRole('region', { name: 'Showing only' })).toContainText(`Campaign: ${CAMPAIGN}`);
      const inboxResponse = await owner.request.get(`${server.url}/console/api/leads?from=${today}&to=${today}&campaign=${CAMPAIGN}`);
      expect(inboxResponse.status()).toBe(200);
      const inbox = ((await inboxResponse.json()) as LeadPage).leads;
      const bookingsResponse = await owner.request.get(`${server.url}/console/api/bookings`);
      expect(bookingsResponse.status()).toBe(200);
      const booked = new Set(
        ((await bookingsResponse.json()) as BookingList).bookings
          .filter((booking) => booking.status === 'booked')
          .map((booking) => booking.leadId),
      );
      const fromInbox = {
        accepted: inbox.filter((lead) => lead.status !== 'spam').length,
        delivered: inbox.filter((lead) => lead.status === 'delivered').length,
        booked: inbox.filter((lead) => booked.has(lead.id)).length,
      };
      expect(fromInbox).toEqual({ accepted: 1, delivered: 1, booked: 1 });
      expect(figuresOf(await summaryOf(`&campaign=${CAMPAIGN}`))).toMatchObject(fromInbox);
      for (const [name, value] of [
        ['Leads accepted', fromInbox.accepted],
        ['Leads the CRM took', fromInbox.delivered],
        ['Meetings booked', fromInbox.booked],
      ] as const) {
        await expect(figures.getByRole('listitem').filter({ hasText: name })).toContainText(new RegExp(`^${name}\\s*${value}(?!\\d)`));
      }
    });
  });
}
