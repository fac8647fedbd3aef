import { sharedSql } from '../../../back-office/database/shared-sql.ts';

// The outbox's statements both engines run alike (placeholders aside). The lead's insert and the
// claim differ: PostgreSQL inserts ON CONFLICT and claims FOR UPDATE SKIP LOCKED, so each engine
// writes its own.

export const SELECT_LEAD_BY_IDEMPOTENCY_KEY = sharedSql('SELECT id, idempotency_body_hash FROM leads WHERE idempotency_key_hash = ?');

/** Values: lead id, state, next attempt (or null), updated at, received at. */
export const INSERT_DELIVERY = sharedSql(
  `INSERT INTO deliveries (lead_id, state, attempts, next_attempt_at, updated_at, received_at) VALUES (?, ?, 0, ?, ?, ?)`,
);

/** An attempt, kept only while its lead is (an erased lead's attempt is not written). The lead id comes first and last. */
export const INSERT_ATTEMPT = sharedSql(
  `INSERT INTO delivery_attempts (lead_id, attempted_at, duration_ms, status, response_body, error, outcome)
   SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM leads WHERE id = ?)`,
);

/** An attempt's outcome, by the worker still holding the lease. */
export const RECORD_RESULT = sharedSql(
  `UPDATE deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL,
     lease_until = NULL, last_status = ?, last_error = ?, updated_at = ?
   WHERE lead_id = ? AND lease_owner = ?`,
);

/** Values: now (next attempt), now (updated at). */
export const RELEASE_HELD = sharedSql(`UPDATE deliveries SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE state = 'held'`);

export const HOLD_PENDING = sharedSql(
  `UPDATE deliveries SET state = 'held', next_attempt_at = NULL, updated_at = ? WHERE state = 'pending'`,
);
