// The outbox: a lead stored with its delivery record in one committed transaction, then claimed,
// tried and settled by the outbox worker (held while no CRM URL is configured). Times are
// milliseconds since the epoch and always passed in, so leases and schedules are testable without waiting.

export const DELIVERY_STATES = ['held', 'pending', 'delivered', 'delivered-test', 'failed', 'spam'] as const;
/**
 * held: no CRM_WEBHOOK_URL yet; pending: due at `nextAttemptAt`; delivered: the CRM answered 2xx;
 * delivered-test: a 2xx that says it was only a test (the lead reached no live workflow);
 * failed: out of attempts or the CRM answered 410; spam: kept, never forwarded.
 */
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The CRM body of a lead: each form's payload with the field names the CRM maps, plus attribution. */
export type LeadPayload = Readonly<Record<string, unknown>>;

export type NewLead = {
  readonly id: string;
  readonly receivedAt: number;
  readonly source: string;
  /** Lower-cased, for `erase --email`; '' when the submission had none. */
  readonly email: string;
  readonly payload: LeadPayload;
  /** Why it was judged spam, or undefined for a real lead. */
  readonly spamReason: string | undefined;
  /** Set when the client sent an Idempotency-Key: SHA-256 of the key, and of the body it came with. */
  readonly idempotency?: { readonly keyHash: string; readonly bodyHash: string };
  /** The first delivery state: 'pending' (forward now), 'held' (no CRM URL) or 'spam'. */
  readonly initialState: 'pending' | 'held' | 'spam';
};

export type InsertLeadResult =
  | { readonly kind: 'created'; readonly id: string }
  /** The Idempotency-Key was seen before with the same body: nothing was stored; `id` is the first lead's. */
  | { readonly kind: 'duplicate'; readonly id: string }
  /** The Idempotency-Key was seen before with another body: nothing was stored; the client must use a new key. */
  | { readonly kind: 'key-reused'; readonly id: string };

/**
 * What a repeated Idempotency-Key means, given the body hash stored with its first use (null for a
 * lead stored before body hashes were kept: it cannot be compared, so it counts as the same).
 */
export function judgeRepeatedKey(id: string, storedBodyHash: string | null, bodyHash: string): InsertLeadResult {
  return storedBodyHash === null || storedBodyHash === bodyHash ? { kind: 'duplicate', id } : { kind: 'key-reused', id };
}

/** The payload values the inbox filters and searches on, copied into their own columns at insert. */
export type LeadColumns = {
  readonly name: string | null;
  readonly company: string | null;
  readonly utmCampaign: string | null;
  readonly utmSource: string | null;
};

/** Reads the inbox columns from a payload: a value that is not a string is left out. */
export function leadColumnsOf(payload: LeadPayload): LeadColumns {
  const text = (key: string): string | null => {
    const value = payload[key];
    return typeof value === 'string' ? value : null;
  };
  return { name: text('name'), company: text('company'), utmCampaign: text('utm_campaign'), utmSource: text('utm_source') };
}

export type AttemptRecord = {
  readonly leadId: string;
  readonly attemptedAt: number;
  readonly durationMs: number;
  /** The CRM's HTTP status, or undefined for a timeout or network error. */
  readonly status: number | undefined;
  /** The CRM's answer body, cut to RESPONSE_BODY_MAX_CHARS. */
  readonly responseBody: string | undefined;
  readonly error: string | undefined;
  readonly outcome: DeliveryState;
};

/** A lead claimed for one delivery attempt; no other worker gets it until `leaseUntil`. */
export type ClaimedDelivery = {
  readonly leadId: string;
  /** The stored payload's JSON text, sent as the request body exactly as stored (never re-serialised). */
  readonly body: string;
  /** Attempts already made before this one. */
  readonly attempts: number;
};

export type DeliveryResult = {
  readonly leadId: string;
  /** The worker that claimed it: a result from a worker whose lease was taken over changes no state. */
  readonly owner: string;
  readonly attempt: Omit<AttemptRecord, 'leadId' | 'outcome'>;
  readonly nextState: 'pending' | 'delivered' | 'delivered-test' | 'failed';
  /** When the next attempt is due (pending only). */
  readonly nextAttemptAt: number | undefined;
};

export type ClaimOptions = {
  readonly now: number;
  readonly limit: number;
  /** Who claims (one id per worker); stored with the lease. */
  readonly owner: string;
  /** How long the claim holds; after it a crashed worker's lead is claimed again (sent at most once more). */
  readonly leaseMs: number;
};

// Keeps a chatty CRM error page from bloating the attempts table.
export const RESPONSE_BODY_MAX_CHARS = 2_000;

export function truncateResponseBody(body: string | undefined): string | undefined {
  return body === undefined ? undefined : body.slice(0, RESPONSE_BODY_MAX_CHARS);
}

/** What the relay and the outbox worker write: new leads, claims and delivery results. */
export interface OutboxStore {
  /** Stores the lead and its delivery record in one committed transaction. */
  insertLead(lead: NewLead): Promise<InsertLeadResult>;
  /** Claims up to `limit` pending leads that are due and not leased by a live worker. */
  claimDue(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /** Records each attempt and moves each lead to its next state, in one transaction. */
  recordResults(results: readonly DeliveryResult[]): Promise<void>;
  /** held → pending, due at `now` (a CRM URL is configured). Returns how many. */
  releaseHeld(now: number): Promise<number>;
  /** pending → held (no CRM URL is configured). Returns how many. */
  holdPending(now: number): Promise<number>;
}
