import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type { AttemptRecord, DeliveryState, LeadPayload } from '../outbox/outbox-store.ts';

// The inbox: what the console and the CLI read and do to stored leads (pages, downloads, health,
// retries, spam marks, erasure) and the retention purge.

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

export type ListOptions = {
  readonly state?: DeliveryState;
  readonly limit?: number;
};

export type StateCounts = Readonly<Partial<Record<DeliveryState, number>>>;

// A retry sends only leads the CRM does not have yet. Spam leaves the spam view only through "not
// spam", and a lead the CRM already took is sent again only by an explicit "send again".
export const RETRYABLE_STATES: readonly DeliveryState[] = ['failed', 'held', 'pending'];
// States whose lead the CRM already has: "send again" gives it a second copy.
export const SEND_AGAIN_STATES: readonly DeliveryState[] = ['delivered', 'delivered-test'];

/** A lead a retry moved, with the state and attempt count it had before. */
export type RetriedLead = { readonly id: string; readonly from: DeliveryState; readonly attempts: number };

/**
 * The stored leads as the console, the CLI, the notifier and the retention purge read and change them.
 *
 * A mutating method given `audit` writes that entry in the same transaction as its change, so both
 * commit or neither does: when it changed something, and for eraseByEmail, retry and purgeExpired
 * whenever they ran (an erasure or a retry that found nothing is still an operator's act).
 */
export interface InboxStore extends LeadPurgeStore {
  /**
   * By id: failed / held / pending (not being sent) → pending, due now, attempts reset; by state:
   * every failed lead. Never spam nor a lead the CRM already has. Returns the leads moved, each with
   * the state and attempts it had before.
   */
  retry(
    target: { readonly id: string } | { readonly state: 'failed' },
    now: number,
    audit?: AuditEntryInput<'every-failed-retry'>,
  ): Promise<RetriedLead[]>;
  /** delivered / delivered-test (not being sent) → pending, due now, attempts reset: the CRM gets a second copy. False: it is in another state. */
  sendAgain(id: string, now: number, audit?: AuditEntryInput): Promise<boolean>;
  /** Deletes every lead (and its delivery history) whose email matches, case-insensitively, and every meeting booked with that address or linked to those leads (each kept only as a tombstone with nothing of the person, so a later delivery about it is ignored). Returns the ids. */
  eraseByEmail(email: string, audit?: AuditEntryInput<'erased-count'>): Promise<string[]>;
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
  markSpam(id: string, reason: string, now: number, audit?: AuditEntryInput): Promise<boolean>;
  /**
   * spam → pending, due now, attempts reset, its spam reason cleared, its source, e-mail and payload
   * replaced by `rebuilt` (what the form's checks built from it). False: no such lead or it is not spam.
   */
  markNotSpam(id: string, now: number, rebuilt: RebuiltLead, audit?: AuditEntryInput): Promise<boolean>;
  /** How many leads eraseByEmail would delete for this address (compared trimmed, case-insensitively). */
  countLeadsByEmail(email: string): Promise<number>;
  /** The console's health figures at `now`. */
  leadHealth(now: number): Promise<LeadHealthRecord>;
}

/** The retention purge: old leads deleted in batches (the inbox has it too). */
export interface LeadPurgeStore {
  /**
   * Deletes, with their delivery history, non-spam leads received before the first cutoff and spam
   * received before the second, never a lead still pending, held or leased. Works in batches of
   * PURGE_BATCH_SIZE, each its own transaction; then, every run, the meetings whose lead is gone,
   * and the meetings that matched no lead received before the first cutoff.
   * Returns how many of each went.
   */
  purgeExpired(cutoffs: PurgeCutoffs, audit?: AuditEntryInput<'purge-counts'>): Promise<{ leads: number; spam: number }>;
}
