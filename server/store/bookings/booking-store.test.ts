import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';
import type { BookingNotice } from '../../bookings/payloads.ts';
import type { BookingDelivery } from './booking-store.ts';
import { EMAIL_MATCH_DAYS, EMAIL_MATCH_MS } from './booking-store.ts';
import { HOUR, newLead, T0 } from '../../testing/store-fixtures.ts';

// The bookings store contract: the same tests against node:sqlite, node:sqlite on its worker thread
// and PostgreSQL.

const MINUTE = 60_000;
const DAY = 24 * HOUR;
const MEETING = Date.UTC(2025, 0, 20, 15, 0, 0);

function notice(overrides: Partial<BookingNotice> = {}): BookingNotice {
  return {
    provider: 'cal',
    change: 'created',
    uid: 'bFJeNb2uX8ANpT3JL5EfXw',
    previousUid: undefined,
    leadIdHint: undefined,
    name: 'John Doe',
    email: 'john.doe@example.com',
    startsAt: MEETING,
    endsAt: MEETING + HOUR,
    ...overrides,
  };
}

let keys = 0;
function delivery(overrides: Partial<BookingNotice> = {}, at = T0 + 10 * MINUTE, key?: string): BookingDelivery {
  keys += 1;
  return {
    deliveryKey: key ?? `delivery-${keys}`,
    notice: notice(overrides),
    at,
    audit: { actor: 'Cal.com', action: 'lead.meeting', describe: 'booking-linked' },
  };
}

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`bookings store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    const tableRows = async (table: string) => ((await database.rows())[table] ?? []) as Record<string, unknown>[];
    const placed = async (leadId: string, at: number) =>
      store.place({
        leadId,
        at,
        ownerId: undefined,
        clockStartsAt: T0,
        joinedTo: undefined,
        roundRobin: false,
        activity: undefined,
        audit: undefined,
      });

    it('links a meeting to the lead the page named, stops its clock, tells the CRM and audits it, once per delivery', async () => {
      const lead = newLead({ email: 'someone.else@example.com' });
      await store.insertLead(lead);
      expect(await placed(lead.id, T0 + MINUTE)).toBe(true);
      const first = delivery({ leadIdHint: lead.id });

      const result = await store.recordBookingDelivery(first);
      expect(result).toMatchObject({
        kind: 'recorded',
        leadMeetingsBooked: 1,
        booking: { leadId: lead.id, matchedBy: 'lead-id', status: 'booked', lastChange: 'created', startsAt: MEETING },
      });
      // The same delivery again (the provider retried): nothing new anywhere.
      expect(await store.recordBookingDelivery({ ...first, at: first.at + MINUTE })).toEqual({ kind: 'repeat' });

      expect((await store.findLeadSales(lead.id))?.firstTouchAt).toBe(first.at);
      const meetings = (await store.listActivities(lead.id)).filter((entry) => entry.kind === 'meeting');
      expect(meetings).toEqual([
        expect.objectContaining({
          actor: 'Cal.com',
          at: first.at,
          detail: {
            change: 'created',
            startsAt: new Date(MEETING).toISOString(),
            endsAt: new Date(MEETING + HOUR).toISOString(),
            provider: 'cal',
            matchedBy: 'lead-id',
          },
        }),
      ]);
      const events = await store.listCrmEvents(lead.id);
      expect(events.map((event) => event.kind)).toEqual(['booking']);
      const bodies = (await tableRows('crm_events')).map((row) => JSON.parse(String(row.body)) as Record<string, unknown>);
      expect(bodies).toEqual([
        expect.objectContaining({ event: 'booking', lead_id: lead.id, change: 'created', starts_at: new Date(MEETING).toISOString() }),
      ]);
      const audit = (await store.listAudit(undefined, 10)).entries.map((entry) => `${entry.actor} ${entry.action}: ${entry.detail}`);
      expect(audit).toEqual([
        `Cal.com lead.meeting: ${lead.id}: meeting booked for 2025-01-20 15:00 UTC (Cal.com, matched by the lead id the booking page carried)`,
      ]);
      expect(await tableRows('bookings')).toHaveLength(1);
      expect(await tableRows('booking_webhooks')).toHaveLength(1);
    });

    it('matches by e-mail the latest real lead of the last 7 days, and keeps a meeting that matches none', async () => {
      const old = newLead({ email: 'jo@example.com', receivedAt: T0 - EMAIL_MATCH_MS - DAY });
      const earlier = newLead({ email: 'jo@example.com', receivedAt: T0 - 2 * DAY });
      const latest = newLead({ email: 'Jo@Example.COM', receivedAt: T0 - DAY });
      const spam = newLead({ email: 'jo@example.com', receivedAt: T0 - HOUR, initialState: 'spam', spamReason: 'honeypot' });
      for (const lead of [old, earlier, latest, spam]) await store.insertLead(lead);

      const matched = await store.recordBookingDelivery(delivery({ uid: 'm-1', email: 'jo@example.com' }, T0));
      expect(matched).toMatchObject({ kind: 'recorded', booking: { leadId: latest.id, matchedBy: 'email' } });
      // A lead id that names no lead of ours falls back to the address.
      const unknownId = await store.recordBookingDelivery(
        delivery({ uid: 'm-2', email: 'jo@example.com', leadIdHint: 'no-such-lead' }, T0),
      );
      expect(unknownId).toMatchObject({ booking: { leadId: latest.id, matchedBy: 'email' } });

      const stranger = await store.recordBookingDelivery(delivery({ uid: 'm-3', email: 'nobody@example.com', name: 'Nobody Known' }, T0));
      expect(stranger).toMatchObject({ kind: 'recorded', leadMeetingsBooked: 0, booking: { leadId: undefined, matchedBy: undefined } });
      // Only the old lead has the address more than 7 days back: no match either.
      const tooLate = await store.recordBookingDelivery(
        delivery({ uid: 'm-4', email: 'jo@example.com' }, latest.receivedAt + EMAIL_MATCH_MS + MINUTE),
      );
      expect(tooLate).toMatchObject({ booking: { leadId: undefined } });

      expect((await store.listBookings({ unmatched: true, limit: 200 })).map((booking) => booking.providerUid)).toEqual(['m-4', 'm-3']);
      expect((await store.listBookings({ unmatched: false, limit: 200 })).map((booking) => booking.providerUid)).toEqual([
        'm-4',
        'm-3',
        'm-2',
        'm-1',
      ]);
      expect(await store.listCrmEvents(spam.id)).toEqual([]);
    });

    it('moves a rescheduled meeting and cancels one, telling how many meetings the lead has left', async () => {
      const lead = newLead({ email: 'mo@example.com' });
      await store.insertLead(lead);
      await store.recordBookingDelivery(delivery({ uid: 'first', email: 'mo@example.com' }));
      const moved = await store.recordBookingDelivery(
        delivery({ uid: 'second', previousUid: 'first', change: 'rescheduled', email: 'mo@example.com', startsAt: MEETING + DAY }),
      );
      expect(moved).toMatchObject({
        leadMeetingsBooked: 1,
        booking: { providerUid: 'second', startsAt: MEETING + DAY, lastChange: 'rescheduled', status: 'booked', leadId: lead.id },
      });
      const cancelled = await store.recordBookingDelivery(delivery({ uid: 'second', change: 'cancelled', email: 'mo@example.com' }));
      expect(cancelled).toMatchObject({ leadMeetingsBooked: 0, booking: { status: 'cancelled', lastChange: 'cancelled' } });
      // A late "created" for the cancelled meeting changes nothing a person sees.
      const late = await store.recordBookingDelivery(delivery({ uid: 'second', email: 'mo@example.com' }));
      expect(late).toMatchObject({ booking: { status: 'cancelled' }, leadMeetingsBooked: 0 });

      expect(await tableRows('bookings')).toHaveLength(1);
      expect((await store.listActivities(lead.id)).map((entry) => entry.detail.change)).toEqual(['created', 'rescheduled', 'cancelled']);
      expect(await store.listCrmEvents(lead.id)).toHaveLength(3);
      expect((await store.listBookingsOfLead(lead.id)).map((booking) => booking.status)).toEqual(['cancelled']);
    });

    it('links a lead not placed yet, whose clock starts stopped at the meeting when it is placed', async () => {
      const lead = newLead();
      await store.insertLead(lead);
      const booked = delivery({ leadIdHint: lead.id }, T0 + 5 * MINUTE);
      await store.recordBookingDelivery(booked);
      expect(await store.findLeadSales(lead.id)).toBeUndefined();
      expect(await placed(lead.id, T0 + 6 * MINUTE)).toBe(true);
      expect((await store.findLeadSales(lead.id))?.firstTouchAt).toBe(booked.at);
      expect(await store.listUntouched({ limit: 10 })).toEqual([]);
    });

    it("a repeat's meeting stops the clock of the earlier lead it joined", async () => {
      const first = newLead({ email: 'rae@example.com' });
      const repeat = newLead({ email: 'rae@example.com' });
      await store.insertLead(first);
      await store.insertLead(repeat);
      await placed(first.id, T0 + MINUTE);
      await store.place({
        leadId: repeat.id,
        at: T0 + 2 * MINUTE,
        ownerId: undefined,
        clockStartsAt: T0,
        joinedTo: first.id,
        roundRobin: false,
        activity: undefined,
        audit: undefined,
      });
      const booked = delivery({ leadIdHint: repeat.id }, T0 + 3 * MINUTE);
      await store.recordBookingDelivery(booked);
      expect((await store.findLeadSales(first.id))?.firstTouchAt).toBe(booked.at);
      expect((await store.findLeadSales(repeat.id))?.firstTouchAt).toBe(booked.at);
    });

    it("erasing a person's address deletes their meetings, matched by address or by the lead id", async () => {
      const lead = newLead({ email: 'erase.me@example.com' });
      const other = newLead({ email: 'keep.me@example.com' });
      await store.insertLead(lead);
      await store.insertLead(other);
      await store.recordBookingDelivery(delivery({ uid: 'by-id', leadIdHint: lead.id, email: 'another.address@example.com' }));
      await store.recordBookingDelivery(delivery({ uid: 'by-address', email: 'erase.me@example.com' }));
      await store.recordBookingDelivery(delivery({ uid: 'unmatched', email: 'erase.me@example.com' }, T0 + EMAIL_MATCH_MS * 2));
      await store.recordBookingDelivery(delivery({ uid: 'kept', email: 'keep.me@example.com' }));

      expect(await store.eraseByEmail(' Erase.Me@Example.com ')).toEqual([lead.id]);
      expect((await store.listBookings({ unmatched: false, limit: 200 })).map((booking) => booking.providerUid)).toEqual(['kept']);
      expect((await store.listBookings({ unmatched: true, limit: 200 })).map((booking) => booking.providerUid)).toEqual([]);
      // Only tombstones stay: the provider's ids, nothing of the person.
      const left = (await tableRows('bookings')).filter((row) => row.provider_uid !== 'kept');
      expect(left.map((row) => [row.provider_uid, row.name, row.email, row.lead_id, row.matched_by]).sort()).toEqual([
        ['by-address', '', '', null, null],
        ['by-id', '', '', null, null],
        ['unmatched', '', '', null, null],
      ]);
    });

    it('an erased meeting never comes back when a later delivery about it arrives', async () => {
      const lead = newLead({ email: 'gone@example.com' });
      await store.insertLead(lead);
      await store.recordBookingDelivery(delivery({ uid: 'linked', leadIdHint: lead.id, email: 'gone@example.com', name: 'Gone Person' }));
      await store.recordBookingDelivery(delivery({ uid: 'stranger', email: 'gone@example.com', name: 'Gone Person' }, T0 + 30 * DAY));
      await store.eraseByEmail('gone@example.com');

      // The provider moves one, cancels the other, and retries an old delivery with a new body.
      const later = T0 + 31 * DAY;
      const moved = delivery(
        { uid: 'linked-2', previousUid: 'linked', change: 'rescheduled', email: 'gone@example.com', name: 'Gone Person' },
        later,
      );
      expect(await store.recordBookingDelivery(moved)).toEqual({ kind: 'erased' });
      expect(
        await store.recordBookingDelivery(delivery({ uid: 'stranger', change: 'cancelled', email: 'gone@example.com' }, later)),
      ).toEqual({ kind: 'erased' });
      // The moved meeting's new id is recognised too.
      expect(
        await store.recordBookingDelivery(
          delivery({ uid: 'linked-2', change: 'cancelled', email: 'gone@example.com', name: 'Gone' }, later),
        ),
      ).toEqual({ kind: 'erased' });

      expect(await store.listBookings({ unmatched: false, limit: 200 })).toEqual([]);
      expect(await store.listBookings({ unmatched: true, limit: 200 })).toEqual([]);
      const rows = await tableRows('bookings');
      expect(rows.map((row) => row.provider_uid).sort()).toEqual(['linked', 'linked-2', 'stranger']);
      expect(rows.every((row) => row.name === '' && row.email === '' && row.lead_id === null)).toBe(true);
    });

    it('a cancellation never stops the first-touch clock, arriving first or after the booking', async () => {
      const placedLead = newLead({ email: 'prospect@example.com' });
      const waiting = newLead({ email: 'waiting@example.com' });
      await store.insertLead(placedLead);
      await store.insertLead(waiting);
      await placed(placedLead.id, T0 + MINUTE);

      // Someone cancels a meeting with the prospect's address, the cancellation told first.
      const cancelled = await store.recordBookingDelivery(
        delivery({ uid: 'outsider', change: 'cancelled', email: 'prospect@example.com' }, T0 + 2 * MINUTE),
      );
      expect(cancelled).toMatchObject({ booking: { leadId: placedLead.id, status: 'cancelled' } });
      expect((await store.findLeadSales(placedLead.id))?.firstTouchAt).toBeUndefined();
      expect((await store.listUntouched({ limit: 10 })).map((lead) => lead.leadId)).toEqual([placedLead.id]);

      // A lead placed after only a cancellation reached its timeline starts with its clock running.
      await store.recordBookingDelivery(
        delivery({ uid: 'cancel-only', change: 'cancelled', email: 'waiting@example.com' }, T0 + 3 * MINUTE),
      );
      await placed(waiting.id, T0 + 4 * MINUTE);
      expect((await store.findLeadSales(waiting.id))?.firstTouchAt).toBeUndefined();

      // A booking does stop it, at its arrival; its cancellation later leaves it stopped there.
      const booked = delivery({ uid: 'real', email: 'prospect@example.com' }, T0 + 5 * MINUTE);
      await store.recordBookingDelivery(booked);
      await store.recordBookingDelivery(delivery({ uid: 'real', change: 'cancelled', email: 'prospect@example.com' }, T0 + 6 * MINUTE));
      expect((await store.findLeadSales(placedLead.id))?.firstTouchAt).toBe(booked.at);
    });

    it('a lead placed after a booked-then-cancelled meeting starts stopped at the booking, not the cancellation', async () => {
      const lead = newLead({ email: 'early.bird@example.com' });
      await store.insertLead(lead);
      await store.recordBookingDelivery(delivery({ uid: 'c-first', change: 'cancelled', email: 'early.bird@example.com' }, T0 + MINUTE));
      const booked = delivery({ uid: 'b-later', email: 'early.bird@example.com' }, T0 + 2 * MINUTE);
      await store.recordBookingDelivery(booked);
      await placed(lead.id, T0 + 3 * MINUTE);
      expect((await store.findLeadSales(lead.id))?.firstTouchAt).toBe(booked.at);
    });

    it(`takes a lead's address as a match for ${EMAIL_MATCH_DAYS} days only`, async () => {
      expect(EMAIL_MATCH_DAYS).toBe(7);
      const lead = newLead({ email: 'week@example.com', receivedAt: T0 });
      await store.insertLead(lead);
      const inTime = await store.recordBookingDelivery(delivery({ uid: 'in-time', email: 'week@example.com' }, T0 + 6 * DAY));
      expect(inTime).toMatchObject({ booking: { leadId: lead.id, matchedBy: 'email' } });
      const late = await store.recordBookingDelivery(delivery({ uid: 'late', email: 'week@example.com' }, T0 + 8 * DAY));
      expect(late).toMatchObject({ booking: { leadId: undefined, matchedBy: undefined } });
    });

    it('a late reschedule never brings a cancelled meeting back', async () => {
      const lead = newLead({ email: 'order@example.com' });
      await store.insertLead(lead);
      await store.recordBookingDelivery(delivery({ uid: 'new', change: 'cancelled', email: 'order@example.com' }, T0 + MINUTE));
      const late = await store.recordBookingDelivery(
        delivery(
          { uid: 'new', previousUid: 'old', change: 'rescheduled', email: 'order@example.com', startsAt: MEETING + DAY },
          T0 + 2 * MINUTE,
        ),
      );
      expect(late).toMatchObject({ leadMeetingsBooked: 0, booking: { status: 'cancelled', lastChange: 'cancelled', startsAt: MEETING } });
      expect((await store.listActivities(lead.id)).map((entry) => entry.detail.change)).toEqual(['cancelled']);
      expect((await store.findLeadSales(lead.id))?.firstTouchAt).toBeUndefined();
    });

    it('different deliveries about one new meeting sent at once store one meeting, none failing', async () => {
      const lead = newLead({ email: 'race@example.com' });
      await store.insertLead(lead);
      const changes = ['created', 'cancelled', 'created', 'cancelled', 'created', 'cancelled'] as const;
      const results = await Promise.allSettled(
        changes.map((change, index) =>
          store.recordBookingDelivery(delivery({ uid: 'race', change, email: 'race@example.com' }, T0 + index)),
        ),
      );
      expect(results.map((result) => (result.status === 'fulfilled' ? result.value.kind : String(result.reason)))).toEqual(
        changes.map(() => 'recorded'),
      );
      expect((await tableRows('bookings')).map((row) => row.provider_uid)).toEqual(['race']);
    });

    it('lists the meetings matching no lead that are still to come first, so a burst of others never hides them', async () => {
      const now = MEETING - DAY;
      await store.recordBookingDelivery(delivery({ uid: 'upcoming-later', email: 'a@example.com', startsAt: MEETING + DAY }, T0));
      await store.recordBookingDelivery(delivery({ uid: 'upcoming-soon', email: 'b@example.com', startsAt: MEETING }, T0 + MINUTE));
      await store.recordBookingDelivery(delivery({ uid: 'past', email: 'c@example.com', startsAt: now - DAY }, T0 + 2 * MINUTE));
      await store.recordBookingDelivery(
        delivery({ uid: 'cancelled', change: 'cancelled', email: 'd@example.com', startsAt: MEETING }, T0 + 3 * MINUTE),
      );
      const listed = await store.listBookings({ unmatched: true, limit: 3, now });
      expect(listed.map((booking) => booking.providerUid)).toEqual(['upcoming-soon', 'upcoming-later', 'cancelled']);
    });

    it('the retention purge takes the meetings of the leads it deletes; they never show as matching no lead', async () => {
      const spam = newLead({ email: 'purged@example.com', initialState: 'spam', spamReason: 'honeypot', receivedAt: T0 - 40 * DAY });
      await store.insertLead(spam);
      await store.recordBookingDelivery(delivery({ uid: 'of-purged', leadIdHint: spam.id, email: 'purged@example.com' }));
      await store.recordBookingDelivery(delivery({ uid: 'stranger', email: 'stranger@example.com' }));

      expect(await store.purgeExpired({ leadsReceivedBefore: undefined, spamReceivedBefore: T0 - 30 * DAY })).toEqual({
        leads: 0,
        spam: 1,
      });
      expect((await store.listBookings({ unmatched: false, limit: 200 })).map((booking) => booking.providerUid)).toEqual(['stranger']);
      expect((await store.listBookings({ unmatched: true, limit: 200 })).map((booking) => booking.providerUid)).toEqual(['stranger']);
    });

    it('the retention purge takes meetings that matched no lead once older than the leads it keeps, every run', async () => {
      await store.recordBookingDelivery(delivery({ uid: 'year-old', email: 'old.stranger@example.com' }, T0 - 365 * DAY));
      await store.recordBookingDelivery(delivery({ uid: 'recent', email: 'new.stranger@example.com' }, T0 - DAY));
      // No lead is old enough to go: the meetings' purge runs all the same.
      expect(await store.purgeExpired({ leadsReceivedBefore: T0 - 90 * DAY, spamReceivedBefore: T0 - 30 * DAY })).toEqual({
        leads: 0,
        spam: 0,
      });
      expect((await tableRows('bookings')).map((row) => row.provider_uid)).toEqual(['recent']);
    });

    it('a meeting booked before its lead arrived is linked, timed and told to the CRM when the next delivery finds the lead', async () => {
      await store.recordBookingDelivery(delivery({ uid: 'early', email: 'early@example.com' }, T0));
      const lead = newLead({ email: 'early@example.com', receivedAt: T0 + MINUTE });
      await store.insertLead(lead);
      await placed(lead.id, T0 + 2 * MINUTE);
      const moved = delivery({ uid: 'early', email: 'early@example.com', change: 'rescheduled', startsAt: MEETING + DAY }, T0 + 3 * MINUTE);
      expect(await store.recordBookingDelivery(moved)).toMatchObject({
        booking: { leadId: lead.id, matchedBy: 'email' },
        leadMeetingsBooked: 1,
      });
      // The same meeting and time told again: linked already, nothing new for the lead.
      await store.recordBookingDelivery({ ...moved, deliveryKey: 'same-change-another-body' });
      expect((await store.listActivities(lead.id)).filter((entry) => entry.kind === 'meeting')).toHaveLength(1);
      expect((await store.findLeadSales(lead.id))?.firstTouchAt).toBe(moved.at);
      expect(await store.listCrmEvents(lead.id)).toHaveLength(1);
    });
  });
}
