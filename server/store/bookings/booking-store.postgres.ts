import type { PoolClient } from 'pg';
import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
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
  toBookingRecord,
  type LeadLink,
} from './booking-rows.ts';
import {
  COUNT_BOOKED_OF_LEAD,
  INSERT_BOOKING,
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

// The bookings in PostgreSQL: each delivery is one transaction. Its first statement takes the
// delivery's key; a second process with the same delivery waits on that row until the first
// commits, then inserts nothing and answers `repeat`.

export function postgresBookings(c: PostgresStoreContext): BookingStore {
  const { query, transaction, writeAudit } = c;

  const bookingByUid = async (client: PoolClient, provider: string, uid: string | undefined): Promise<BookingRecord | undefined> => {
    if (uid === undefined) return undefined;
    const { rows } = await client.query(SELECT_BOOKING_BY_UID.postgres, [provider, uid]);
    return rows[0] === undefined ? undefined : toBookingRecord(rows[0]);
  };

  const linkOf = async (
    client: PoolClient,
    existing: BookingRecord | undefined,
    delivery: BookingDelivery,
  ): Promise<LeadLink | undefined> => {
    const { notice, at } = delivery;
    const known = existing?.leadId ?? notice.leadIdHint;
    const byId = known === undefined ? undefined : (await client.query(SELECT_LEAD_STATE.postgres, [known])).rows[0];
    if (byId !== undefined) {
      return { leadId: String(byId.id), matchedBy: existing?.matchedBy ?? 'lead-id', deliveryState: String(byId.state) };
    }
    const byEmail = (await client.query(SELECT_LEAD_BY_EMAIL.postgres, [notice.email, at - EMAIL_MATCH_MS])).rows[0];
    return byEmail === undefined ? undefined : { leadId: String(byEmail.id), matchedBy: 'email', deliveryState: String(byEmail.state) };
  };

  async function recordBookingDelivery(delivery: BookingDelivery): Promise<BookingDeliveryResult> {
    const { notice, at } = delivery;
    return transaction(async (client) => {
      const taken = await client.query(TAKE_DELIVERY.postgres, [notice.provider, delivery.deliveryKey, at]);
      if (taken.rowCount === 0) return { kind: 'repeat' as const };
      const existing =
        (await bookingByUid(client, notice.provider, notice.uid)) ?? (await bookingByUid(client, notice.provider, notice.previousUid));
      const link = await linkOf(client, existing, delivery);
      const { rows } =
        existing === undefined
          ? await client.query(INSERT_BOOKING.postgres, newBookingValues(delivery, link))
          : await client.query(UPDATE_BOOKING.postgres, [...bookingValues(existing, delivery, link), existing.id]);
      if (rows[0] === undefined) throw new Error('The booking was not stored');
      const booking = toBookingRecord(rows[0]);
      await client.query(SET_DELIVERY_BOOKING.postgres, [booking.id, notice.provider, delivery.deliveryKey]);
      if (link === undefined) return { kind: 'recorded' as const, booking, leadMeetingsBooked: 0 };
      if (changedMeeting(existing, booking)) {
        await client.query(INSERT_ACTIVITY.postgres, activityValues(meetingActivity(link.leadId, booking, at)));
        // A human touch, exactly as a logged call: the lead's clock, and the earlier lead's it joined.
        const sales = (await client.query(SELECT_LEAD_SALES.postgres, [link.leadId])).rows[0];
        if (sales !== undefined) {
          for (const leadId of clocksStoppedBy(toLeadSales(sales))) await client.query(TOUCH.postgres, [at, at, leadId]);
        }
        if (link.deliveryState !== 'spam') {
          await client.query(
            INSERT_CRM_EVENT_SQL.postgres,
            crmEventValues(meetingCrmEvent(link.leadId, booking, at), link.deliveryState === 'held'),
          );
        }
        await writeAudit(client, delivery.audit, at, linkedResult(link, booking));
      }
      const counted = (await client.query(COUNT_BOOKED_OF_LEAD.postgres, [link.leadId])).rows[0];
      return { kind: 'recorded' as const, booking, leadMeetingsBooked: Number(counted?.count ?? 0) };
    });
  }

  return {
    recordBookingDelivery,
    listBookings: async ({ unmatched, limit }) =>
      (await query(unmatched ? LIST_UNMATCHED_BOOKINGS.postgres : LIST_BOOKINGS.postgres, [limit])).map(toBookingRecord),
    listBookingsOfLead: async (leadId) => (await query(LIST_BOOKINGS_OF_LEAD.postgres, [leadId])).map(toBookingRecord),
  };
}
