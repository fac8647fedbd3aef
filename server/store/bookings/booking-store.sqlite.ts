import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
import { crmEventValues, INSERT_CRM_EVENT_SQL } from '../crm-events/crm-event-sql.ts';
import { activityValues, clocksStoppedBy, toLeadSales } from '../sales/sales-rows.ts';
import { INSERT_ACTIVITY, SELECT_LEAD_SALES, TOUCH } from '../sales/sales-sql.ts';
import {
  bookingValues,
  changedMeeting,
  linkedResult,
  meetingActivity,
  meetingCrmEvent,
  newBookingValues,
  stopsClock,
  tombstoneValues,
  toBookingRecord,
  type LeadLink,
} from './booking-rows.ts';
import {
  COUNT_BOOKED_OF_LEAD,
  INSERT_BOOKING,
  INSERT_TOMBSTONE,
  LIST_BOOKINGS,
  LIST_BOOKINGS_OF_LEAD,
  LIST_UNMATCHED_BOOKINGS,
  SELECT_BOOKING_BY_UID,
  SELECT_LEAD_BY_EMAIL,
  SELECT_LEAD_STATE,
  SET_DELIVERY_BOOKING,
  TAKE_DELIVERY,
  UPDATE_BOOKING,
} from './booking-sql.ts';
import {
  EMAIL_MATCH_MS,
  type BookingDelivery,
  type BookingDeliveryResult,
  type BookingRecord,
  type BookingStore,
} from './booking-store.ts';

// The bookings in SQLite: each delivery is one BEGIN IMMEDIATE transaction, so two processes given
// the same delivery run one after the other and the second finds its key taken.

export function sqliteBookings(c: SqliteStoreContext): BookingStore {
  const { all, get, run, transaction, writeAudit, ifOpen } = c;

  const bookingByUid = (provider: string, uid: string | undefined): BookingRecord | undefined => {
    if (uid === undefined) return undefined;
    const row = get(SELECT_BOOKING_BY_UID.sqlite, provider, uid);
    return row === undefined ? undefined : toBookingRecord(row);
  };

  const linkOf = (existing: BookingRecord | undefined, delivery: BookingDelivery): LeadLink | undefined => {
    const { notice, at } = delivery;
    const known = existing?.leadId ?? notice.leadIdHint;
    const byId = known === undefined ? undefined : get(SELECT_LEAD_STATE.sqlite, known);
    if (byId !== undefined) {
      return { leadId: String(byId.id), matchedBy: existing?.matchedBy ?? 'lead-id', deliveryState: String(byId.state) };
    }
    const byEmail = get(SELECT_LEAD_BY_EMAIL.sqlite, notice.email, at - EMAIL_MATCH_MS);
    return byEmail === undefined ? undefined : { leadId: String(byEmail.id), matchedBy: 'email', deliveryState: String(byEmail.state) };
  };

  function recordBookingDelivery(delivery: BookingDelivery): BookingDeliveryResult {
    const { notice, at } = delivery;
    return transaction(() => {
      if (run(TAKE_DELIVERY.sqlite, notice.provider, delivery.deliveryKey, at) === 0) return { kind: 'repeat' as const };
      // One delivery at a time (BEGIN IMMEDIATE): nothing can store the meeting between this read and the write.
      const existing = bookingByUid(notice.provider, notice.uid) ?? bookingByUid(notice.provider, notice.previousUid);
      if (existing?.erased === true) {
        // Its person was erased: keep nothing of them, and the moved meeting's new id is a tombstone too.
        if (existing.providerUid !== notice.uid) run(INSERT_TOMBSTONE.sqlite, ...tombstoneValues(existing, notice.uid, at));
        run(SET_DELIVERY_BOOKING.sqlite, existing.id, notice.provider, delivery.deliveryKey);
        return { kind: 'erased' as const };
      }
      const link = linkOf(existing, delivery);
      const row =
        existing === undefined
          ? get(INSERT_BOOKING.sqlite, ...newBookingValues(delivery, link))
          : get(UPDATE_BOOKING.sqlite, ...bookingValues(existing, delivery, link), existing.id);
      if (row === undefined) throw new Error('The booking was not stored');
      const booking = toBookingRecord(row);
      run(SET_DELIVERY_BOOKING.sqlite, booking.id, notice.provider, delivery.deliveryKey);
      if (link === undefined) return { kind: 'recorded' as const, booking, leadMeetingsBooked: 0 };
      if (changedMeeting(existing, booking)) {
        run(INSERT_ACTIVITY.sqlite, ...activityValues(meetingActivity(link.leadId, booking, at)));
        // A booked meeting is a human touch, exactly as a logged call: the lead's clock, and the earlier lead's it joined.
        const sales = stopsClock(booking) ? get(SELECT_LEAD_SALES.sqlite, link.leadId) : undefined;
        if (sales !== undefined) for (const leadId of clocksStoppedBy(toLeadSales(sales))) run(TOUCH.sqlite, at, at, leadId);
        if (link.deliveryState !== 'spam') {
          const event = meetingCrmEvent(link.leadId, booking, at);
          run(INSERT_CRM_EVENT_SQL.sqlite, ...(crmEventValues(event, link.deliveryState === 'held') as (string | number | null)[]));
        }
        writeAudit(delivery.audit, at, linkedResult(link, booking));
      }
      const leadMeetingsBooked = Number(get(COUNT_BOOKED_OF_LEAD.sqlite, link.leadId)?.count ?? 0);
      return { kind: 'recorded' as const, booking, leadMeetingsBooked };
    });
  }

  return {
    recordBookingDelivery: ifOpen(recordBookingDelivery),
    listBookings: ifOpen(({ unmatched, limit, now = Date.now() }: { unmatched: boolean; limit: number; now?: number }) =>
      (unmatched ? all(LIST_UNMATCHED_BOOKINGS.sqlite, now, now, limit) : all(LIST_BOOKINGS.sqlite, limit)).map(toBookingRecord),
    ),
    listBookingsOfLead: ifOpen((leadId: string) => all(LIST_BOOKINGS_OF_LEAD.sqlite, leadId).map(toBookingRecord)),
  };
}
