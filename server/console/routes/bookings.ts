// GET /bookings?unmatched=1 (leads:read): the meetings the booking provider told us about, newest
// first; with unmatched=1 only those that match no lead, the ones still to come first (soonest
// first), so a salesperson can find the person who booked without sending a form (or with another
// address) and call them before the meeting.
import { z } from 'zod';
import type { BookingList, BookingView } from '../../../console/api-types.ts';
import type { BookingRecord } from '../../store/bookings/booking-store.ts';
import type { ConsoleContext } from '../context.ts';
import type { ConsoleRoutes } from '../request-checks.ts';

/** More meetings than a small team has in weeks; the screen lists them all on one page. */
export const BOOKING_LIST_LIMIT = 200;

const bookingQuery = z.strictObject({
  unmatched: z.enum(['0', '1'], { error: 'Choose 1 to list only the meetings that match no lead, or 0 for every meeting.' }).optional(),
});

const iso = (time: number) => new Date(time).toISOString();

export function toBookingView(booking: BookingRecord): BookingView {
  return {
    id: booking.id,
    provider: booking.provider,
    leadId: booking.leadId ?? null,
    matchedBy: booking.matchedBy ?? null,
    name: booking.name,
    email: booking.email,
    startsAt: iso(booking.startsAt),
    endsAt: booking.endsAt === undefined ? null : iso(booking.endsAt),
    status: booking.status,
    lastChange: booking.lastChange,
    receivedAt: iso(booking.receivedAt),
  };
}

export const bookingRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  app.get(
    '/bookings',
    { config: { right: 'leads:read' }, schema: { querystring: bookingQuery } },
    async (request): Promise<BookingList> => {
      const bookings = await context.store.listBookings({ unmatched: request.query.unmatched === '1', limit: BOOKING_LIST_LIMIT });
      return { bookings: bookings.map(toBookingView) };
    },
  );
};
