// The booking providers' webhooks on a real store (SQLite and PostgreSQL), signed as each provider
// documents, with their documented sample payloads carrying our lead ids: a meeting is linked to its
// lead, shown on its timeline, stops its clock, is told to the CRM once however often the provider
// retries, and is confirmed to the visitor's page; a meeting that matches no lead is kept and listed
// in the console; erasing the person takes their meetings. A delivery without a valid signature
// changes nothing, whatever cookie it carries.
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookingList, LeadDetail, LeadSalesDetail } from '../../console/api-types.ts';
import type { BookingConfirmation } from '../../lead/booking.ts';
import { calendlySignature, calSignature } from '../bookings/signatures.ts';
import { calendlyPayload, calPayload } from '../testing/booking-payloads.ts';
import { startConsoleServer, type ConsoleTestServer, type Signed } from '../testing/console-client.ts';
import { postgresHarness, type StoreDatabase } from '../testing/store-harness.ts';
import { startCrmReceiver, type CrmReceiver } from '../testing/crm-receiver.ts';
import { BOOKING_CONFIRMATION_RATE_LIMIT_PER_MINUTE, BOOKING_RATE_LIMIT_PER_MINUTE } from './bookings.ts';

const CAL_SECRET = 'cal-webhook-secret-for-tests';
const CALENDLY_KEY = 'calendly-signing-key-for-tests';
const HOST = 'localhost:4321';
const MINUTE = 60_000;
const leadId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

let server: ConsoleTestServer | undefined;
let database: StoreDatabase | undefined;
let crm: CrmReceiver | undefined;
afterEach(async () => {
  await server?.close();
  await database?.remove();
  await crm?.close();
  server = undefined;
  database = undefined;
  crm = undefined;
});

describe.each([
  ['SQLite', undefined],
  ['PostgreSQL', postgresHarness],
] as const)('booking webhooks on %s', (_name, harness) => {
  const skip = harness?.skipReason;
  const counted = vi.fn<(leadId: string, at: number, booked: boolean) => Promise<void>>();

  const SECRETS = { CAL_WEBHOOK_SECRET: CAL_SECRET, CALENDLY_WEBHOOK_SIGNING_KEY: CALENDLY_KEY };

  async function start(env: Record<string, string> = SECRETS) {
    counted.mockReset();
    counted.mockResolvedValue(undefined);
    database = harness ? await harness.createDatabase() : undefined;
    const console = await startConsoleServer({
      ...(database ? { database } : {}),
      env,
      appOptions: {
        relayTuning: { pollIntervalMs: 50 },
        salesTuning: { start: false, siteHours: { timeZone: 'UTC', windows: [] } },
        bookings: { countMeeting: counted },
      },
    });
    server = console;
    await console.addAccount('viewer@example.com', 'viewer');
    await console.addAccount('admin@example.com', 'admin');
    return console;
  }

  async function addLead(console: ConsoleTestServer, n: number, email: string, receivedAt = Date.now() - MINUTE) {
    await console.insertLead({
      id: leadId(n),
      receivedAt,
      email,
      source: 'ROI Calculator Form',
      payload: { name: `Person ${n}`, email, company: 'Acme', lead_id: leadId(n) },
      initialState: 'pending',
    });
  }

  function postCal(console: ConsoleTestServer, body: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return console.app.inject({
      method: 'POST',
      url: '/api/bookings/cal',
      headers: { host: HOST, 'content-type': 'application/json', 'x-cal-signature-256': calSignature(body, CAL_SECRET), ...headers },
      payload: body,
    });
  }

  function postCalendly(console: ConsoleTestServer, body: string, at = Date.now(), headers: Record<string, string> = {}) {
    return console.app.inject({
      method: 'POST',
      url: '/api/bookings/calendly',
      headers: {
        host: HOST,
        'content-type': 'application/json; charset=utf-8',
        'calendly-webhook-signature': calendlySignature(body, CALENDLY_KEY, at),
        ...headers,
      },
      payload: body,
    });
  }

  async function timeline(console: ConsoleTestServer, who: Signed, id: string) {
    const response = await console.read(who, `/console/api/leads/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<LeadDetail & LeadSalesDetail>()
      .timeline.filter((entry) => entry.kind === 'meeting')
      .map((entry) => `${entry.text}, by ${entry.actor}`);
  }

  const bookingRows = async (console: ConsoleTestServer) => console.store.listBookings({ unmatched: false, limit: 200 });

  it.skipIf(skip)('a signed Cal.com booking with the lead id stops the clock, goes on the timeline and to the CRM once', async () => {
    const console = await start();
    await addLead(console, 1, 'someone@example.com');
    await console.app.sales.assigner.runOnce();
    expect((await console.store.findLeadSales(leadId(1)))?.firstTouchAt).toBeUndefined();
    const before = await console.app.inject({ method: 'GET', url: `/api/bookings/lead/${leadId(1)}`, headers: { host: HOST } });
    expect(before.statusCode).toBe(404);

    const body = JSON.stringify(calPayload({ leadId: leadId(1) }));
    const first = await postCal(console, body);
    expect(first.statusCode, first.body).toBe(200);
    // The provider retries the same delivery: the same answer, nothing new.
    const again = await postCal(console, body);
    expect([again.statusCode, again.body]).toEqual([first.statusCode, first.body]);

    const sales = await console.store.findLeadSales(leadId(1));
    expect(sales?.firstTouchAt).toBeGreaterThan(0);
    const events = await console.store.listCrmEvents(leadId(1));
    expect(events.map((event) => event.kind)).toEqual(['booking']);
    expect(await bookingRows(console)).toHaveLength(1);
    expect(counted.mock.calls).toEqual([[leadId(1), expect.any(Number), true]]);

    const viewer = await console.signedIn('viewer@example.com');
    expect(await timeline(console, viewer, leadId(1))).toEqual(['Meeting booked for Thu 25 May, 9:30 AM, by Cal.com']);

    const confirmed = await console.app.inject({ method: 'GET', url: `/api/bookings/lead/${leadId(1)}`, headers: { host: HOST } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.headers['cache-control']).toBe('no-store');
    expect(confirmed.json<BookingConfirmation>()).toEqual({ startsAt: '2023-05-25T09:30:00.000Z', status: 'booked' });
    expect(confirmed.body).not.toContain('john.doe');
    expect(confirmed.body).not.toContain('John');
    const invalid = await console.app.inject({ method: 'GET', url: '/api/bookings/lead/not-a-lead', headers: { host: HOST } });
    expect(invalid.statusCode).toBe(404);
  });

  it.skipIf(skip)('refuses an unsigned, wrongly signed or tampered delivery, even with a console cookie, and records nothing', async () => {
    const console = await start();
    await addLead(console, 2, 'john.doe@example.com');
    const admin = await console.signedIn('admin@example.com');
    const body = JSON.stringify(calPayload({ leadId: leadId(2) }));
    const answers = [
      await postCal(console, body, { 'x-cal-signature-256': '' }),
      await postCal(console, body, { 'x-cal-signature-256': calSignature(body, 'another-secret-of-someone') }),
      await postCal(console, body.replace('2023-05-25T09:30:00Z', '2023-05-26T09:30:00Z'), {
        'x-cal-signature-256': calSignature(body, CAL_SECRET),
      }),
      await postCal(console, body, {
        'x-cal-signature-256': '',
        cookie: admin.cookie,
        'x-csrf-token': admin.csrfToken,
        origin: 'http://localhost:4321',
      }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json<{ message: string }>().message).toBe(
        'The signature of this delivery is missing, wrong or too old, so nothing was recorded.',
      );
    }
    expect(await bookingRows(console)).toEqual([]);
    expect(await console.store.listCrmEvents(leadId(2))).toEqual([]);
  });

  it.skipIf(skip)('Calendly: matched by e-mail, refused when stale or dated ahead, moved and cancelled', async () => {
    const console = await start();
    await addLead(console, 3, 'test@example.com');
    await console.app.sales.assigner.runOnce();
    const booked = JSON.stringify(calendlyPayload({ invitee: 'invitee-1' }));

    expect((await postCalendly(console, booked, Date.now() - 4 * MINUTE)).statusCode).toBe(401);
    expect((await postCalendly(console, booked, Date.now() + 4 * MINUTE)).statusCode).toBe(401);
    expect(await bookingRows(console)).toEqual([]);

    expect((await postCalendly(console, booked)).statusCode).toBe(200);
    // A reschedule: the cancelled half first (ignored), then the new half moves the meeting.
    const oldHalf = JSON.stringify(
      calendlyPayload({ event: 'invitee.canceled', invitee: 'invitee-1', rescheduled: true, newInvitee: 'invitee-2' }),
    );
    const newHalf = JSON.stringify(calendlyPayload({ invitee: 'invitee-2', oldInvitee: 'invitee-1', startTime: '2019-08-26T16:00:00Z' }));
    expect((await postCalendly(console, oldHalf)).statusCode).toBe(200);
    expect((await postCalendly(console, newHalf)).statusCode).toBe(200);
    const cancelled = JSON.stringify(
      calendlyPayload({ event: 'invitee.canceled', invitee: 'invitee-2', startTime: '2019-08-26T16:00:00Z' }),
    );
    expect((await postCalendly(console, cancelled)).statusCode).toBe(200);

    const rows = await bookingRows(console);
    expect(rows).toEqual([
      expect.objectContaining({ leadId: leadId(3), matchedBy: 'email', providerUid: 'invitee-2', status: 'cancelled' }),
    ]);
    const viewer = await console.signedIn('viewer@example.com');
    expect(await timeline(console, viewer, leadId(3))).toEqual([
      'Meeting booked for Sat 24 Aug, 2:15 PM (matched by e-mail address), by Calendly',
      'Meeting moved to Mon 26 Aug, 4:00 PM (matched by e-mail address), by Calendly',
      'Meeting cancelled: it was for Mon 26 Aug, 4:00 PM (matched by e-mail address), by Calendly',
    ]);
    expect(counted.mock.calls.map((call) => call[2])).toEqual([true, true, false]);
    const confirmation = await console.app.inject({ method: 'GET', url: `/api/bookings/lead/${leadId(3)}`, headers: { host: HOST } });
    expect(confirmation.json<BookingConfirmation>()).toEqual({ startsAt: '2019-08-26T16:00:00.000Z', status: 'cancelled' });
  });

  it.skipIf(skip)('ignores events about no meeting, refuses a meeting it cannot record, and never fails on the analytics', async () => {
    const console = await start();
    expect((await postCal(console, JSON.stringify(calPayload({ trigger: 'MEETING_ENDED' })))).statusCode).toBe(200);
    const noAddress = await postCal(console, JSON.stringify(calPayload({ email: '' })));
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json()).toEqual({
      error: 'invalid_booking',
      field: 'payload.attendees[0].email',
      message: "The invitee's e-mail address (payload.attendees[0].email) is missing or is not an address.",
    });
    expect((await postCal(console, '{"triggerEvent":')).statusCode).toBe(400);
    const notJson = await console.app.inject({
      method: 'POST',
      url: '/api/bookings/cal',
      headers: { host: HOST, 'content-type': 'text/plain', 'x-cal-signature-256': calSignature('x', CAL_SECRET) },
      payload: 'x',
    });
    expect(notJson.statusCode).toBe(415);
    expect(await bookingRows(console)).toEqual([]);

    await addLead(console, 4, 'john.doe@example.com');
    counted.mockRejectedValue(new Error('the analytics store is down'));
    expect((await postCal(console, JSON.stringify(calPayload({ uid: 'counted-or-not' })))).statusCode).toBe(200);
    expect(await bookingRows(console)).toEqual([expect.objectContaining({ leadId: leadId(4) })]);
  });

  it.skipIf(skip)('a meeting that matches no lead is kept and listed for the sales team; erasing the person takes it', async () => {
    const console = await start();
    await addLead(console, 5, 'known@example.com');
    expect(
      (await postCal(console, JSON.stringify(calPayload({ uid: 'stranger', email: 'Stranger@Example.com', name: 'Sam Stranger' }))))
        .statusCode,
    ).toBe(200);
    expect((await postCal(console, JSON.stringify(calPayload({ uid: 'known', email: 'known@example.com' })))).statusCode).toBe(200);

    const viewer = await console.signedIn('viewer@example.com');
    const unmatched = await console.read(viewer, '/console/api/bookings?unmatched=1');
    expect(unmatched.statusCode, unmatched.body).toBe(200);
    expect(unmatched.json<BookingList>().bookings).toEqual([
      expect.objectContaining({
        name: 'Sam Stranger',
        email: 'stranger@example.com',
        provider: 'cal',
        leadId: null,
        matchedBy: null,
        status: 'booked',
      }),
    ]);
    const every = await console.read(viewer, '/console/api/bookings');
    expect(every.json<BookingList>().bookings.map((booking) => booking.email)).toEqual(['known@example.com', 'stranger@example.com']);
    expect((await console.read(undefined, '/console/api/bookings?unmatched=1')).statusCode).toBe(401);
    // The studio's editors never see the people who booked: the list is the leads' right.
    await console.addAccount('editor@example.com', 'editor');
    const editor = await console.signedIn('editor@example.com');
    const refused = await console.read(editor, '/console/api/bookings?unmatched=1');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('stranger@');
    const wrong = await console.read(viewer, '/console/api/bookings?unmatched=yes');
    expect(wrong.statusCode).toBe(400);

    const admin = await console.signedIn('admin@example.com');
    const erased = await console.change(admin, 'POST', '/console/api/erasures', { email: 'stranger@example.com', count: 0 });
    expect(erased.statusCode, erased.body).toBeLessThan(300);
    expect((await bookingRows(console)).map((booking) => booking.email)).toEqual(['known@example.com']);
  });

  it.skipIf(skip)('answers 404 with a sentence while a provider is not set up, and takes nothing unsigned in its place', async () => {
    const console = await start({});
    const body = JSON.stringify(calPayload());
    const cal = await postCal(console, body, { 'x-cal-signature-256': '' });
    expect(cal.statusCode).toBe(404);
    expect(cal.json<{ message: string }>().message).toBe(
      'This site does not take bookings from Cal.com: its webhook secret is not set up on the server.',
    );
    expect((await postCalendly(console, JSON.stringify(calendlyPayload()))).statusCode).toBe(404);
    expect(await bookingRows(console)).toEqual([]);
  });
  it.skipIf(skip)('the CRM receives the follow-up event once, however often the provider sends the delivery', async () => {
    crm = await startCrmReceiver();
    const console = await start({ ...SECRETS, CRM_WEBHOOK_URL: crm.url });
    await addLead(console, 6, 'crm.person@example.com');
    const body = JSON.stringify(calPayload({ leadId: leadId(6), email: 'crm.person@example.com' }));
    for (let time = 0; time < 3; time += 1) expect((await postCal(console, body)).statusCode).toBe(200);
    // The lead itself, then the meeting.
    await crm.waitForRequests(2, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = crm.requests.filter((request) => request.headers['x-lead-event'] === 'booking');
    expect(events).toHaveLength(1);
    expect(events[0]!.json).toMatchObject({
      event: 'booking',
      lead_id: leadId(6),
      change: 'created',
      starts_at: '2023-05-25T09:30:00.000Z',
      ends_at: '2023-05-25T10:30:00.000Z',
      booked_by_email: 'crm.person@example.com',
    });
  });

  it.skipIf(skip)('refuses a body over 64 KiB and, like other public posts, a flood from one address', async () => {
    const console = await start();
    // The limit counts in fixed one-minute windows: a flood that crossed into the next minute would
    // start a fresh count halfway. It takes about a second, so it starts in a minute with 5 s to spare.
    const leftInMinute = 60_000 - (Date.now() % 60_000);
    if (leftInMinute < 5_000) await new Promise((resolve) => setTimeout(resolve, leftInMinute + 50));
    const padded = JSON.stringify({ ...calPayload(), padding: 'x'.repeat(70 * 1024) });
    expect((await postCal(console, padded)).statusCode).toBe(413);
    const body = JSON.stringify(calPayload({ trigger: 'PING' }));
    const answers: number[] = [];
    for (let request = 0; request <= BOOKING_RATE_LIMIT_PER_MINUTE; request += 1) answers.push((await postCal(console, body)).statusCode);
    expect(answers.filter((status) => status === 200)).toHaveLength(BOOKING_RATE_LIMIT_PER_MINUTE - 1);
    expect(answers.at(-1)).toBe(429);
  });

  it.skipIf(skip)("the page's questions about its meeting and the provider's deliveries never use up each other's allowance", async () => {
    const console = await start();
    await addLead(console, 7, 'office@example.com');
    expect((await postCal(console, JSON.stringify(calPayload({ leadId: leadId(7), email: 'office@example.com' })))).statusCode).toBe(200);
    const ask = () => console.app.inject({ method: 'GET', url: `/api/bookings/lead/${leadId(7)}`, headers: { host: HOST } });
    // The provider's deliveries from this address reach their limit …
    const ping = JSON.stringify(calPayload({ trigger: 'PING' }));
    let webhookStatus = 200;
    while (webhookStatus === 200) webhookStatus = (await postCal(console, ping)).statusCode;
    expect(webhookStatus).toBe(429);
    // … and the visitors behind the same address still see their meeting, up to their own limit.
    const asked: number[] = [];
    for (let request = 0; request <= BOOKING_CONFIRMATION_RATE_LIMIT_PER_MINUTE; request += 1) asked.push((await ask()).statusCode);
    expect(asked.filter((status) => status === 200)).toHaveLength(BOOKING_CONFIRMATION_RATE_LIMIT_PER_MINUTE);
    expect(asked.at(-1)).toBe(429);
    expect((await postCal(console, ping)).statusCode).toBe(429);
  });

  it.skipIf(skip)("an outsider booking and cancelling with a prospect's address leaves the prospect waiting for a call", async () => {
    const console = await start();
    await addLead(console, 8, 'victim@example.com');
    await console.app.sales.assigner.runOnce();
    const cancelFirst = JSON.stringify(
      calPayload({ trigger: 'BOOKING_CANCELLED', uid: 'outsider-1', email: 'Victim@Example.com', name: 'Not the prospect' }),
    );
    expect((await postCal(console, cancelFirst)).statusCode).toBe(200);
    expect((await console.store.findLeadSales(leadId(8)))?.firstTouchAt).toBeUndefined();
    expect((await console.store.listUntouched({ limit: 10 })).map((lead) => lead.leadId)).toEqual([leadId(8)]);
    const viewer = await console.signedIn('viewer@example.com');
    expect(await timeline(console, viewer, leadId(8))).toEqual([
      'Meeting cancelled: it was for Thu 25 May, 9:30 AM (matched by e-mail address), by Cal.com',
    ]);
  });

  it.skipIf(skip)('an erased person stays erased when the provider later moves or cancels their meeting', async () => {
    const console = await start();
    expect(
      (await postCal(console, JSON.stringify(calPayload({ uid: 'gone', email: 'gone@example.com', name: 'Gone Person' })))).statusCode,
    ).toBe(200);
    const admin = await console.signedIn('admin@example.com');
    const erased = await console.change(admin, 'POST', '/console/api/erasures', { email: 'gone@example.com', count: 0 });
    expect(erased.statusCode, erased.body).toBeLessThan(300);
    const moved = JSON.stringify(
      calPayload({ trigger: 'BOOKING_RESCHEDULED', uid: 'gone-2', rescheduleUid: 'gone', email: 'gone@example.com', name: 'Gone Person' }),
    );
    expect((await postCal(console, moved)).statusCode).toBe(200);
    expect(await bookingRows(console)).toEqual([]);
    const viewer = await console.signedIn('viewer@example.com');
    expect((await console.read(viewer, '/console/api/bookings?unmatched=1')).json<BookingList>().bookings).toEqual([]);
  });
});
