import { sharedSql } from '../../../back-office/database/shared-sql.ts';

// The bookings' statements both engines run alike (placeholders aside). SQLite (3.35 and later) and
// PostgreSQL both take ON CONFLICT … DO NOTHING and RETURNING, so every statement is written once.

const BOOKING_COLUMNS =
  'id, provider, provider_uid, lead_id, matched_by, name, email, starts_at, ends_at, status, last_change, received_at, updated_at, erased_at';

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
/**
 * The same, locking the row until the transaction ends (PostgreSQL only: SQLite's BEGIN IMMEDIATE
 * already runs one delivery at a time), so two deliveries about one meeting change it in turn, each
 * from what the other left.
 */
export const LOCK_BOOKING_BY_UID = `${SELECT_BOOKING_BY_UID.postgres} FOR UPDATE`;

/** A lead by its id, with its delivery state (spam leads are linked but never told to the CRM). */
export const SELECT_LEAD_STATE = sharedSql('SELECT l.id, d.state FROM leads l JOIN deliveries d ON d.lead_id = l.id WHERE l.id = ?');

/** The latest real (not spam) lead with this address received since a moment. */
export const SELECT_LEAD_BY_EMAIL = sharedSql(
  `SELECT l.id, d.state FROM leads l JOIN deliveries d ON d.lead_id = l.id
   WHERE l.email = ? AND l.received_at >= ? AND d.state <> 'spam'
   ORDER BY l.received_at DESC, l.id DESC LIMIT 1`,
);

/**
 * A meeting not seen before. Nothing is inserted (and nothing returned) when another delivery about
 * the same meeting stored it meanwhile: on PostgreSQL this one waits for the other to commit, then
 * reads and updates that meeting instead of failing on the unique (provider, provider_uid).
 */
export const INSERT_BOOKING = sharedSql(
  `INSERT INTO bookings (provider, provider_uid, lead_id, matched_by, name, email, starts_at, ends_at, status, last_change,
     received_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (provider, provider_uid) DO NOTHING RETURNING ${BOOKING_COLUMNS}`,
);

/**
 * The new id of an erased meeting that was moved: kept as a tombstone too (nothing of the person),
 * so later deliveries under that id are ignored as well. Parameters: provider, uid, starts_at, status,
 * last change, received_at, updated_at, erased_at.
 */
export const INSERT_TOMBSTONE = sharedSql(
  `INSERT INTO bookings (provider, provider_uid, lead_id, matched_by, name, email, starts_at, ends_at, status, last_change,
     received_at, updated_at, erased_at)
   VALUES (?, ?, NULL, NULL, '', '', ?, NULL, ?, ?, ?, ?, ?)
   ON CONFLICT (provider, provider_uid) DO NOTHING`,
);

export const UPDATE_BOOKING = sharedSql(
  `UPDATE bookings SET provider_uid = ?, lead_id = ?, matched_by = ?, name = ?, email = ?, starts_at = ?, ends_at = ?, status = ?,
     last_change = ?, updated_at = ?
   WHERE id = ? RETURNING ${BOOKING_COLUMNS}`,
);

export const COUNT_BOOKED_OF_LEAD = sharedSql(`SELECT COUNT(*) AS count FROM bookings WHERE lead_id = ? AND status = 'booked'`);

export const LIST_BOOKINGS = sharedSql(
  `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE erased_at IS NULL ORDER BY received_at DESC, id DESC LIMIT ?`,
);
/**
 * Matched none: a meeting whose lead was deleted keeps how it matched, and is never listed as
 * unmatched. The meetings still to come (booked, starting at or after the given moment) first,
 * soonest first, then the rest newest first: the list is capped, and a burst of bookings must not
 * push out the one a salesperson has to prepare for. Parameters: the moment, twice; the cap.
 */
export const LIST_UNMATCHED_BOOKINGS = sharedSql(
  `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE lead_id IS NULL AND matched_by IS NULL AND erased_at IS NULL
   ORDER BY CASE WHEN status = 'booked' AND starts_at >= ? THEN 0 ELSE 1 END,
     CASE WHEN status = 'booked' AND starts_at >= ? THEN starts_at ELSE 0 END, received_at DESC, id DESC
   LIMIT ?`,
);
/** A lead has a handful of meetings at most; the cap only bounds a pathological one. */
export const LIST_BOOKINGS_OF_LEAD = sharedSql(
  `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE lead_id = ? ORDER BY received_at DESC, id DESC LIMIT 100`,
);

/**
 * Erasure of a person (by address): their meetings go with their leads, whether they were matched
 * by the address or by a lead id the page carried. Each stays only as a tombstone: its provider and
 * the provider's id, its time and state, with no name, address, lead or match, so a later delivery
 * about it (a reschedule, a cancellation, a retry) is recognised and ignored instead of bringing the
 * person back. The delivery keys stay too. Run before the leads are deleted (the link would be
 * cleared with them). Parameters: the moment, the address, twice.
 */
export const ERASE_BOOKINGS = sharedSql(
  `UPDATE bookings SET name = '', email = '', lead_id = NULL, matched_by = NULL, erased_at = ?
   WHERE erased_at IS NULL AND (email = ? OR lead_id IN (SELECT id FROM leads WHERE email = ?))`,
);

/**
 * The retention purge, run every time (not only when it deleted leads): a meeting whose lead is gone
 * (its link was cleared with it, its match kept) goes too, so no name or address outlives the lead
 * it came with.
 */
export const PURGE_ORPHANED_BOOKINGS = sharedSql('DELETE FROM bookings WHERE lead_id IS NULL AND matched_by IS NOT NULL');

/**
 * The retention purge: a meeting that matched no lead is kept as long as a lead would be, by when it
 * arrived (the leads' cutoff). Tombstones of erased meetings hold nothing of a person and stay, so
 * a late delivery about one is still ignored.
 */
export const PURGE_UNMATCHED_BOOKINGS = sharedSql(
  'DELETE FROM bookings WHERE lead_id IS NULL AND matched_by IS NULL AND erased_at IS NULL AND received_at < ?',
);
