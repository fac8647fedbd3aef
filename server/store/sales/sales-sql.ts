import { sharedSql } from '../../../back-office/database/shared-sql.ts';

// The sales queue's statements both engines run alike (placeholders aside). What differs stays in
// each engine file: PostgreSQL's table lock for the rules, its RETURNING, and the `away` flag
// (a boolean there, 0/1 in SQLite).

const SALES_COLUMNS =
  's.lead_id, s.owner_id, s.assigned_at, s.status, s.lost_reason, s.clock_starts_at, s.first_touch_at, s.joined_to, s.escalation_step';

/**
 * Real (not spam) leads received since a moment, with no sales row yet, oldest first. The arrival
 * bound lets the not-spam index read only recent leads rather than every lead ever stored.
 */
export const SELECT_UNPLACED = sharedSql(
  `SELECT l.id, l.received_at, l.source, l.email, l.payload, l.utm_campaign FROM deliveries d JOIN leads l ON l.id = d.lead_id
   WHERE d.state <> 'spam' AND d.received_at >= ? AND NOT EXISTS (SELECT 1 FROM lead_sales s WHERE s.lead_id = d.lead_id)
   ORDER BY d.received_at, d.lead_id LIMIT ?`,
);

export const SELECT_LEAD_FOR_PLACING = sharedSql('SELECT email, payload FROM leads WHERE id = ?');

// The change a meeting's timeline entry records (its detail is JSON text), read by each engine's own
// JSON function.
const insertLeadSales = (meetingChange: string) =>
  sharedSql(
    `INSERT INTO lead_sales (lead_id, received_at, owner_id, assigned_at, status, lost_reason, clock_starts_at, first_touch_at,
     joined_to, escalation_step, phone_key, email_domain, placed_at, updated_at)
   SELECT id, received_at, ?, ?, 'new', NULL, ?,
     (SELECT MIN(a.at) FROM lead_activities a
      WHERE a.lead_id = leads.id AND a.kind = 'meeting' AND COALESCE(${meetingChange}, '') <> 'cancelled'),
     ?, 0, ?, ?, ?, ? FROM leads WHERE id = ?
   ON CONFLICT (lead_id) DO NOTHING`,
  );

/**
 * The sales row of a placed lead; nothing when it already has one (another process placed it first:
 * on PostgreSQL the second insert waits for the first to commit, then stores nothing) or when the
 * lead is gone (erased meanwhile). A meeting the visitor booked before the lead was placed is on its
 * timeline already and was its first touch: the clock starts stopped at the first such meeting
 * booked or moved, so nobody is chased to call a person who has a meeting in the diary. A
 * cancellation is never a touch: anyone can book and cancel on the public page with a prospect's
 * address.
 */
export const INSERT_LEAD_SALES = {
  sqlite: insertLeadSales("json_extract(a.detail, '$.change')").sqlite,
  postgres: insertLeadSales("(a.detail::jsonb ->> 'change')").postgres,
} as const;

/** A round-robin pick moves the person's turn forward (never back), keeping their hours as they are. */
export const MOVE_TURN = sharedSql(
  `INSERT INTO sales_people (account_id, last_assigned_at, updated_at) SELECT id, ?, ? FROM accounts WHERE id = ?
   ON CONFLICT (account_id) DO UPDATE SET last_assigned_at = CASE
     WHEN sales_people.last_assigned_at IS NULL OR excluded.last_assigned_at > sales_people.last_assigned_at
     THEN excluded.last_assigned_at ELSE sales_people.last_assigned_at END`,
);

export const INSERT_ACTIVITY = sharedSql(
  'INSERT INTO lead_activities (lead_id, at, kind, actor_id, actor, detail) VALUES (?, ?, ?, ?, ?, ?)',
);

export const SELECT_ACTIVITIES = sharedSql(
  'SELECT id, lead_id, at, kind, actor_id, actor, detail FROM lead_activities WHERE lead_id = ? ORDER BY id',
);

export const SELECT_LEAD_SALES = sharedSql(`SELECT ${SALES_COLUMNS} FROM lead_sales s WHERE s.lead_id = ?`);

/**
 * The owner and status of a page of leads, by primary key: one statement whatever the page's size
 * (its ids are one JSON array in SQLite, one array parameter in PostgreSQL).
 */
export const SELECT_SALES_OF = {
  sqlite: 'SELECT lead_id, owner_id, status FROM lead_sales WHERE lead_id IN (SELECT value FROM json_each(?))',
  postgres: 'SELECT lead_id, owner_id, status FROM lead_sales WHERE lead_id = ANY($1::text[])',
} as const;

export const SELECT_JOINED = sharedSql('SELECT lead_id FROM lead_sales WHERE joined_to = ? ORDER BY received_at, lead_id');

/** The lead's delivery state: its CRM follow-up events wait (held) while the lead itself does. */
export const SELECT_DELIVERY_STATE = sharedSql('SELECT state FROM deliveries WHERE lead_id = ?');

// Earlier leads of the same person: received since `since`, before the given lead (or any, if it is
// unknown), placed, not spam; the latest first.
const EARLIER = `FROM lead_sales s JOIN deliveries d ON d.lead_id = s.lead_id
   WHERE s.received_at >= ? AND s.lead_id <> ? AND d.state <> 'spam'
     AND NOT EXISTS (SELECT 1 FROM leads b WHERE b.id = ? AND (b.received_at < s.received_at OR (b.received_at = s.received_at AND b.id < s.lead_id)))`;

export const SELECT_EARLIER_BY_EMAIL = sharedSql(
  `SELECT ${SALES_COLUMNS}, s.received_at ${EARLIER} AND s.lead_id IN (SELECT id FROM leads WHERE email = ?)
   ORDER BY s.received_at DESC, s.lead_id DESC LIMIT 1`,
);

export const SELECT_EARLIER_BY_PHONE = sharedSql(
  `SELECT ${SALES_COLUMNS}, s.received_at ${EARLIER} AND s.phone_key = ? ORDER BY s.received_at DESC, s.lead_id DESC LIMIT 1`,
);

export const SELECT_DOMAIN_OWNER = sharedSql(
  `SELECT owner_id FROM lead_sales WHERE email_domain = ? AND owner_id IS NOT NULL ORDER BY assigned_at DESC, lead_id DESC LIMIT 1`,
);

/** Moves the lead to an owner (or none) when its owner is still the one expected. */
export const REASSIGN_IF_OWNER = sharedSql(
  `UPDATE lead_sales SET owner_id = ?, assigned_at = ?, updated_at = ?
   WHERE lead_id = ? AND (owner_id = ? OR (owner_id IS NULL AND CAST(? AS TEXT) IS NULL))`,
);

export const SET_OWNER = sharedSql('UPDATE lead_sales SET owner_id = ?, assigned_at = ?, updated_at = ? WHERE lead_id = ?');

/** The first touch stops the clock; later ones leave it where it stopped. */
export const TOUCH = sharedSql('UPDATE lead_sales SET first_touch_at = COALESCE(first_touch_at, ?), updated_at = ? WHERE lead_id = ?');

export const SET_STATUS = sharedSql('UPDATE lead_sales SET status = ?, lost_reason = ?, updated_at = ? WHERE lead_id = ?');

/**
 * Takes the next escalation step of a lead nobody has touched, only from the step before it and only
 * while its owner is still the one the ladder read (a person may have reassigned it meanwhile).
 */
export const TAKE_STEP = sharedSql(
  `UPDATE lead_sales SET escalation_step = ?, updated_at = ?
   WHERE lead_id = ? AND escalation_step = ? AND first_touch_at IS NULL AND joined_to IS NULL
     AND (owner_id = ? OR (owner_id IS NULL AND CAST(? AS TEXT) IS NULL))`,
);

/** A person's leads still open (not won or lost), oldest first. */
export const SELECT_OPEN_OF_OWNER = sharedSql(
  `SELECT lead_id FROM lead_sales WHERE owner_id = ? AND status NOT IN ('won', 'lost') ORDER BY received_at, lead_id`,
);

const UNTOUCHED = `SELECT s.lead_id, s.received_at, s.owner_id, s.clock_starts_at, s.escalation_step
   FROM lead_sales s JOIN deliveries d ON d.lead_id = s.lead_id
   WHERE s.first_touch_at IS NULL AND s.joined_to IS NULL AND d.state <> 'spam'`;
const OLDEST_FIRST = 'ORDER BY s.received_at, s.lead_id LIMIT ?';

export const SELECT_UNTOUCHED = sharedSql(`${UNTOUCHED} ${OLDEST_FIRST}`);
export const SELECT_UNTOUCHED_OF_OWNER = sharedSql(`${UNTOUCHED} AND s.owner_id = ? ${OLDEST_FIRST}`);
export const SELECT_UNTOUCHED_UNASSIGNED = sharedSql(`${UNTOUCHED} AND s.owner_id IS NULL ${OLDEST_FIRST}`);

export const SELECT_SPEED_ROWS = sharedSql(
  `SELECT s.lead_id, s.received_at, l.source, l.utm_campaign, s.owner_id, s.clock_starts_at, s.first_touch_at
   FROM lead_sales s JOIN leads l ON l.id = s.lead_id JOIN deliveries d ON d.lead_id = s.lead_id
   WHERE s.received_at >= ? AND s.received_at < ? AND s.joined_to IS NULL AND d.state <> 'spam' AND s.placed_at < s.received_at + ?
   ORDER BY s.received_at, s.lead_id`,
);

export const SELECT_RULES = sharedSql('SELECT id, kind, value, owner_id FROM assignment_rules ORDER BY position, id');
export const DELETE_RULES = sharedSql('DELETE FROM assignment_rules');
export const INSERT_RULE = sharedSql('INSERT INTO assignment_rules (position, kind, value, owner_id) VALUES (?, ?, ?, ?)');

export const SELECT_AVAILABILITY = sharedSql(
  'SELECT account_id, time_zone, windows, away, last_assigned_at FROM sales_people ORDER BY account_id',
);
