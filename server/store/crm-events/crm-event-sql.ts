import type { NewCrmEvent } from '../sales/sales-store.ts';

// The one insert of a CRM follow-up event, shared by every store that writes one inside its own
// transaction (the sales queue's changes, bookings). A new event is due at once: state `pending`,
// or `held` while no CRM address is configured, exactly as a new lead.

export const INSERT_CRM_EVENT_SQL = {
  sqlite:
    'INSERT INTO crm_events (lead_id, kind, body, created_at, state, next_attempt_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  postgres:
    'INSERT INTO crm_events (lead_id, kind, body, created_at, state, next_attempt_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
} as const;

/** The insert's values. `held`: no CRM address is configured, so the event waits like a held lead. */
export function crmEventValues(event: NewCrmEvent, held: boolean): unknown[] {
  return [event.leadId, event.kind, JSON.stringify(event.body), event.at, held ? 'held' : 'pending', held ? null : event.at, event.at];
}
