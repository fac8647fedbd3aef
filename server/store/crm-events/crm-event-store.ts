import type { ClaimOptions } from '../outbox/outbox-store.ts';
import type { NewCrmEvent } from '../sales/sales-store.ts';

export type { NewCrmEvent } from '../sales/sales-store.ts';

// The CRM's follow-up events (a lead's owner or sales status changed, a meeting was booked): kept
// until the CRM has taken them, claimed under a lease and settled by the outbox worker exactly as
// leads are. Most events are written by other stores inside the transaction of the change they tell
// of (crm-event-sql.ts); this store claims, settles, lists, holds and releases them. Times are
// milliseconds since the epoch and always passed in.

export const CRM_EVENT_STATES = ['held', 'pending', 'sent', 'sent-test', 'failed'] as const;
/**
 * held: no CRM_WEBHOOK_URL yet; pending: due at `nextAttemptAt` once its lead reached the CRM;
 * sent: the CRM answered 2xx; sent-test: a 2xx that says it was only a test (no live workflow ran);
 * failed: out of attempts, or the CRM answered 410.
 */
export type CrmEventState = (typeof CRM_EVENT_STATES)[number];

export type CrmEventKind = NewCrmEvent['kind'];

/** An event claimed for one attempt; no other worker gets it until the lease ends. */
export type ClaimedCrmEvent = {
  readonly id: number;
  readonly leadId: string;
  readonly kind: CrmEventKind;
  /** The stored JSON text, sent exactly as stored. */
  readonly body: string;
  /** Attempts already made before this one. */
  readonly attempts: number;
};

export type CrmEventResult = {
  readonly id: number;
  /** The worker that claimed it: a result from a worker whose lease was taken over changes nothing. */
  readonly owner: string;
  readonly attemptedAt: number;
  /** When the attempt ended (the CRM answered, or gave no answer). */
  readonly finishedAt: number;
  /** The CRM's HTTP status, or undefined for a timeout or network error. */
  readonly status: number | undefined;
  readonly error: string | undefined;
  readonly nextState: 'pending' | 'sent' | 'sent-test' | 'failed';
  /** When the next attempt is due (pending only). */
  readonly nextAttemptAt: number | undefined;
};

/** One event as a lead's timeline shows it. */
export type CrmEventRecord = {
  readonly id: number;
  readonly leadId: string;
  readonly kind: CrmEventKind;
  readonly createdAt: number;
  readonly state: CrmEventState;
  readonly attempts: number;
  /** The CRM's last HTTP status, or undefined before the first answer. */
  readonly lastStatus: number | undefined;
  /** The last timeout or network error. */
  readonly lastError: string | undefined;
  /** When it is due next (pending only). */
  readonly nextAttemptAt: number | undefined;
};

export interface CrmEventStore {
  /**
   * Stores events outside any other change's transaction, all in one. `held`: no CRM address is
   * configured, so they wait as held leads do.
   */
  enqueueCrmEvents(events: readonly NewCrmEvent[], options: { held: boolean }): Promise<void>;
  /**
   * Claims up to `limit` due events whose lead the CRM has already taken (delivered, or answered as
   * a test), oldest first, at most one per lead and only the lead's earliest unsettled one, so the
   * CRM hears of one lead's changes in the order they happened.
   */
  claimDueCrmEvents(options: ClaimOptions): Promise<ClaimedCrmEvent[]>;
  /** Moves each claimed event to its next state, in one transaction. */
  recordCrmEventResults(results: readonly CrmEventResult[]): Promise<void>;
  /** The lead's events, oldest first. */
  listCrmEvents(leadId: string): Promise<CrmEventRecord[]>;
  /** held → pending, due at `now` (a CRM address is configured). Returns how many. */
  releaseHeldCrmEvents(now: number): Promise<number>;
  /** pending → held (no CRM address is configured). Returns how many. */
  holdPendingCrmEvents(now: number): Promise<number>;
}

/** Reads a stored row (either engine: PostgreSQL gives BIGINT as text). */
export function crmEventRecordOf(row: Record<string, unknown>): CrmEventRecord {
  const optionalNumber = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));
  return {
    id: Number(row.id),
    leadId: String(row.lead_id),
    kind: String(row.kind) as CrmEventKind,
    createdAt: Number(row.created_at),
    state: String(row.state) as CrmEventState,
    attempts: Number(row.attempts),
    lastStatus: optionalNumber(row.last_status),
    lastError: row.last_error === null || row.last_error === undefined ? undefined : String(row.last_error),
    nextAttemptAt: optionalNumber(row.next_attempt_at),
  };
}
