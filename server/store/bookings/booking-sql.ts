import { sharedSql } from '../../../back-office/database/shared-sql.ts';

// The bookings' statements both engines run alike (placeholders aside). SQLite (3.35 and later) and
// PostgreSQL both take ON CONFLICT … DO NOTHING and RETURNING, so every statement is written once.

const BOOKING_COLUMNS =
  'id, provider, provider_uid, lead_id, matched_by, name, email, starts_at, ends_at, status, last_change, received_at, updated_at';

/**
 * The delivery's key, taken once: nothing is inserted when it is there already (on PostgreSQL a
 * second process with the same delivery waits for the first to commit, then inserts nothing).
 */
export const TAKE_DELIVERY = sharedSql(
  `INSERT INTO booking_webhooks (provider, delivery_key, booking_id, received_at) VALUES (?, ?, NULL, ?)
   ON CONFLICT (provider, delivery_key) DO NOTHING`,
);

export const SET_DELIVERY_BOOKING = sharedSql('UPDATE booking_webhooks SET booking_id = ? WHERE provider = ? AND delivery_key = ?');

export const SELECT_BOOKING_BY_UID = sharedSql(`SELECT ${BOOKING_COLUMNS} FROM bookings WHERE provider = ? AND provider_uid = ?`);

/** A lead by its id, with its delivery state (spam leads are linked but never told to the CRM). */
export const SELECT_LEAD_STATE = sharedSql('SELECT l.id, d.state FROM leads l JOIN deliveries d ON d.lead_id = l.id WHERE l.id = ?');

/** The latest real (not spam) lead with this address received since a moment. */
export const SELECT_LEAD_BY_EMAIL = sharedSql(
  `SELECT l.id, d.state FROM leads l JOIN deliveries d ON d.lead_id = l.id
   WHERE l.email = ? AND l.received_at >= ? AND d.state <> 'spam'
   ORDER BY l.received_at DESC, l.id DESC LIMIT 1`,
);

export const INSERT_BOOKING = sharedSql(
  `INSERT INTO bookings (provider, provider_uid, lead_id, matched_by, name, email, starts_at, ends_at, status, last_change,
     received_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${BOOKING_COLUMNS}`,
);

export const UPDATE_BOOKING = sharedSql(
  `UPDATE bookings SET provider_uid = ?, lead_id = ?, matched_by = ?, name = ?, email = ?, starts_at = ?, ends_at = ?, status = ?,
     last_change = ?, updated_at = ?
   WHERE id = ? RETURNING ${BOOKING_COLUMNS}`,
);

export const COUNT_BOOKED_OF_LEAD = sharedSql(`SELECT COUNT(*) AS count FROM bookings WHERE lead_id = ? AND status = 'booked'`);

export const LIST_BOOKINGS = sharedSql(`SELECT ${BOOKING_COLUMNS} FROM bookings ORDER BY received_at DESC, id DESC LIMIT ?`);
/** Matched none: a meeting whose lead was deleted keeps how it matched, and is never listed as unmatched. */
export const LIST_UNMATCHED_BOOKINGS = sharedSql(
  `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE lead_id IS NULL AND matched_by IS NULL ORDER BY received_at DESC, id DESC LIMIT ?`,
);
/** A lead has a handful of meetings at most; the cap only bounds a pathological one. */
export const LIST_BOOKINGS_OF_LEAD = sharedSql(
  `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE lead_id = ? ORDER BY received_at DESC, id DESC LIMIT 100`,
);

/**
 * Erasure of a person (by address): their meetings go with their leads, whether they were matched
 * by the address or by a lead id the page carried. The delivery keys stay, pointing at nothing, so a
 * provider retrying an old delivery cannot bring an erased meeting back. Run before the leads are
 * deleted (the link would be cleared with them). Parameters: the address, twice.
 */
export const ERASE_BOOKINGS = [
  sharedSql(
    `UPDATE booking_webhooks SET booking_id = NULL WHERE booking_id IN
       (SELECT id FROM bookings WHERE email = ? OR lead_id IN (SELECT id FROM leads WHERE email = ?))`,
  ),
  sharedSql('DELETE FROM bookings WHERE email = ? OR lead_id IN (SELECT id FROM leads WHERE email = ?)'),
] as const;

/**
 * The retention purge: a meeting whose lead the purge deleted (its link was cleared with it, its
 * match kept) goes too, so no name or address outlives the lead it came with.
 */
export const PURGE_ORPHANED_BOOKINGS = sharedSql('DELETE FROM bookings WHERE lead_id IS NULL AND matched_by IS NOT NULL');
