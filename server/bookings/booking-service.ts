import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { BOOKING_PROVIDER_NAMES, type BookingConfirmation } from '../../lead/booking.ts';
import type { BookingDeliveryResult, BookingRecord, BookingStore } from '../store/bookings/booking-store.ts';
import type { BookingNotice } from './payloads.ts';

// What a verified booking webhook does: store the delivery (one transaction, see BookingStore), then
// count the meeting in the analytics. Counting comes after the commit and never fails the webhook:
// the provider would retry a delivery we already have, and the booking must not wait for the
// analytics store.

/**
 * The analytics' count of meetings: `booked` true when a lead's meeting is booked or moved, false
 * when the lead has no meeting left that is not cancelled.
 */
export type CountMeeting = (leadId: string, at: number, booked: boolean) => Promise<void>;

export type BookingService = {
  take(notice: BookingNotice, rawBody: Buffer, at: number): Promise<BookingDeliveryResult>;
  /** What the page may show the visitor about their lead's meeting; undefined while none arrived. */
  confirmation(leadId: string): Promise<BookingConfirmation | undefined>;
};

/** A delivery is the same one again exactly when its body is: a provider's retry sends the same bytes. */
export function deliveryKeyOf(rawBody: Buffer): string {
  return createHash('sha256').update(rawBody).digest('hex');
}

export function createBookingService(options: {
  store: BookingStore;
  log: FastifyBaseLogger;
  countMeeting?: CountMeeting | undefined;
}): BookingService {
  const { store, log, countMeeting } = options;

  async function count(booking: BookingRecord, result: BookingDeliveryResult & { kind: 'recorded' }, at: number): Promise<void> {
    if (countMeeting === undefined || booking.leadId === undefined) return;
    const booked = booking.status === 'booked';
    // A cancellation counts only once the lead has no meeting left.
    if (!booked && result.leadMeetingsBooked > 0) return;
    try {
      await countMeeting(booking.leadId, at, booked);
    } catch (error) {
      log.warn({ err: error, leadId: booking.leadId }, 'could not count the meeting in the analytics; the booking is stored');
    }
  }

  return {
    async take(notice, rawBody, at) {
      const result = await store.recordBookingDelivery({
        deliveryKey: deliveryKeyOf(rawBody),
        notice,
        at,
        audit: { actor: BOOKING_PROVIDER_NAMES[notice.provider], action: 'lead.meeting', describe: 'booking-linked' },
      });
      if (result.kind === 'recorded') await count(result.booking, result, at);
      return result;
    },
    async confirmation(leadId) {
      const meetings = await store.listBookingsOfLead(leadId);
      // The meeting still booked, if any; else the latest one, cancelled.
      const latest = meetings.find((meeting) => meeting.status === 'booked') ?? meetings[0];
      return latest === undefined ? undefined : { startsAt: new Date(latest.startsAt).toISOString(), status: latest.status };
    },
  };
}
