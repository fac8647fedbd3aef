import { sharedSql } from '../../../back-office/database/shared-sql.ts';
import { LEAD_COLUMNS } from '../row-mapping.ts';

// The inbox's reads both engines run alike (placeholders aside); the page query both run is built
// in lead-page-query.ts. The rest differ: PostgreSQL moves and reads back in one statement (UPDATE …
// FROM, RETURNING), takes states as an array and compares its own way (GREATEST, an optional filter).

export const SELECT_LEAD = sharedSql(`SELECT ${LEAD_COLUMNS} FROM leads l JOIN deliveries d ON d.lead_id = l.id WHERE l.id = ?`);

export const SELECT_ATTEMPTS = sharedSql(
  `SELECT lead_id, attempted_at, duration_ms, status, response_body, error, outcome
   FROM delivery_attempts WHERE lead_id = ? ORDER BY id`,
);

export const COUNT_BY_STATE = sharedSql('SELECT state, COUNT(*) AS count FROM deliveries GROUP BY state');

/** Spam received in [from, before). */
export const COUNT_SPAM_RECEIVED = sharedSql(
  `SELECT COUNT(*) AS count FROM deliveries WHERE state = 'spam' AND received_at >= ? AND received_at < ?`,
);

export const COUNT_LEADS_BY_EMAIL = sharedSql('SELECT COUNT(*) AS count FROM leads WHERE email = ?');

/** Deliveries to the CRM in (from, to]. */
export const COUNT_DELIVERED_BETWEEN = sharedSql(
  `SELECT COUNT(*) AS count FROM delivery_attempts WHERE outcome = 'delivered' AND attempted_at > ? AND attempted_at <= ?`,
);

export const COUNT_FAILED = sharedSql(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'failed'`);

export const COUNT_RETRYING = sharedSql(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'pending' AND attempts > 0`);

export const COUNT_PENDING = sharedSql(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'pending'`);

export const SELECT_OLDEST_UNDELIVERED = sharedSql(
  `SELECT lead_id, received_at FROM deliveries WHERE state IN ('pending', 'held') ORDER BY received_at, lead_id LIMIT 1`,
);
