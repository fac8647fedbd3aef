import type { BookingChange, BookingProvider } from '../../../lead/booking.ts';
import { BOOKING_PROVIDER_NAMES } from '../../../lead/booking.ts';
import { bookingEvent } from '../../outbox/crm-events.ts';
import type { NewActivity, NewCrmEvent } from '../sales/sales-store.ts';
import type { BookingDelivery, BookingMatch, BookingRecord, BookingStatus } from './booking-store.ts';

// What both engines share about a delivery: reading rows, deciding the meeting's new values, and the
// lead's timeline entry and CRM event. One decision serves SQLite and PostgreSQL.

type Row = Readonly<Record<string, unknown>>;

const optionalNumber = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));

export function toBookingRecord(row: Row): BookingRecord {
  return {
    id: Number(row.id),
    provider: String(row.provider) as BookingProvider,
    providerUid: String(row.provider_uid),
    leadId: row.lead_id === null || row.lead_id === undefined ? undefined : String(row.lead_id),
    matchedBy: row.matched_by === null || row.matched_by === undefined ? undefined : (String(row.matched_by) as BookingMatch),
    name: String(row.name),
    email: String(row.email),
    startsAt: Number(row.starts_at),
    endsAt: optionalNumber(row.ends_at),
    status: String(row.status) as BookingStatus,
    lastChange: String(row.last_change) as BookingChange,
    receivedAt: Number(row.received_at),
    updatedAt: Number(row.updated_at),
    erased: row.erased_at !== null && row.erased_at !== undefined,
  };
}

/**
 * The lead a meeting belongs to, and its delivery state: a spam lead never reached the CRM, so it is
 * told nothing about it; a held lead's events wait with it, as the sales queue's do.
 */
export type LeadLink = { readonly leadId: string; readonly matchedBy: BookingMatch; readonly deliveryState: string };

/** The meeting's values after the delivery, in UPDATE_BOOKING's order up to `updated_at`. */
export function bookingValues(
  existing: BookingRecord | undefined,
  delivery: BookingDelivery,
  link: LeadLink | undefined,
): (string | number | null)[] {
  const { notice, at } = delivery;
  // Anything but a cancellation that arrives after the cancellation (a late "created", a late
  // reschedule: providers do not promise order) is stale: the meeting stays as the cancellation
  // left it, and only its link to a lead may be new.
  if (existing?.status === 'cancelled' && notice.change !== 'cancelled') {
    return [
      existing.providerUid,
      link?.leadId ?? null,
      link?.matchedBy ?? null,
      existing.name,
      existing.email,
      existing.startsAt,
      existing.endsAt ?? null,
      existing.status,
      existing.lastChange,
      at,
    ];
  }
  const status: BookingStatus = notice.change === 'cancelled' ? 'cancelled' : 'booked';
  const lastChange: BookingChange = notice.change;
  return [
    notice.uid,
    link?.leadId ?? null,
    link?.matchedBy ?? null,
    notice.name !== '' ? notice.name : (existing?.name ?? ''),
    notice.email,
    notice.startsAt,
    notice.endsAt ?? existing?.endsAt ?? null,
    status,
    lastChange,
    at,
  ];
}

/** INSERT_BOOKING's values for a meeting not seen before. */
export function newBookingValues(delivery: BookingDelivery, link: LeadLink | undefined): (string | number | null)[] {
  const values = bookingValues(undefined, delivery, link);
  return [delivery.notice.provider, ...values, delivery.at];
}

/** INSERT_TOMBSTONE's values: the new id of an erased meeting that moved, with nothing of its person. */
export function tombstoneValues(erased: BookingRecord, uid: string, at: number): (string | number)[] {
  return [erased.provider, uid, erased.startsAt, erased.status, erased.lastChange, at, at, at];
}

/**
 * Whether the lead hears of the delivery: the meeting changed as a person sees it (its time, its
 * state, or it is new), or it was just linked to the lead (booked before the lead arrived). A
 * delivery that changed nothing (a late "created" after the cancellation, the same cancellation told
 * twice in two bodies) writes no timeline entry, CRM event or audit entry.
 */
export function changedMeeting(before: BookingRecord | undefined, after: BookingRecord): boolean {
  return (
    before === undefined ||
    before.leadId !== after.leadId ||
    before.status !== after.status ||
    before.startsAt !== after.startsAt ||
    before.providerUid !== after.providerUid
  );
}

/**
 * Whether the delivery stops the lead's first-touch clock: only a meeting booked (created or
 * moved). Anyone can book on the public page with a prospect's address and cancel at once, so a
 * cancellation, or a meeting known only as cancelled, is never taken for the prospect's answer.
 */
export function stopsClock(booking: BookingRecord): boolean {
  return booking.status === 'booked';
}

/**
 * The lead's timeline entry: the provider acted for the invitee. `matchedBy` says whether the page
 * carried the lead's id or only the address matched (a claim anyone can make), for the timeline to say.
 */
export function meetingActivity(leadId: string, booking: BookingRecord, at: number): NewActivity {
  return {
    leadId,
    at,
    kind: 'meeting',
    actorId: undefined,
    actor: BOOKING_PROVIDER_NAMES[booking.provider],
    detail: {
      change: booking.lastChange,
      startsAt: new Date(booking.startsAt).toISOString(),
      endsAt: booking.endsAt === undefined ? null : new Date(booking.endsAt).toISOString(),
      provider: booking.provider,
      matchedBy: booking.matchedBy ?? null,
    },
  };
}

export function meetingCrmEvent(leadId: string, booking: BookingRecord, at: number): NewCrmEvent {
  return bookingEvent({
    leadId,
    at,
    startsAt: booking.startsAt,
    endsAt: booking.endsAt,
    bookedByEmail: booking.email,
    change: booking.lastChange,
  });
}

/** The audit entry's wording, from the link and the meeting as stored. */
export function linkedResult(link: LeadLink, booking: BookingRecord) {
  return {
    leadId: link.leadId,
    change: booking.lastChange,
    provider: BOOKING_PROVIDER_NAMES[booking.provider],
    startsAt: booking.startsAt,
    matchedBy: link.matchedBy,
  };
}
