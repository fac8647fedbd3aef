import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type { BookingChange, BookingProvider } from '../../../lead/booking.ts';
import type { BookingNotice } from '../../bookings/payloads.ts';

// Meetings the booking provider (Cal.com or Calendly) told us about, and the webhook deliveries
// already taken. One delivery is one transaction: the delivery's key, the meeting, its link to a
// lead, and on a linked lead the timeline entry, the stopped first-touch clock, the CRM's follow-up
// event and the audit entry commit together or not at all, so a provider's retry either finds the
// whole delivery recorded (and changes nothing) or nothing of it. Times are milliseconds since the
// epoch.

/** How long after a lead arrives a booking with the same e-mail address is taken to be that lead's. */
export const EMAIL_MATCH_DAYS = 30;
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
   * its status; a late "created" never revives a cancelled meeting); its lead, kept once linked, else
   * the lead id the page carried when that lead exists, else the latest real (not spam) lead with the
   * invitee's address received within EMAIL_MATCH_DAYS, else none. On a linked lead: a `meeting`
   * activity, a human touch that stops the first-touch clock as a logged call does (a lead not placed
   * yet gets its clock stopped when it is placed), the CRM's booking event (not for a spam lead: the
   * CRM never had it) and the audit entry.
   */
  recordBookingDelivery(delivery: BookingDelivery): Promise<BookingDeliveryResult>;
  /** Meetings, newest first (by arrival); with `unmatched` only those that match no lead. */
  listBookings(filter: { readonly unmatched: boolean; readonly limit: number }): Promise<BookingRecord[]>;
  /** A lead's meetings, newest first (by arrival). */
  listBookingsOfLead(leadId: string): Promise<BookingRecord[]>;
}
