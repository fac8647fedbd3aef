// The durable inbox and outbox behind one small interface (SQLite and PostgreSQL implement it; one
// contract suite, lead-store.test.ts, runs against both). Times are milliseconds since the epoch
// and always passed in, so leases, schedules and session timeouts are testable without waiting.
// The back office's accounts and their sessions live here too: one database to back up and secure.
import { isRole, type Role } from '../accounts/roles.ts';

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

export type LeadRecord = {
  readonly id: string;
  readonly receivedAt: number;
  readonly source: string;
  readonly email: string;
  readonly payload: LeadPayload;
  readonly spamReason: string | undefined;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly nextAttemptAt: number | undefined;
  readonly lastStatus: number | undefined;
  readonly lastError: string | undefined;
  readonly updatedAt: number;
};

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

export type ListOptions = {
  readonly state?: DeliveryState;
  readonly limit?: number;
};

export type StateCounts = Readonly<Partial<Record<DeliveryState, number>>>;

/** A back-office account as it may be shown: never with its password hash. */
export type AccountRecord = {
  readonly id: string;
  /** Trimmed and lower-cased; no two accounts share one. */
  readonly email: string;
  readonly role: Role;
  readonly createdAt: number;
  /** When its role or password last changed. */
  readonly updatedAt: number;
  readonly passwordChangedAt: number;
  /** When a session was last started for it (a sign-in), or undefined if never. */
  readonly lastSignInAt: number | undefined;
};

/** An account with its password hash, for checking a password at sign-in; never shown or logged. */
export type StoredAccount = AccountRecord & { readonly passwordHash: string };

export type NewAccount = {
  /** Stored trimmed and lower-cased. */
  readonly email: string;
  readonly role: Role;
  readonly passwordHash: string;
  readonly now: number;
};

export type CreateAccountResult =
  | { readonly kind: 'created'; readonly account: AccountRecord }
  /** An account with that address (in any case) exists: nothing was stored. */
  | { readonly kind: 'exists' };

/** A live session, with its account as it is now (a role change applies to sessions at once). */
export type SessionRecord = {
  readonly account: AccountRecord;
  readonly createdAt: number;
  readonly lastSeenAt: number;
};

/** A session just started: `id` goes to the browser and is stored nowhere (the store keeps its hash). */
export type NewSession = SessionRecord & { readonly id: string };

export interface LeadStore {
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
  /** By id: failed / delivered-test / held / pending / spam → pending, due now, attempts reset; by state: every failed lead. Returns the ids changed. */
  retry(target: { readonly id: string } | { readonly state: 'failed' }, now: number): Promise<string[]>;
  /** Deletes every lead (and its delivery history) whose email matches, case-insensitively. Returns the ids. */
  eraseByEmail(email: string): Promise<string[]>;
  listLeads(options?: ListOptions): Promise<LeadRecord[]>;
  getLead(id: string): Promise<LeadRecord | undefined>;
  listAttempts(leadId: string): Promise<AttemptRecord[]>;
  countByState(): Promise<StateCounts>;
  /** Stores a new account unless one with that address exists, whatever its case. */
  createAccount(account: NewAccount): Promise<CreateAccountResult>;
  /** Every account, by e-mail address. */
  listAccounts(): Promise<AccountRecord[]>;
  /** The account with that address (compared trimmed and lower-cased), with its password hash. */
  findAccount(email: string): Promise<StoredAccount | undefined>;
  /** Deletes the account and ends all its sessions, in one transaction. False: no such account. */
  removeAccount(email: string): Promise<boolean>;
  /** False: no such account. Its sessions go on, with the new role. */
  setAccountRole(email: string, role: Role, now: number): Promise<boolean>;
  /** Stores a new password hash and ends all the account's sessions, in one transaction. False: no such account. */
  setAccountPassword(email: string, passwordHash: string, now: number): Promise<boolean>;
  /**
   * Starts a session for an account whose password was just checked against `passwordHash`, and
   * records the sign-in. Undefined when the account is gone or its password changed since the check
   * (a password change ends every session, including one started with the old password meanwhile).
   */
  createSession(signedIn: { readonly email: string; readonly passwordHash: string }, now: number): Promise<NewSession | undefined>;
  /**
   * The session with that id, or undefined when there is none or it has been unused for
   * SESSION_IDLE_MS (then it is ended). Records `now` as its last use at most every SESSION_TOUCH_MS.
   */
  findSession(id: string, now: number): Promise<SessionRecord | undefined>;
  /** Ends one session (signing out). False: there was none. */
  endSession(id: string): Promise<boolean>;
  /** Ends every session of the account ("sign out everywhere"). Returns how many there were. */
  endAccountSessions(email: string): Promise<number>;
  /** The applied schema version. */
  schemaVersion(): Promise<number>;

  // ---------------------------------------------------------------------------------------------
  // Notifications (server/notify/): the notifier's own outbox, how far it has looked for events,
  // the open delivery incident and each form's new-lead e-mail switch.

  /** The time up to which the notifier has looked for events; undefined before its first look. */
  notifyWatermark(): Promise<number | undefined>;
  /**
   * What may need a notification since `since`, oldest first, up to `limit` of each kind: real (not
   * spam) leads received, from forms whose new-lead e-mail is on, that have no new-lead notification
   * yet (none when `newLeads` is false); leads that became failed or delivered-test with no
   * notification for that change yet; and the CRM's delivery record, for incidents.
   */
  readNotifyEvents(options: ReadNotifyEventsOptions): Promise<NotifyEvents>;
  /**
   * Stores the notifications whose key is new (a key already stored, by this process or another,
   * is skipped) and moves the watermark forward to `watermark` (never back), in one transaction.
   * Returns how many were stored.
   */
  enqueueNotifications(notifications: readonly NewNotification[], watermark?: number): Promise<number>;
  /**
   * Opens an incident unless one is open, and stores its notifications in the same transaction.
   * False: an incident was already open (another process opened it first), nothing was stored.
   */
  startIncident(incident: NewIncident, notifications: readonly NewNotification[]): Promise<boolean>;
  /** Closes the open incident that started at `since` and stores its notifications. False: it was not open. */
  endIncident(since: number, closedAt: number, notifications: readonly NewNotification[]): Promise<boolean>;
  findOpenIncident(): Promise<IncidentRecord | undefined>;
  /** Claims up to `limit` notifications that are due and not leased by a live notifier. */
  claimNotifications(options: ClaimOptions): Promise<ClaimedNotification[]>;
  /** Records each try; a result from a notifier whose lease was taken over changes nothing. */
  recordNotificationResults(results: readonly NotificationResult[]): Promise<void>;
  /** Every notification, oldest first (for operators and tests). */
  listNotifications(): Promise<NotificationRecord[]>;
  /** The forms whose new-lead e-mail switch was ever set; a form not listed has it on. */
  listNotifyForms(): Promise<FormNotifySetting[]>;
  setNotifyForm(form: string, newLeadEmail: boolean, now: number): Promise<void>;
  /** Resolves when the store answers a trivial query. */
  ping(signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

// A store that cannot take a write right now (another process holds SQLite's write lock past the
// busy timeout, PostgreSQL refuses connections) fails with this message. The relay answers 503 with
// Retry-After, so the browser sends the lead again instead of losing it. The message is the marker
// because errors from the SQLite worker thread cross to the main thread as plain Errors.
export const STORE_UNAVAILABLE_MESSAGE = 'The lead store is briefly unavailable';

export function storeUnavailableError(cause: unknown): Error {
  return new Error(STORE_UNAVAILABLE_MESSAGE, { cause });
}

export function isStoreUnavailable(error: unknown): boolean {
  return error instanceof Error && error.message === STORE_UNAVAILABLE_MESSAGE;
}

/** An unknown role is a mistake in the calling code: refused before anything is stored. */
export function assertKnownRole(role: string): void {
  if (!isRole(role)) throw new Error(`Unknown role "${role}"`);
}

// Keeps a chatty CRM error page from bloating the attempts table.
export const RESPONSE_BODY_MAX_CHARS = 2_000;

export function truncateResponseBody(body: string | undefined): string | undefined {
  return body === undefined ? undefined : body.slice(0, RESPONSE_BODY_MAX_CHARS);
}

// `retry <id>` also forwards a lead judged spam: the operator has looked at it and knows better.
export const RETRYABLE_STATES: readonly DeliveryState[] = ['failed', 'delivered-test', 'held', 'pending', 'spam'];

// ---------------------------------------------------------------------------------------------
// Notifications

export const NOTIFICATION_CHANNELS = ['email', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** new-lead: e-mail only; the others are alerts, to every configured channel. */
export const NOTIFICATION_KINDS = ['new-lead', 'lead-failed', 'lead-test', 'incident-opened', 'incident-recovered'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** pending: due at nextAttemptAt; sent; given-up: out of tries; skipped: nothing to send any more (lead erased, channel gone). */
export type NotificationState = 'pending' | 'sent' | 'given-up' | 'skipped';

/** Facts about an event that are not personal data (an incident's start, its last error). */
export type NotificationDetail = Readonly<Record<string, string | number>>;

export type NewNotification = {
  /** One per event and channel: storing the same key twice (a rescan, a second process) stores it once. */
  readonly key: string;
  readonly channel: NotificationChannel;
  readonly kind: NotificationKind;
  /** The lead it is about. Its details are read when sending, so an erased lead's are never sent. */
  readonly leadId: string | undefined;
  /** When the event happened: the lead received or settled, the incident started or recovered. */
  readonly eventAt: number;
  readonly detail: NotificationDetail;
  /** Stored at, and first due at. */
  readonly createdAt: number;
};

export type ClaimedNotification = Omit<NewNotification, 'createdAt'> & {
  readonly id: number;
  readonly createdAt: number;
  /** Tries already made before this one. */
  readonly attempts: number;
};

export type NotificationRecord = ClaimedNotification & {
  readonly state: NotificationState;
  readonly lastError: string | undefined;
  readonly updatedAt: number;
};

export type NotificationResult = {
  readonly id: number;
  readonly owner: string;
  readonly at: number;
  readonly nextState: NotificationState;
  readonly error: string | undefined;
  /** When to try again (pending only). */
  readonly nextAttemptAt: number | undefined;
};

export type ReadNotifyEventsOptions = { readonly since: number; readonly limit: number; readonly newLeads: boolean };

export type NotifyLeadEvent = {
  readonly leadId: string;
  readonly source: string;
  readonly state: DeliveryState;
  /** Received (new leads) or moved to its state (settled leads). */
  readonly at: number;
};

/** The CRM's delivery record as incidents read it. */
export type DeliveryHealth = {
  /** The last attempt the CRM answered with a 2xx. */
  readonly lastSuccessAt: number | undefined;
  /** The first failed attempt after the last success. */
  readonly firstFailureAt: number | undefined;
  /** The last failed attempt: when, and what went wrong ("HTTP 503", "timeout after 10000 ms"). */
  readonly lastFailureAt: number | undefined;
  readonly lastFailure: string | undefined;
};

export type NotifyEvents = {
  readonly newLeads: NotifyLeadEvent[];
  readonly settledLeads: NotifyLeadEvent[];
  readonly health: DeliveryHealth;
};

export type NewIncident = { readonly since: number; readonly lastError: string | undefined; readonly openedAt: number };
export type IncidentRecord = NewIncident & { readonly closedAt: number | undefined };

export type FormNotifySetting = { readonly form: string; readonly newLeadEmail: boolean };

/** Delivery outcomes that mean the CRM took the lead (a 2xx). */
export const SUCCESS_OUTCOMES: readonly DeliveryState[] = ['delivered', 'delivered-test'];
/** Delivery outcomes of an attempt that did not reach the CRM or was refused. */
export const FAILURE_OUTCOMES: readonly DeliveryState[] = ['pending', 'failed'];

/** One attempt's failure in a few words: the CRM's status, or what kept it from answering. */
export function describeAttemptFailure(status: number | undefined, error: string | undefined): string {
  return status === undefined ? (error ?? 'no answer') : `HTTP ${status}`;
}

/** Combines per-outcome maxima and minima (each store reads them one outcome at a time, through an index). */
export function combineDeliveryHealth(parts: {
  readonly successTimes: readonly (number | undefined)[];
  readonly firstFailureTimes: readonly (number | undefined)[];
  readonly lastFailures: readonly ({ at: number; status: number | undefined; error: string | undefined } | undefined)[];
}): DeliveryHealth {
  const defined = (values: readonly (number | undefined)[]) => values.filter((value): value is number => value !== undefined);
  const successes = defined(parts.successTimes);
  const firstFailures = defined(parts.firstFailureTimes);
  const last = parts.lastFailures
    .filter((failure) => failure !== undefined)
    .reduce<{ at: number; status: number | undefined; error: string | undefined } | undefined>(
      (latest, failure) => (latest === undefined || failure.at > latest.at ? failure : latest),
      undefined,
    );
  return {
    lastSuccessAt: successes.length > 0 ? Math.max(...successes) : undefined,
    firstFailureAt: firstFailures.length > 0 ? Math.min(...firstFailures) : undefined,
    lastFailureAt: last?.at,
    lastFailure: last === undefined ? undefined : describeAttemptFailure(last.status, last.error),
  };
}
