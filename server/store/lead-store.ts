// The durable inbox and outbox behind one small interface (SQLite and PostgreSQL implement it; one
// contract suite, lead-store.test.ts, runs against both). Times are milliseconds since the epoch
// and always passed in, so leases, schedules and session timeouts are testable without waiting.
// The back office's accounts and their sessions live here too: one database to back up and secure.
import { isRole, type Role } from '../../back-office/roles.ts';
import type { SessionApp } from '../../back-office/sessions/session-apps.ts';

import { DELIVERY_STATES, type DeliveryState } from '../../lead/delivery-states.ts';
export { DELIVERY_STATES, type DeliveryState };

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
  /** The payload's `name`, `company`, `utm_campaign` and `utm_source`, kept in columns the inbox filters and searches. */
  readonly name: string | undefined;
  readonly company: string | undefined;
  readonly campaign: string | undefined;
  readonly utmSource: string | undefined;
};

/** A spam lead as its form's checks build it again, the only thing "Not spam" forwards. */
export type RebuiltLead = { readonly source: string; readonly email: string; readonly payload: LeadPayload };

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

/** The inbox's filters; every one given must match. */
export type LeadQuery = {
  /** The form's source name, exactly. */
  readonly source?: string;
  readonly state?: DeliveryState;
  /** true: only leads tried at least once since they were last made due; false: only leads never tried since. */
  readonly attempted?: boolean;
  /** true: only leads in the spam state; false: every other lead. */
  readonly spam?: boolean;
  /** Inclusive, ms. */
  readonly receivedFrom?: number;
  /** Exclusive, ms. */
  readonly receivedBefore?: number;
  /** utm_campaign, exactly. */
  readonly campaign?: string;
  /** utm_source, exactly. */
  readonly utmSource?: string;
  /** Case-insensitive part of the name, e-mail or company; a whole address uses the e-mail index. */
  readonly search?: string;
};

/** Where a page of leads ends: the next page starts after this lead (newest first). */
export type LeadCursor = { readonly receivedAt: number; readonly id: string };

export type LeadPageResult = {
  readonly leads: LeadRecord[];
  /** Undefined on the last page. */
  readonly next: LeadCursor | undefined;
};

/** A download's read of the leads (openLeadExport). Close it when done, or when the download stops early. */
export type LeadExport = {
  /** The next leads, at most `limit` of them; none once every lead has been read. */
  nextPage(limit: number): Promise<LeadRecord[]>;
  /** Ends the read and frees its connection; safe to call twice. */
  close(): Promise<void>;
};

/** A LeadExport over keyset pages (`readPage` is listLeadPage's query on the export's own connection). */
export function keysetExport(
  readPage: (after: LeadCursor | undefined, limit: number) => Promise<LeadPageResult>,
  close: () => Promise<void>,
): LeadExport {
  let after: LeadCursor | undefined;
  let done = false;
  let closed = false;
  return {
    async nextPage(limit) {
      if (done || closed) return [];
      const page = await readPage(after, limit);
      after = page.next;
      done = page.next === undefined;
      return page.leads;
    },
    async close() {
      if (closed) return;
      closed = true;
      await close();
    },
  };
}

// A search that is one whole address is answered from the e-mail index; anything else is a scan.
const WHOLE_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** How a search is answered: by the address (lower-cased) or as a part of name, e-mail or company. */
export function readSearch(search: string | undefined): { readonly email: string } | { readonly part: string } | undefined {
  const trimmed = search?.trim() ?? '';
  if (trimmed === '') return undefined;
  return WHOLE_ADDRESS.test(trimmed) ? { email: trimmed.toLowerCase() } : { part: trimmed.toLowerCase() };
}

/** A LIKE pattern matching `part` anywhere, with `%`, `_` and `\` taken literally (ESCAPE '\'). */
export function containsPattern(part: string): string {
  return `%${part.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A page size is the calling code's choice: anything but a whole number of at least 1 is its mistake. */
export function assertPageLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`A page limit must be a whole number of at least 1, got ${limit}`);
}

export type AuditEntry = { readonly at: number; readonly actor: string; readonly action: string; readonly detail: string };
export type AuditRecord = AuditEntry & { readonly id: number };
/** Where a page of the audit log ends (newest first). */
export type AuditCursor = { readonly at: number; readonly id: number };
export type AuditPageResult = { readonly entries: AuditRecord[]; readonly next: AuditCursor | undefined };

/** The console's first screen, worked out for one moment `now`; days are UTC days. */
export type LeadHealthRecord = {
  /** Per form that received leads this week: today = since UTC midnight, week = the 7 UTC days ending today; spam excluded. */
  readonly perForm: { readonly source: string; readonly today: number; readonly week: number }[];
  /** The 7 UTC days ending today, oldest first, days without leads included; spam excluded. */
  readonly perDay: { readonly day: string; readonly leads: number }[];
  /** Leads the CRM took (outcome delivered) in the 24 hours before `now`. */
  readonly deliveredLast24h: number;
  /** Leads given up on: out of attempts, or refused for good (410). */
  readonly failed: number;
  /** Leads still being retried: pending after an attempt the CRM did not take. */
  readonly retrying: number;
  /** Spam received in the HEALTH_DAYS days ending today. */
  readonly spamWeek: number;
  /** The oldest lead still waiting to be sent (pending or held). */
  readonly oldestUndelivered: { readonly id: string; readonly receivedAt: number } | undefined;
  /** When the CRM last answered 2xx (delivered or delivered-test). */
  readonly lastDeliveredAt: number | undefined;
  /** When an attempt last failed (no answer, or an answer that was not a 2xx). */
  readonly lastFailedAt: number | undefined;
  readonly pending: number;
};

export const DAY_MS = 24 * 60 * 60 * 1000;
export const HEALTH_DAYS = 7;

/** UTC midnight of the day holding `now`, and of the first of the HEALTH_DAYS days ending with it. */
export function healthDays(now: number): { readonly today: number; readonly weekStart: number; readonly end: number } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return { today, weekStart: today - (HEALTH_DAYS - 1) * DAY_MS, end: today + DAY_MS };
}

/** One row of the week's count: leads of one form on one day (0 = the first of the HEALTH_DAYS days). */
export type WeekCount = { readonly source: string; readonly dayIndex: number; readonly leads: number };

/** The per-form and per-day figures from the week's counts, every day present, forms by name. */
export function summarizeWeek(weekStart: number, counts: readonly WeekCount[]): Pick<LeadHealthRecord, 'perForm' | 'perDay'> {
  const perForm = new Map<string, { source: string; today: number; week: number }>();
  const perDay = Array.from({ length: HEALTH_DAYS }, (_, index) => ({
    day: new Date(weekStart + index * DAY_MS).toISOString().slice(0, 10),
    leads: 0,
  }));
  for (const { source, dayIndex, leads } of counts) {
    const form = perForm.get(source) ?? { source, today: 0, week: 0 };
    form.week += leads;
    if (dayIndex === HEALTH_DAYS - 1) form.today += leads;
    perForm.set(source, form);
    const day = perDay[dayIndex];
    if (day !== undefined) day.leads += leads;
  }
  return { perForm: [...perForm.values()].sort((a, b) => a.source.localeCompare(b.source)), perDay };
}

/** A maximum per 10 seconds is the calling code's choice: anything but a whole number of at least 1 is its mistake. */
export function assertPaceLimit(maxPer10s: number): void {
  if (!Number.isInteger(maxPer10s) || maxPer10s < 1) throw new Error(`A CRM pace must be a whole number of at least 1, got ${maxPer10s}`);
}

export type PurgeCutoffs = {
  /** Non-spam leads received before this (ms) are deleted; undefined keeps them. */
  readonly leadsReceivedBefore?: number;
  /** Spam received before this (ms) is deleted; undefined keeps it. */
  readonly spamReceivedBefore?: number;
};

// One purge transaction deletes at most this many leads, so the write lock is never held for long.
export const PURGE_BATCH_SIZE = 500;
// Leads still to be sent (or being sent) are never purged, however old.
export const PURGEABLE_STATES: readonly DeliveryState[] = ['delivered', 'delivered-test', 'failed'];

// Marking spam may not take back a lead the CRM already has.
export const SPAM_MARKABLE_STATES: readonly DeliveryState[] = ['held', 'pending', 'failed', 'spam'];

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

/** How a role change or a removal treats the team's admins. */
export type AccountChangeOptions = {
  /**
   * Refuse (`last-admin`) to demote or remove the only admin. The check and the write are one
   * transaction that every other such change waits for, so two admins demoting or removing each
   * other at the same moment cannot both succeed and leave the team with none.
   */
  readonly keepAnAdmin?: boolean;
};

export type SetAccountRoleResult =
  | { readonly kind: 'changed'; readonly account: AccountRecord; readonly previousRole: Role }
  | { readonly kind: 'no-account' }
  /** It is the only admin and the change would leave none (only with keepAnAdmin): nothing was changed. */
  | { readonly kind: 'last-admin' };

export type RemoveAccountResult =
  | { readonly kind: 'removed' }
  | { readonly kind: 'no-account' }
  /** It is the only admin (only with keepAnAdmin): nothing was removed. */
  | { readonly kind: 'last-admin' };

/** True when an account that had `before` and now has `after` (undefined: removed) stops being an admin. */
export function stopsBeingAdmin(before: Role, after: Role | undefined): boolean {
  return before === 'admin' && after !== 'admin';
}

/** One key a sign-in attempt is counted under, and the most attempts it may have within the window. */
export type SignInKeyLimit = {
  readonly key: string;
  readonly limit: number;
  /** This key is not limited when this account+address key signed in within `knownForMs`. */
  readonly unlessKnown?: string;
};

export type SignInAttemptRequest = {
  /** Names this attempt's rows, so they can be withdrawn or forgotten. */
  readonly id: string;
  readonly at: number;
  /** Attempts made this long before `at`, or longer, no longer count. */
  readonly windowMs: number;
  /** How long an account+address key that signed in stays known. */
  readonly knownForMs: number;
  /** Every key the attempt is recorded under if it is allowed, each with its limit. */
  readonly keys: readonly SignInKeyLimit[];
};

/** How many expired sign-in attempts, and known keys, one attempt deletes: enough to keep up, never a long transaction. */
export const SIGN_IN_PURGE_BATCH = 100;

export type SignInAttemptResult = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number };

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
  /**
   * By id: failed / held / pending (not being sent) → pending, due now, attempts reset; by state:
   * every failed lead. Never spam nor a lead the CRM already has. Returns the leads moved, each with
   * the state and attempts it had before.
   */
  retry(target: { readonly id: string } | { readonly state: 'failed' }, now: number): Promise<RetriedLead[]>;
  /** delivered / delivered-test (not being sent) → pending, due now, attempts reset: the CRM gets a second copy. False: it is in another state. */
  sendAgain(id: string, now: number): Promise<boolean>;
  /** Deletes every lead (and its delivery history) whose email matches, case-insensitively. Returns the ids. */
  eraseByEmail(email: string): Promise<string[]>;
  listLeads(options?: ListOptions): Promise<LeadRecord[]>;
  getLead(id: string): Promise<LeadRecord | undefined>;
  listAttempts(leadId: string): Promise<AttemptRecord[]>;
  countByState(): Promise<StateCounts>;
  /** How many leads received in [from, before) are spam now: the leads the Spam view lists for those days. */
  countSpam(receivedFrom: number, receivedBefore: number): Promise<number>;
  /**
   * One page of the inbox, newest first (received_at, then id, both descending), after `after`.
   * Two leads received in the same millisecond are told apart by id, so no page skips or repeats one.
   */
  listLeadPage(query: LeadQuery, after: LeadCursor | undefined, limit: number): Promise<LeadPageResult>;
  /**
   * Every lead `query` matches, newest first, read page by page from one snapshot (the leads as they
   * were when it opened: none added, erased or changed meanwhile shows or goes missing), on a
   * connection of its own: PostgreSQL's outside the pool, SQLite's a read-only one on a thread of its
   * own. So a download of any size never holds the connection, the thread or the lock a new lead needs.
   */
  openLeadExport(query: LeadQuery): Promise<LeadExport>;
  /**
   * Any state but delivered / delivered-test → spam with `reason`, out of the outbox. False: no such
   * lead, the CRM already has it, or a worker is sending it right now.
   */
  markSpam(id: string, reason: string, now: number): Promise<boolean>;
  /**
   * spam → pending, due now, attempts reset, its spam reason cleared, its source, e-mail and payload
   * replaced by `rebuilt` (what the form's checks built from it). False: no such lead or it is not spam.
   */
  markNotSpam(id: string, now: number, rebuilt: RebuiltLead): Promise<boolean>;
  /** How many leads eraseByEmail would delete for this address (compared trimmed, case-insensitively). */
  countLeadsByEmail(email: string): Promise<number>;
  /** Records who did what in the back office. */
  appendAudit(entry: AuditEntry): Promise<void>;
  /** The audit log newest first, after `before` (a `next` from the previous page). */
  listAudit(before: AuditCursor | undefined, limit: number): Promise<AuditPageResult>;
  /** The console's health figures at `now`. */
  leadHealth(now: number): Promise<LeadHealthRecord>;
  /**
   * Deletes, with their delivery history, non-spam leads received before the first cutoff and spam
   * received before the second, never a lead still pending, held or leased. Works in batches of
   * PURGE_BATCH_SIZE, each its own transaction. Returns how many of each went.
   */
  purgeExpired(cutoffs: PurgeCutoffs): Promise<{ leads: number; spam: number }>;
  /**
   * Grants up to `wanted` CRM sends (0..wanted) so that every process on this database together
   * sends at most `maxPer10s` in any 10 seconds. Each granted slot must become one send, or be
   * handed back with giveBackCrmSlots.
   */
  takeCrmSlots(now: number, wanted: number, maxPer10s: number): Promise<number>;
  /** Hands back slots takeCrmSlots granted but that were not used (fewer leads were due). */
  giveBackCrmSlots(now: number, count: number): Promise<void>;
  /** Stores a new account unless one with that address exists, whatever its case. */
  createAccount(account: NewAccount): Promise<CreateAccountResult>;
  /** Every account, by e-mail address. */
  listAccounts(): Promise<AccountRecord[]>;
  /** The account with that address (compared trimmed and lower-cased), with its password hash. */
  findAccount(email: string): Promise<StoredAccount | undefined>;
  /** Deletes the account and ends all its sessions, in one transaction. */
  removeAccount(email: string, options?: AccountChangeOptions): Promise<RemoveAccountResult>;
  /**
   * Stores the new role and, when it differs from the old one, ends all the account's sessions in the
   * same transaction: a session started under one role never comes back to life under another.
   */
  setAccountRole(email: string, role: Role, now: number, options?: AccountChangeOptions): Promise<SetAccountRoleResult>;
  /** Stores a new password hash and ends all the account's sessions, in one transaction. False: no such account. */
  setAccountPassword(email: string, passwordHash: string, now: number): Promise<boolean>;
  /**
   * Starts a session of `app` for an account whose password was just checked against `passwordHash`,
   * and records the sign-in. Undefined when the account is gone or its password changed since the
   * check (a password change ends every session, including one started with the old password meanwhile).
   */
  createSession(
    signedIn: { readonly email: string; readonly passwordHash: string },
    app: SessionApp,
    now: number,
  ): Promise<NewSession | undefined>;
  /**
   * The session of `app` with that id, or undefined when there is none (a session another app
   * started is none), it was started SESSION_LIFETIME_MS ago or more, or it has been unused for
   * SESSION_IDLE_MS (then it is ended). Records `now` as its last use at most every SESSION_TOUCH_MS.
   */
  findSession(id: string, app: SessionApp, now: number): Promise<SessionRecord | undefined>;
  /** Ends one session of `app` (signing out). False: there was none. */
  endSession(id: string, app: SessionApp): Promise<boolean>;
  /** Ends every session of the account, in every app ("sign out everywhere"). Returns how many there were. */
  endAccountSessions(email: string): Promise<number>;
  /**
   * In one transaction, so every process on this database counts together: refuses the attempt if any
   * key already has its limit of attempts within the window (answering how long until the oldest of
   * them that must expire does), else records it under every key. Also drops a bounded number of
   * attempts older than the window and known keys older than `knownForMs`.
   */
  countSignInAttempt(request: SignInAttemptRequest): Promise<SignInAttemptResult>;
  /**
   * The attempt's password was right: forgets every attempt counted under `pairKey`, un-counts this
   * attempt under its other keys, and remembers `pairKey` as known from `at`.
   */
  signInSucceeded(id: string, pairKey: string, at: number): Promise<void>;
  /** The attempt was never checked: it no longer counts under any key. */
  withdrawSignInAttempt(id: string): Promise<void>;
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

// A retry sends only leads the CRM does not have yet. Spam leaves the spam view only through "not
// spam", and a lead the CRM already took is sent again only by an explicit "send again".
export const RETRYABLE_STATES: readonly DeliveryState[] = ['failed', 'held', 'pending'];
// States whose lead the CRM already has: "send again" gives it a second copy.
export const SEND_AGAIN_STATES: readonly DeliveryState[] = ['delivered', 'delivered-test'];

/** A lead a retry moved, with the state and attempt count it had before. */
export type RetriedLead = { readonly id: string; readonly from: DeliveryState; readonly attempts: number };

// ---------------------------------------------------------------------------------------------
// Notifications

export const NOTIFICATION_CHANNELS = ['email', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** new-lead: e-mail only; the others are alerts, to every configured channel (spam-daily: the count of one day's spam). */
export const NOTIFICATION_KINDS = ['new-lead', 'lead-failed', 'lead-test', 'incident-opened', 'incident-recovered', 'spam-daily'] as const;
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
