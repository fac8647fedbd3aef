import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type { BookingChange, BookingProvider } from '../../../lead/booking.ts';
import type { BookingNotice } from '../../bookings/payloads.ts';

// Meetings the booking provider (Cal.com or Calendly) told us about, and the webhook deliveries
// already taken. One delivery is one transaction: the delivery's key, the meeting, its link to a
// lead, and on a linked lead the timeline entry, the stopped first-touch clock, the CRM's follow-up
// event and the audit entry commit together or not at all, so a provider's retry either finds the
// whole delivery recorded (and changes nothing) or nothing of it. Times are milliseconds since the
// epoch.

/**
 * How long after a lead arrives a booking with the same e-mail address is taken to be that lead's.
 * Anyone can book on the public booking page with any address, so a match by address is a claim,
 * not a proof: a week covers the visitor who books a few days after sending the form, while keeping
 * short the time in which an outsider's booking could be taken for an older prospect's meeting.
 */
export const EMAIL_MATCH_DAYS = 7;
export const EMAIL_MATCH_MS = EMAIL_MATCH_DAYS * 24 * 60 * 60 * 1000;

export type BookingStatus = 'booked' | 'cancelled';
export type BookingMatch = 'lead-id' | 'email';

export type BookingRecord = {
  readonly id: number;
  readonly provider: BookingProvider;
  /** The provider's id of the meeting (Cal.com's booking uid, Calendly's invitee URI); a reschedule moves it to the new one. */
  readonly providerUid: string;
  /** Undefined: it matched no lead (kept and listed, never dropped). */
  readonly leadId: string | undefined;
  readonly matchedBy: BookingMatch | undefined;
  readonly name: string;
  readonly email: string;
  readonly startsAt: number;
  readonly endsAt: number | undefined;
  readonly status: BookingStatus;
  readonly lastChange: BookingChange;
  /** When the first webhook about it arrived. */
  readonly receivedAt: number;
  readonly updatedAt: number;
  /**
   * The person was erased: only the provider's id is kept (name and address blank, no lead), so a
   * later delivery about the same meeting is recognised and ignored. Never listed or linked.
   */
  readonly erased: boolean;
};

/** One verified webhook delivery about a meeting. */
export type BookingDelivery = {
  /** What makes a delivery the same one again (a hash of its body): a repeat changes nothing. */
  readonly deliveryKey: string;
  readonly notice: BookingNotice;
  /** When it arrived. */
  readonly at: number;
  /** Written when the meeting belongs to a lead, worded from the link. */
  readonly audit: AuditEntryInput<'booking-linked'> | undefined;
};

export type BookingDeliveryResult =
  /** The same delivery was recorded before: nothing was written. */
  | { readonly kind: 'repeat' }
  /** About a meeting whose person was erased: only the delivery's key was kept, nothing of the person. */
  | { readonly kind: 'erased' }
  | {
      readonly kind: 'recorded';
      readonly booking: BookingRecord;
      /** Meetings of the booking's lead still booked (not cancelled) after this delivery; 0 without a lead. */
      readonly leadMeetingsBooked: number;
    };

export interface BookingStore {
  /**
   * Records one delivery in one transaction: its key (a repeat answers `repeat` and writes nothing);
   * the meeting, inserted or updated (a reschedule moves the meeting it names, a cancellation sets
   * its status; any other delivery arriving after the meeting's cancellation is stale and never
   * revives it, since providers do not promise order); a meeting whose person was erased is never
   * brought back (answers `erased`); its lead, kept once linked, else the lead id the page carried
   * when that lead exists, else the latest real (not spam) lead with the invitee's address received
   * within EMAIL_MATCH_DAYS, else none. On a linked lead: a `meeting` activity (saying how it was
   * matched), the CRM's booking event (not for a spam lead: the CRM never had it) and the audit
   * entry; a meeting booked (not cancelled) is a human touch that stops the first-touch clock as a
   * logged call does (a lead not placed yet gets its clock stopped when it is placed). A
   * cancellation never stops it: anyone can book and cancel with a prospect's address.
   * Two processes given different deliveries about one new meeting store one meeting.
   */
  recordBookingDelivery(delivery: BookingDelivery): Promise<BookingDeliveryResult>;
  /**
   * Meetings, newest first (by arrival); with `unmatched` only those that match no lead, the ones
   * still to come (booked, starting at `now` or later, default the present) first, soonest first,
   * then the rest newest first, so a burst of old or cancelled meetings never hides one to prepare.
   * Erased meetings are never listed.
   */
  listBookings(filter: { readonly unmatched: boolean; readonly limit: number; readonly now?: number }): Promise<BookingRecord[]>;
  /** A lead's meetings, newest first (by arrival). */
  listBookingsOfLead(leadId: string): Promise<BookingRecord[]>;
}
