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
  LOCK_BOOKING_BY_UID,
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
// commits, then inserts nothing and answers `repeat`. Two different deliveries about one meeting
// (a booking and its cancellation sent at once) take the meeting's row in turn: a known meeting is
// read locked; a new one is inserted unless the other delivery inserted it meanwhile, in which case
// this one waits for it to commit and then reads it locked and updates it.

export function postgresBookings(c: PostgresStoreContext): BookingStore {
  const { query, transaction, writeAudit } = c;

  const bookingByUid = async (client: PoolClient, provider: string, uid: string | undefined): Promise<BookingRecord | undefined> => {
    if (uid === undefined) return undefined;
    const { rows } = await client.query(LOCK_BOOKING_BY_UID, [provider, uid]);
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
      let existing =
        (await bookingByUid(client, notice.provider, notice.uid)) ?? (await bookingByUid(client, notice.provider, notice.previousUid));
      let link = await linkOf(client, existing, delivery);
      let row: Record<string, unknown> | undefined;
      if (existing === undefined) {
        row = (await client.query(INSERT_BOOKING.postgres, newBookingValues(delivery, link))).rows[0];
        // Another delivery stored this meeting meanwhile (and has committed): take it from there.
        if (row === undefined) {
          existing = await bookingByUid(client, notice.provider, notice.uid);
          if (existing === undefined) throw new Error('The booking was not stored');
          link = await linkOf(client, existing, delivery);
        }
      }
      if (existing?.erased === true) {
        // Its person was erased: keep nothing of them, and the moved meeting's new id is a tombstone too.
        if (existing.providerUid !== notice.uid) await client.query(INSERT_TOMBSTONE.postgres, tombstoneValues(existing, notice.uid, at));
        await client.query(SET_DELIVERY_BOOKING.postgres, [existing.id, notice.provider, delivery.deliveryKey]);
        return { kind: 'erased' as const };
      }
      if (existing !== undefined) {
        row = (await client.query(UPDATE_BOOKING.postgres, [...bookingValues(existing, delivery, link), existing.id])).rows[0];
      }
      if (row === undefined) throw new Error('The booking was not stored');
      const booking = toBookingRecord(row);
      await client.query(SET_DELIVERY_BOOKING.postgres, [booking.id, notice.provider, delivery.deliveryKey]);
      if (link === undefined) return { kind: 'recorded' as const, booking, leadMeetingsBooked: 0 };
      if (changedMeeting(existing, booking)) {
        await client.query(INSERT_ACTIVITY.postgres, activityValues(meetingActivity(link.leadId, booking, at)));
        // A booked meeting is a human touch, exactly as a logged call: the lead's clock, and the earlier lead's it joined.
        const sales = stopsClock(booking) ? (await client.query(SELECT_LEAD_SALES.postgres, [link.leadId])).rows[0] : undefined;
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
    listBookings: async ({ unmatched, limit, now = Date.now() }) =>
      (unmatched ? await query(LIST_UNMATCHED_BOOKINGS.postgres, [now, now, limit]) : await query(LIST_BOOKINGS.postgres, [limit])).map(
        toBookingRecord,
      ),
    listBookingsOfLead: async (leadId) => (await query(LIST_BOOKINGS_OF_LEAD.postgres, [leadId])).map(toBookingRecord),
  };
}
