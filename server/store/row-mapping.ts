// Turns a database row into the store's records. Both stores use the same column names, so one
// mapping serves SQLite and PostgreSQL.
import type { AttemptRecord, DeliveryState, LeadRecord } from './lead-store.ts';

type Row = Readonly<Record<string, unknown>>;

const optionalNumber = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));
const optionalString = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));

export function toLeadRecord(row: Row): LeadRecord {
  return {
    id: String(row.id),
    receivedAt: Number(row.received_at),
    source: String(row.source),
    email: String(row.email),
    payload: JSON.parse(String(row.payload)) as Record<string, unknown>,
    spamReason: optionalString(row.spam_reason),
    state: row.state as DeliveryState,
    attempts: Number(row.attempts),
    nextAttemptAt: optionalNumber(row.next_attempt_at),
    lastStatus: optionalNumber(row.last_status),
    lastError: optionalString(row.last_error),
    updatedAt: Number(row.updated_at),
  };
}

export function toAttemptRecord(row: Row): AttemptRecord {
  return {
    leadId: String(row.lead_id),
    attemptedAt: Number(row.attempted_at),
    durationMs: Number(row.duration_ms),
    status: optionalNumber(row.status),
    responseBody: optionalString(row.response_body),
    error: optionalString(row.error),
    outcome: row.outcome as DeliveryState,
  };
}
