import { sharedSql } from '../../../back-office/database/shared-sql.ts';
import type { NewCrmEvent } from '../sales/sales-store.ts';

// The one insert of a CRM follow-up event, shared by every store that writes one inside its own
// transaction (the sales queue's changes, bookings). A new event is due at once: state `pending`,
// or `held` while no CRM address is configured, exactly as a new lead.

export const INSERT_CRM_EVENT_SQL = {
  sqlite: 'INSERT INTO crm_events (lead_id, kind, body, created_at, state, next_attempt_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  postgres:
    'INSERT INTO crm_events (lead_id, kind, body, created_at, state, next_attempt_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
} as const;

/** The insert's values. `held`: no CRM address is configured, so the event waits like a held lead. */
export function crmEventValues(event: NewCrmEvent, held: boolean): unknown[] {
  return [event.leadId, event.kind, JSON.stringify(event.body), event.at, held ? 'held' : 'pending', held ? null : event.at, event.at];
}

/** An attempt's outcome, by the worker still holding the lease. */
export const RECORD_CRM_EVENT_RESULT = sharedSql(
  `UPDATE crm_events SET state = ?, attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,
     last_status = ?, last_error = ?, updated_at = ?
   WHERE id = ? AND lease_owner = ?`,
);

export const LIST_CRM_EVENTS = sharedSql(
  `SELECT id, lead_id, kind, created_at, state, attempts, last_status, last_error, next_attempt_at
   FROM crm_events WHERE lead_id = ? ORDER BY id`,
);

/** Values: now (next attempt), now (updated at). */
export const RELEASE_HELD_CRM_EVENTS = sharedSql(
  `UPDATE crm_events SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE state = 'held'`,
);

export const HOLD_PENDING_CRM_EVENTS = sharedSql(
  `UPDATE crm_events SET state = 'held', next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL, updated_at = ?
   WHERE state = 'pending'`,
);

/**
 * The due events: pending, due, not leased by a live worker, their lead taken by the CRM, and no
 * earlier unsettled event of the same lead (one lead's changes reach the CRM in order).
 * Values: now, now, limit. PostgreSQL appends its row lock to this.
 */
export const DUE_CRM_EVENTS = sharedSql(
  `SELECT e.id FROM crm_events e JOIN deliveries d ON d.lead_id = e.lead_id
   WHERE e.state = 'pending' AND e.next_attempt_at <= ? AND (e.lease_until IS NULL OR e.lease_until <= ?)
     AND d.state IN ('delivered', 'delivered-test')
     AND NOT EXISTS (SELECT 1 FROM crm_events p WHERE p.lead_id = e.lead_id AND p.id < e.id AND p.state IN ('held', 'pending'))
   ORDER BY e.next_attempt_at, e.id LIMIT ?`,
);
