import { randomUUID } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { normalizeEmail } from '../accounts/email.ts';
import type { Role } from '../accounts/roles.ts';
import { assertSessionApp } from '../accounts/session-apps.ts';
import { hashSessionId, judgeSession, newSessionId, SESSION_IDLE_MS } from '../accounts/sessions.ts';
import type { SessionApp } from '../accounts/session-apps.ts';
import { auditValues, INSERT_AUDIT_SQL, type AuditEntryInput } from '../../back-office/database/audit-entry.ts';
import { giveBackSlots, parsePaceLog, takeSlots } from './crm-pace/pace-log.ts';
import { buildLeadPageQuery } from './lead-page-query.ts';
import type {
  AccountChangeOptions,
  CreateAccountResult,
  NewAccount,
  RemoveAccountResult,
  SetAccountRoleResult,
} from '../../back-office/accounts/account-store.ts';
import type { AuditCursor, AuditEntry, AuditPageResult } from './audit/audit-store.ts';
import type { ClaimedDelivery, ClaimOptions, DeliveryResult, DeliveryState, InsertLeadResult, NewLead } from './outbox/outbox-store.ts';
import type {
  ClaimedNotification,
  DeliveryHealth,
  NewIncident,
  NewNotification,
  NotificationResult,
  NotifyEvents,
  ReadNotifyEventsOptions,
} from './notifications/notification-store.ts';
import type {
  LeadCursor,
  LeadHealthRecord,
  LeadPageResult,
  LeadQuery,
  LeadRecord,
  ListOptions,
  RebuiltLead,
  PurgeCutoffs,
  RetriedLead,
  StateCounts,
  LeadExport,
} from './inbox/inbox-store.ts';
import type { Database } from './database.ts';
import type { NewSession, SessionRecord } from '../../back-office/sessions/session-store.ts';
import type { SignInAttemptRequest, SignInAttemptResult } from '../../back-office/sign-in/sign-in-limit-store.ts';
import { combineDeliveryHealth, FAILURE_OUTCOMES, SUCCESS_OUTCOMES } from './notifications/notification-store.ts';
import {
  keysetExport,
  DAY_MS,
  healthDays,
  PURGE_BATCH_SIZE,
  PURGEABLE_STATES,
  RETRYABLE_STATES,
  SEND_AGAIN_STATES,
  SPAM_MARKABLE_STATES,
  summarizeWeek,
} from './inbox/inbox-store.ts';
import { assertKnownRole, stopsBeingAdmin } from '../../back-office/accounts/account-store.ts';
import { assertPageLimit } from '../../back-office/database/page-limit.ts';
import { assertPaceLimit } from './crm-pace/crm-pace-store.ts';
import { isStoreUnavailable } from '../../back-office/database/store-unavailable.ts';
import { judgeRepeatedKey, leadColumnsOf, truncateResponseBody } from './outbox/outbox-store.ts';
import { SIGN_IN_PURGE_BATCH } from '../../back-office/sign-in/sign-in-limit-store.ts';
import {
  ACCOUNT_COLUMNS,
  LEAD_COLUMNS,
  toAccountRecord,
  toAttemptRecord,
  toAuditPage,
  toLeadPage,
  toLeadRecord,
  toSessionRecord,
  toStoredAccount,
} from './row-mapping.ts';
import { NOTIFICATION_COLUMNS, toClaimedNotification, toIncidentRecord, toNotificationRecord, toNotifyLeadEvent } from './row-mapping.ts';
import type { Migration } from '../../back-office/database/migrations.ts';
import { cachedStatements, inSqliteTransaction, openSqliteDatabase } from '../../back-office/database/sqlite-database.ts';
import { exportOf, openSqliteLeadExportSync } from './sqlite-lead-export.ts';

// node:sqlite store. Durability: WAL with synchronous=FULL, so a COMMIT returns only after the WAL
// is fsynced; insertLead commits before the route answers 201. Several processes may share the file
// (the server and the `npm run leads` CLI, or several servers): BEGIN IMMEDIATE takes SQLite's one
// write lock, which is what makes claimDue exclusive across processes.

// Another process holding the write lock (a CLI command, a second server) is waited for this long.
const BUSY_TIMEOUT_MS = 5_000;

// The notifier's tables: its outbox (one row per event and channel, the key unique so two processes
// never send one event twice), its watermark, the open incident (open_slot is 1 only while open, and
// unique, so at most one is open) and each form's new-lead e-mail switch. The two indexes let it read
// the CRM's delivery record and the leads that settled without scanning either table.
const SQLITE_NOTIFY_MIGRATION: Migration = {
  version: 5,
  name: 'notifications, their watermark, delivery incidents and per-form switches',
  sql: `
    CREATE TABLE notifications (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      event_key TEXT NOT NULL UNIQUE,
      channel TEXT NOT NULL,
      kind TEXT NOT NULL,
      lead_id TEXT,
      event_at INTEGER NOT NULL,
      detail TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER,
      lease_owner TEXT,
      lease_until INTEGER,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX notifications_due ON notifications (state, next_attempt_at);
    CREATE INDEX notifications_lead ON notifications (lead_id, kind);
    CREATE TABLE notify_state (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    CREATE TABLE notify_incidents (
      since INTEGER PRIMARY KEY,
      last_error TEXT,
      opened_at INTEGER NOT NULL,
      closed_at INTEGER,
      open_slot INTEGER UNIQUE
    );
    CREATE TABLE notify_forms (form TEXT PRIMARY KEY, new_lead_email INTEGER NOT NULL, updated_at INTEGER NOT NULL);
    CREATE INDEX delivery_attempts_outcome_time ON delivery_attempts (outcome, attempted_at);
    CREATE INDEX deliveries_state_updated ON deliveries (state, updated_at);
  `,
};

// Each session names the app that started it ('console' or 'studio'), which alone accepts it.
// Sessions started before there was a column to say so are ended: their people sign in again.
const SQLITE_SESSION_APP_MIGRATION: Migration = {
  version: 6,
  name: 'each session belongs to the app that started it',
  sql: `
    DELETE FROM account_sessions;
    ALTER TABLE account_sessions ADD COLUMN app TEXT NOT NULL CHECK (app IN ('console', 'studio'));
  `,
};

// Sign-in attempts, one row per key an attempt counts under (its id names the attempt's rows), and
// the account+address keys that signed in, with when: the limits are kept here so the console, the
// studio and every server process on this database count together.
const SQLITE_SIGN_IN_LIMITS_MIGRATION: Migration = {
  version: 7,
  name: 'sign-in attempts and known addresses, shared by every app and process',
  sql: `
    CREATE TABLE sign_in_attempts (
      key TEXT NOT NULL,
      at INTEGER NOT NULL,
      attempt_id TEXT NOT NULL
    );
    CREATE INDEX sign_in_attempts_key_at ON sign_in_attempts (key, at);
    CREATE INDEX sign_in_attempts_attempt ON sign_in_attempts (attempt_id);
    CREATE INDEX sign_in_attempts_at ON sign_in_attempts (at);
    CREATE TABLE sign_in_known (
      pair_key TEXT PRIMARY KEY,
      known_at INTEGER NOT NULL
    );
    CREATE INDEX sign_in_known_at ON sign_in_known (known_at);
  `,
};

// The inbox's first screen lists every lead but spam, newest first. Without an index of only those,
// each page walks all leads and skips spam one by one: after a flood of spam, every lead of it.
const SQLITE_NOT_SPAM_MIGRATION: Migration = {
  version: 8,
  name: 'an index of the leads that are not spam, newest first',
  sql: `CREATE INDEX deliveries_not_spam_newest ON deliveries (received_at, lead_id) WHERE state <> 'spam';`,
};

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'leads, deliveries and delivery attempts',
    sql: `
      CREATE TABLE leads (
        id TEXT PRIMARY KEY,
        received_at INTEGER NOT NULL,
        source TEXT NOT NULL,
        email TEXT NOT NULL,
        payload TEXT NOT NULL,
        spam_reason TEXT,
        idempotency_key_hash TEXT UNIQUE
      );
      CREATE INDEX leads_email ON leads (email);
      CREATE INDEX leads_received_at ON leads (received_at);
      CREATE TABLE deliveries (
        lead_id TEXT PRIMARY KEY REFERENCES leads (id) ON DELETE CASCADE,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER,
        lease_owner TEXT,
        lease_until INTEGER,
        last_status INTEGER,
        last_error TEXT,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
      CREATE TABLE delivery_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        attempted_at INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        status INTEGER,
        response_body TEXT,
        error TEXT,
        outcome TEXT NOT NULL
      );
      CREATE INDEX delivery_attempts_lead ON delivery_attempts (lead_id);
    `,
  },
  {
    version: 2,
    name: 'the body hash that came with each Idempotency-Key',
    sql: `ALTER TABLE leads ADD COLUMN idempotency_body_hash TEXT;`,
  },
  {
    version: 3,
    name: 'back-office accounts and their sessions',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        password_changed_at INTEGER NOT NULL,
        last_sign_in_at INTEGER
      );
      CREATE TABLE account_sessions (
        id_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL
      );
      CREATE INDEX account_sessions_account ON account_sessions (account_id);
      CREATE INDEX account_sessions_last_seen ON account_sessions (last_seen_at);
    `,
  },
  {
    version: 4,
    name: 'the console: inbox columns and indexes, audit log, CRM pace',
    sql: `
      ALTER TABLE leads ADD COLUMN name TEXT;
      ALTER TABLE leads ADD COLUMN company TEXT;
      ALTER TABLE leads ADD COLUMN utm_campaign TEXT;
      ALTER TABLE leads ADD COLUMN utm_source TEXT;
      UPDATE leads SET
        name = CASE WHEN json_type(payload, '$.name') = 'text' THEN json_extract(payload, '$.name') END,
        company = CASE WHEN json_type(payload, '$.company') = 'text' THEN json_extract(payload, '$.company') END,
        utm_campaign = CASE WHEN json_type(payload, '$.utm_campaign') = 'text' THEN json_extract(payload, '$.utm_campaign') END,
        utm_source = CASE WHEN json_type(payload, '$.utm_source') = 'text' THEN json_extract(payload, '$.utm_source') END
      WHERE json_valid(payload);
      DROP INDEX leads_email;
      DROP INDEX leads_received_at;
      CREATE INDEX leads_newest ON leads (received_at, id);
      CREATE INDEX leads_email_newest ON leads (email, received_at, id);
      CREATE INDEX leads_source_newest ON leads (source, received_at, id);
      CREATE INDEX leads_campaign_newest ON leads (utm_campaign, received_at, id);
      CREATE INDEX leads_utm_source_newest ON leads (utm_source, received_at, id);
      -- The lead's received_at, which never changes, beside its state: one index then serves the
      -- inbox filtered by state, the oldest lead waiting and the retention purge.
      ALTER TABLE deliveries ADD COLUMN received_at INTEGER NOT NULL DEFAULT 0;
      UPDATE deliveries SET received_at = (SELECT received_at FROM leads WHERE leads.id = deliveries.lead_id);
      CREATE INDEX deliveries_state_newest ON deliveries (state, received_at, lead_id);
      CREATE INDEX delivery_attempts_outcome ON delivery_attempts (outcome, attempted_at);
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE INDEX audit_log_newest ON audit_log (at, id);
      CREATE TABLE crm_pace (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        grants TEXT NOT NULL
      );
      INSERT INTO crm_pace (id, grants) VALUES (1, '[]');
    `,
  },
  SQLITE_NOTIFY_MIGRATION,
  SQLITE_SESSION_APP_MIGRATION,
  SQLITE_SIGN_IN_LIMITS_MIGRATION,
  SQLITE_NOT_SPAM_MIGRATION,
];

type Row = Record<string, SQLInputValue>;

/**
 * 'full': COMMIT returns once the WAL is fsynced (leads, retries, erasures). 'bookkeeping': the
 * outbox's claims and attempt records commit without their own fsync (synchronous=NORMAL). They
 * still survive a process crash (the WAL is written before COMMIT returns) and are fsynced with the
 * next full commit; only a power cut in between can lose them, and then a lead is sent once more,
 * which the lease design already allows. This takes two of every three fsyncs off the write path.
 */
type Durability = 'full' | 'bookkeeping';

const SESSION_COLUMNS = `
  a.id, a.email, a.role, a.created_at, a.updated_at, a.password_changed_at, a.last_sign_in_at,
  s.created_at AS session_created_at, s.last_seen_at AS session_last_seen_at`;

export function openSqliteStore(file: string, migrations: readonly Migration[] = SQLITE_MIGRATIONS): Database {
  const db = openSqliteDatabase(file, {
    busyTimeoutMs: BUSY_TIMEOUT_MS,
    pragmas: ['journal_mode = WAL', 'synchronous = FULL', 'foreign_keys = ON'],
    migrations,
    table: 'schema_migrations',
    database: 'lead',
  });
  const { all, get, run } = cachedStatements(db);
  let closed = false;

  function transaction<T>(work: () => T, durability: Durability = 'full'): T {
    if (durability === 'bookkeeping') db.exec('PRAGMA synchronous = NORMAL');
    try {
      return inSqliteTransaction(db, work);
    } finally {
      if (durability === 'bookkeeping') db.exec('PRAGMA synchronous = FULL');
    }
  }

  // Group commit: inserts requested in the same event-loop turn share one transaction, so one WAL
  // fsync acknowledges them all. Each caller's promise settles only after that COMMIT has returned.
  // A savepoint per lead keeps one bad insert from taking the others with it.
  let insertQueue: Array<{ lead: NewLead; resolve: (result: InsertLeadResult) => void; reject: (error: unknown) => void }> = [];

  function queueInsert(lead: NewLead): Promise<InsertLeadResult> {
    return new Promise((resolve, reject) => {
      if (insertQueue.length === 0) setImmediate(commitQueuedInserts);
      insertQueue.push({ lead, resolve, reject });
    });
  }

  function commitQueuedInserts(): void {
    const batch = insertQueue;
    insertQueue = [];
    const outcomes: Array<{ ok: true; result: InsertLeadResult } | { ok: false; error: unknown }> = [];
    try {
      transaction(() => {
        for (const { lead } of batch) {
          db.exec('SAVEPOINT lead');
          try {
            outcomes.push({ ok: true, result: insertOneLead(lead) });
            db.exec('RELEASE lead');
          } catch (error) {
            db.exec('ROLLBACK TO lead');
            db.exec('RELEASE lead');
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    batch.forEach(({ resolve, reject }, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) resolve(outcome.result);
      else reject(outcome?.error);
    });
  }

  function insertOneLead(lead: NewLead): InsertLeadResult {
    if (lead.idempotency !== undefined) {
      const existing = get('SELECT id, idempotency_body_hash FROM leads WHERE idempotency_key_hash = ?', lead.idempotency.keyHash);
      if (existing !== undefined) {
        const storedBodyHash = existing.idempotency_body_hash;
        return judgeRepeatedKey(String(existing.id), typeof storedBodyHash === 'string' ? storedBodyHash : null, lead.idempotency.bodyHash);
      }
    }
    const columns = leadColumnsOf(lead.payload);
    run(
      `INSERT INTO leads (id, received_at, source, email, payload, spam_reason, idempotency_key_hash, idempotency_body_hash,
         name, company, utm_campaign, utm_source)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      lead.id,
      lead.receivedAt,
      lead.source,
      lead.email.toLowerCase(),
      JSON.stringify(lead.payload),
      lead.spamReason ?? null,
      lead.idempotency?.keyHash ?? null,
      lead.idempotency?.bodyHash ?? null,
      columns.name,
      columns.company,
      columns.utmCampaign,
      columns.utmSource,
    );
    run(
      `INSERT INTO deliveries (lead_id, state, attempts, next_attempt_at, updated_at, received_at) VALUES (?, ?, 0, ?, ?, ?)`,
      lead.id,
      lead.initialState,
      lead.initialState === 'pending' ? lead.receivedAt : null,
      lead.receivedAt,
      lead.receivedAt,
    );
    return { kind: 'created', id: lead.id };
  }

  function claimDue({ now, limit, owner, leaseMs }: ClaimOptions): ClaimedDelivery[] {
    return transaction(() => {
      const rows = all(
        `SELECT d.lead_id, d.attempts, l.payload FROM deliveries d JOIN leads l ON l.id = d.lead_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)
         ORDER BY d.next_attempt_at LIMIT ?`,
        now,
        now,
        limit,
      );
      for (const row of rows) {
        run('UPDATE deliveries SET lease_owner = ?, lease_until = ? WHERE lead_id = ?', owner, now + leaseMs, row.lead_id as string);
      }
      return rows.map((row) => ({
        leadId: String(row.lead_id),
        attempts: Number(row.attempts),
        body: String(row.payload),
      }));
    }, 'bookkeeping');
  }

  function recordResults(results: readonly DeliveryResult[]): void {
    if (results.length === 0) return;
    transaction(() => {
      for (const result of results) {
        const { attempt } = result;
        run(
          `INSERT INTO delivery_attempts (lead_id, attempted_at, duration_ms, status, response_body, error, outcome)
           SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM leads WHERE id = ?)`,
          result.leadId,
          attempt.attemptedAt,
          attempt.durationMs,
          attempt.status ?? null,
          truncateResponseBody(attempt.responseBody) ?? null,
          attempt.error ?? null,
          result.nextState,
          result.leadId,
        );
        run(
          `UPDATE deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL,
             lease_until = NULL, last_status = ?, last_error = ?, updated_at = ?
           WHERE lead_id = ? AND lease_owner = ?`,
          result.nextState,
          result.nextAttemptAt ?? null,
          attempt.status ?? null,
          attempt.error ?? null,
          attempt.attemptedAt + attempt.durationMs,
          result.leadId,
          result.owner,
        );
      }
    }, 'bookkeeping');
  }

  // The audit entry of an operation, written inside the operation's transaction.
  function writeAudit(audit: AuditEntryInput | undefined, now: number): void {
    if (audit !== undefined) run(INSERT_AUDIT_SQL.sqlite, ...auditValues(audit, now));
  }

  function makeDue(id: string, now: number): void {
    run(
      `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, lease_owner = NULL,
         lease_until = NULL, updated_at = ? WHERE lead_id = ?`,
      now,
      now,
      id,
    );
  }

  function retry(target: { readonly id: string } | { readonly state: 'failed' }, now: number, audit?: AuditEntryInput): RetriedLead[] {
    return transaction(() => {
      const rows =
        'id' in target
          ? all(
              `SELECT lead_id, state, attempts FROM deliveries WHERE lead_id = ? AND state IN (${placeholders(RETRYABLE_STATES.length)})
               AND (lease_until IS NULL OR lease_until <= ?)`,
              target.id,
              ...RETRYABLE_STATES,
              now,
            )
          : all(`SELECT lead_id, state, attempts FROM deliveries WHERE state = 'failed'`);
      for (const row of rows) makeDue(String(row.lead_id), now);
      writeAudit(audit, now);
      return rows.map((row) => ({ id: String(row.lead_id), from: row.state as DeliveryState, attempts: Number(row.attempts) }));
    });
  }

  function sendAgain(id: string, now: number, audit?: AuditEntryInput): boolean {
    return transaction(() => {
      const row = get(
        `SELECT lead_id FROM deliveries WHERE lead_id = ? AND state IN (${placeholders(SEND_AGAIN_STATES.length)})
         AND (lease_until IS NULL OR lease_until <= ?)`,
        id,
        ...SEND_AGAIN_STATES,
        now,
      );
      if (row !== undefined) {
        makeDue(id, now);
        writeAudit(audit, now);
      }
      return row !== undefined;
    });
  }

  function eraseByEmail(email: string, audit?: AuditEntryInput): string[] {
    return transaction(() => {
      const ids = all('SELECT id FROM leads WHERE email = ?', email.trim().toLowerCase()).map((row) => String(row.id));
      for (const id of ids) {
        run('DELETE FROM delivery_attempts WHERE lead_id = ?', id);
        run('DELETE FROM deliveries WHERE lead_id = ?', id);
        run('DELETE FROM leads WHERE id = ?', id);
      }
      writeAudit(audit, Date.now());
      return ids;
    });
  }

  function listLeads({ state, limit }: ListOptions = {}): LeadRecord[] {
    const where = state === undefined ? '' : 'WHERE d.state = ?';
    const params: SQLInputValue[] = state === undefined ? [] : [state];
    const rows = all(
      `SELECT ${LEAD_COLUMNS} FROM leads l JOIN deliveries d ON d.lead_id = l.id ${where}
       ORDER BY l.received_at, l.id LIMIT ?`,
      ...params,
      limit ?? -1,
    );
    return rows.map(toLeadRecord);
  }

  function listLeadPage(query: LeadQuery, after: LeadCursor | undefined, limit: number): LeadPageResult {
    assertPageLimit(limit);
    const { sql, params } = buildLeadPageQuery('sqlite', query, after, limit);
    return toLeadPage(all(sql, ...params), limit);
  }

  function markSpam(id: string, reason: string, now: number, audit?: AuditEntryInput): boolean {
    return transaction(() => {
      const changed = run(
        `UPDATE deliveries SET state = 'spam', next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL, updated_at = ?
         WHERE lead_id = ? AND state IN (${placeholders(SPAM_MARKABLE_STATES.length)}) AND (lease_until IS NULL OR lease_until <= ?)`,
        now,
        id,
        ...SPAM_MARKABLE_STATES,
        now,
      );
      if (changed > 0) {
        run('UPDATE leads SET spam_reason = ? WHERE id = ?', reason, id);
        writeAudit(audit, now);
      }
      return changed > 0;
    });
  }

  function markNotSpam(id: string, now: number, rebuilt: RebuiltLead, audit?: AuditEntryInput): boolean {
    return transaction(() => {
      const changed = run(
        `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,
           updated_at = ? WHERE lead_id = ? AND state = 'spam'`,
        now,
        now,
        id,
      );
      if (changed > 0) {
        const columns = leadColumnsOf(rebuilt.payload);
        run(
          `UPDATE leads SET spam_reason = NULL, source = ?, email = ?, payload = ?, name = ?, company = ?, utm_campaign = ?, utm_source = ?
           WHERE id = ?`,
          rebuilt.source,
          rebuilt.email.toLowerCase(),
          JSON.stringify(rebuilt.payload),
          columns.name,
          columns.company,
          columns.utmCampaign,
          columns.utmSource,
          id,
        );
        writeAudit(audit, now);
      }
      return changed > 0;
    });
  }

  function listAudit(before: AuditCursor | undefined, limit: number): AuditPageResult {
    assertPageLimit(limit);
    const rows =
      before === undefined
        ? all('SELECT id, at, actor, action, detail FROM audit_log ORDER BY at DESC, id DESC LIMIT ?', limit + 1)
        : all(
            'SELECT id, at, actor, action, detail FROM audit_log WHERE (at, id) < (?, ?) ORDER BY at DESC, id DESC LIMIT ?',
            before.at,
            before.id,
            limit + 1,
          );
    return toAuditPage(rows, limit);
  }

  function leadHealth(now: number): LeadHealthRecord {
    const { weekStart, end } = healthDays(now);
    const week = all(
      `SELECT l.source, CAST((l.received_at - ?) / ? AS INTEGER) AS day_index, COUNT(*) AS leads
       FROM leads l CROSS JOIN deliveries d WHERE d.lead_id = l.id AND l.received_at >= ? AND l.received_at < ? AND d.state <> 'spam'
       GROUP BY l.source, day_index`,
      weekStart,
      DAY_MS,
      weekStart,
      end,
    ).map((row) => ({ source: String(row.source), dayIndex: Number(row.day_index), leads: Number(row.leads) }));
    const count = (sql: string, ...params: SQLInputValue[]): number => Number(get(sql, ...params)?.count ?? 0);
    const oldest = get(
      `SELECT lead_id, received_at FROM deliveries WHERE state IN ('pending', 'held') ORDER BY received_at, lead_id LIMIT 1`,
    );
    const lastDelivered = get(
      `SELECT MAX(latest) AS latest FROM (
         SELECT MAX(attempted_at) AS latest FROM delivery_attempts WHERE outcome = 'delivered'
         UNION ALL SELECT MAX(attempted_at) AS latest FROM delivery_attempts WHERE outcome = 'delivered-test')`,
    )?.latest;
    const lastFailed = get(
      `SELECT MAX(latest) AS latest FROM (
         SELECT MAX(attempted_at) AS latest FROM delivery_attempts WHERE outcome = 'pending'
         UNION ALL SELECT MAX(attempted_at) AS latest FROM delivery_attempts WHERE outcome = 'failed')`,
    )?.latest;
    return {
      ...summarizeWeek(weekStart, week),
      deliveredLast24h: count(
        `SELECT COUNT(*) AS count FROM delivery_attempts WHERE outcome = 'delivered' AND attempted_at > ? AND attempted_at <= ?`,
        now - DAY_MS,
        now,
      ),
      failed: count(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'failed'`),
      retrying: count(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'pending' AND attempts > 0`),
      spamWeek: count(
        `SELECT COUNT(*) AS count FROM deliveries WHERE state = 'spam' AND received_at >= ? AND received_at < ?`,
        weekStart,
        end,
      ),
      oldestUndelivered: oldest === undefined ? undefined : { id: String(oldest.lead_id), receivedAt: Number(oldest.received_at) },
      lastDeliveredAt: lastDelivered === null || lastDelivered === undefined ? undefined : Number(lastDelivered),
      lastFailedAt: lastFailed === null || lastFailed === undefined ? undefined : Number(lastFailed),
      pending: count(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'pending'`),
    };
  }

  // Each batch is its own transaction, and the thread turns to other calls between batches, so a
  // large first purge never holds the write lock (or this store) for long.
  // The audit entry goes with the purge's last transaction: the last batch of the last cutoff given.
  async function purgeExpired(
    { leadsReceivedBefore, spamReceivedBefore }: PurgeCutoffs,
    audit?: AuditEntryInput,
  ): Promise<{ leads: number; spam: number }> {
    const purge = async (states: readonly DeliveryState[], before: number | undefined, last?: AuditEntryInput): Promise<number> => {
      if (before === undefined) return 0;
      let total = 0;
      for (;;) {
        if (closed) throw new Error('The lead store is closed');
        const deleted = transaction(() => {
          // Deliveries and attempts go with their lead (ON DELETE CASCADE; foreign keys are on).
          const count = run(
            `DELETE FROM leads WHERE id IN (
               SELECT lead_id FROM deliveries WHERE state IN (${placeholders(states.length)}) AND received_at < ? AND lease_until IS NULL
               LIMIT ?)`,
            ...states,
            before,
            PURGE_BATCH_SIZE,
          );
          if (count < PURGE_BATCH_SIZE) writeAudit(last, Date.now());
          return count;
        });
        total += deleted;
        if (deleted < PURGE_BATCH_SIZE) return total;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const leads = await purge(PURGEABLE_STATES, leadsReceivedBefore, spamReceivedBefore === undefined ? audit : undefined);
    const spam = await purge(['spam'], spamReceivedBefore, audit);
    if (leadsReceivedBefore === undefined && spamReceivedBefore === undefined && audit !== undefined) {
      transaction(() => writeAudit(audit, Date.now()));
    }
    return { leads, spam };
  }

  function readPace(): ReturnType<typeof parsePaceLog> {
    return parsePaceLog(get('SELECT grants FROM crm_pace WHERE id = 1')?.grants as string | undefined);
  }

  function takeCrmSlots(now: number, wanted: number, maxPer10s: number): number {
    assertPaceLimit(maxPer10s);
    if (wanted < 1) return 0;
    // Inside BEGIN IMMEDIATE: no other process reads the window between this read and its write.
    return transaction(() => {
      const { granted, log } = takeSlots(readPace(), now, wanted, maxPer10s);
      if (granted > 0) run('UPDATE crm_pace SET grants = ? WHERE id = 1', JSON.stringify(log));
      return granted;
    }, 'bookkeeping');
  }

  function giveBackCrmSlots(now: number, count: number): void {
    if (count < 1) return;
    transaction(() => {
      run('UPDATE crm_pace SET grants = ? WHERE id = 1', JSON.stringify(giveBackSlots(readPace(), now, count)));
    }, 'bookkeeping');
  }

  function countSignInAttempt({ id, at, windowMs, knownForMs, keys }: SignInAttemptRequest): SignInAttemptResult {
    // Inside BEGIN IMMEDIATE: no other connection counts between this read and its insert.
    return transaction(() => {
      run(
        'DELETE FROM sign_in_attempts WHERE rowid IN (SELECT rowid FROM sign_in_attempts WHERE at <= ? LIMIT ?)',
        at - windowMs,
        SIGN_IN_PURGE_BATCH,
      );
      run(
        'DELETE FROM sign_in_known WHERE pair_key IN (SELECT pair_key FROM sign_in_known WHERE known_at <= ? LIMIT ?)',
        at - knownForMs,
        SIGN_IN_PURGE_BATCH,
      );
      let retryAfterMs = 0;
      for (const { key, limit, unlessKnown } of keys) {
        if (
          unlessKnown !== undefined &&
          get('SELECT 1 AS known FROM sign_in_known WHERE pair_key = ? AND known_at > ?', unlessKnown, at - knownForMs)
        ) {
          continue;
        }
        // The limit-th newest attempt still counted: while it counts, the key is at its limit.
        const oldest = get(
          'SELECT at FROM sign_in_attempts WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
          key,
          at - windowMs,
          limit - 1,
        );
        if (oldest !== undefined) retryAfterMs = Math.max(retryAfterMs, Number(oldest.at) + windowMs - at);
      }
      if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
      for (const { key } of keys) run('INSERT INTO sign_in_attempts (key, at, attempt_id) VALUES (?, ?, ?)', key, at, id);
      return { allowed: true };
    }, 'bookkeeping');
  }

  function signInSucceeded(id: string, pairKey: string, at: number): void {
    transaction(() => {
      run('DELETE FROM sign_in_attempts WHERE key = ? OR attempt_id = ?', pairKey, id);
      run(
        'INSERT INTO sign_in_known (pair_key, known_at) VALUES (?, ?) ON CONFLICT (pair_key) DO UPDATE SET known_at = excluded.known_at',
        pairKey,
        at,
      );
    }, 'bookkeeping');
  }

  function createAccount({ email, role, passwordHash, now }: NewAccount, audit?: AuditEntryInput): CreateAccountResult {
    assertKnownRole(role);
    return transaction(() => {
      const id = randomUUID();
      const inserted = run(
        `INSERT INTO accounts (id, email, role, password_hash, created_at, updated_at, password_changed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING`,
        id,
        normalizeEmail(email),
        role,
        passwordHash,
        now,
        now,
        now,
      );
      if (inserted === 0) return { kind: 'exists' };
      writeAudit(audit, now);
      return { kind: 'created', account: toAccountRecord(get(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`, id)!) };
    });
  }

  function accountId(email: string): string | undefined {
    const row = get('SELECT id FROM accounts WHERE email = ?', normalizeEmail(email));
    return row === undefined ? undefined : String(row.id);
  }

  /**
   * The account a role change or removal is about, or why it may not go ahead. Called inside
   * BEGIN IMMEDIATE: the write lock is held from this read to the change's COMMIT, so no other
   * connection or process can demote or remove an admin in between.
   */
  function accountToChange(
    email: string,
    after: Role | undefined,
    { keepAnAdmin = false }: AccountChangeOptions,
  ): { kind: 'no-account' } | { kind: 'last-admin' } | { kind: 'found'; id: string; role: Role } {
    const row = get('SELECT id, role FROM accounts WHERE email = ?', normalizeEmail(email));
    if (row === undefined) return { kind: 'no-account' };
    const account = { id: String(row.id), role: row.role as Role };
    if (keepAnAdmin && stopsBeingAdmin(account.role, after)) {
      const another = get(`SELECT 1 AS found FROM accounts WHERE role = 'admin' AND id <> ? LIMIT 1`, account.id);
      if (another === undefined) return { kind: 'last-admin' };
    }
    return { kind: 'found', ...account };
  }

  function removeAccount(email: string, options: AccountChangeOptions = {}, audit?: AuditEntryInput): RemoveAccountResult {
    return transaction(() => {
      const account = accountToChange(email, undefined, options);
      if (account.kind !== 'found') return account;
      run('DELETE FROM account_sessions WHERE account_id = ?', account.id);
      run('DELETE FROM accounts WHERE id = ?', account.id);
      writeAudit(audit, Date.now());
      return { kind: 'removed' };
    });
  }

  function setAccountRole(
    email: string,
    role: Role,
    now: number,
    options: AccountChangeOptions = {},
    audit?: AuditEntryInput,
  ): SetAccountRoleResult {
    assertKnownRole(role);
    return transaction(() => {
      const account = accountToChange(email, role, options);
      if (account.kind !== 'found') return account;
      const row = get(`UPDATE accounts SET role = ?, updated_at = ? WHERE id = ? RETURNING ${ACCOUNT_COLUMNS}`, role, now, account.id)!;
      if (role !== account.role) run('DELETE FROM account_sessions WHERE account_id = ?', account.id);
      writeAudit(audit, now);
      return { kind: 'changed', account: toAccountRecord(row), previousRole: account.role };
    });
  }

  function setAccountPassword(email: string, passwordHash: string, now: number, audit?: AuditEntryInput): boolean {
    return transaction(() => {
      const id = accountId(email);
      if (id === undefined) return false;
      run('UPDATE accounts SET password_hash = ?, password_changed_at = ?, updated_at = ? WHERE id = ?', passwordHash, now, now, id);
      run('DELETE FROM account_sessions WHERE account_id = ?', id);
      writeAudit(audit, now);
      return true;
    });
  }

  function createSession(
    signedIn: { readonly email: string; readonly passwordHash: string },
    app: SessionApp,
    now: number,
  ): NewSession | undefined {
    assertSessionApp(app);
    return transaction(() => {
      // Sessions nobody looked up again would otherwise stay for ever; each sign-in clears the lapsed ones.
      run('DELETE FROM account_sessions WHERE last_seen_at <= ?', now - SESSION_IDLE_MS);
      const row = get(
        `UPDATE accounts SET last_sign_in_at = ? WHERE email = ? AND password_hash = ? RETURNING ${ACCOUNT_COLUMNS}`,
        now,
        normalizeEmail(signedIn.email),
        signedIn.passwordHash,
      );
      if (row === undefined) return undefined;
      const id = newSessionId();
      run(
        'INSERT INTO account_sessions (id_hash, account_id, app, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
        hashSessionId(id),
        String(row.id),
        app,
        now,
        now,
      );
      return { id, account: toAccountRecord(row), createdAt: now, lastSeenAt: now };
    });
  }

  function findSession(id: string, app: SessionApp, now: number): SessionRecord | undefined {
    assertSessionApp(app);
    const idHash = hashSessionId(id);
    const row = get(
      `SELECT ${SESSION_COLUMNS} FROM account_sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = ? AND s.app = ?`,
      idHash,
      app,
    );
    if (row === undefined) return undefined;
    const session = toSessionRecord(row);
    switch (judgeSession(session.createdAt, session.lastSeenAt, now)) {
      case 'fresh':
        return session;
      case 'touch':
        bestEffort(() => run('UPDATE account_sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at < ?', now, idHash, now));
        return { ...session, lastSeenAt: now };
      case 'over':
        bestEffort(() => run('DELETE FROM account_sessions WHERE id_hash = ?', idHash));
        return undefined;
    }
  }

  // A lookup's own writes (the last-seen time, clearing a lapsed session) do not change its answer,
  // so a write lock held elsewhere skips them (the next lookup tries again) instead of failing the
  // request. They commit as bookkeeping: a power cut losing one only ends a session a minute early.
  function bestEffort(write: () => void): void {
    try {
      transaction(write, 'bookkeeping');
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Notifications

  const WATERMARK = 'watermark';

  function insertNotifications(notifications: readonly NewNotification[]): number {
    let stored = 0;
    // In key order, so two processes storing the same events lock their rows in the same order (no deadlock).
    for (const notification of [...notifications].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
      stored += run(
        `INSERT INTO notifications (event_key, channel, kind, lead_id, event_at, detail, state, attempts, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT (event_key) DO NOTHING`,
        notification.key,
        notification.channel,
        notification.kind,
        notification.leadId ?? null,
        notification.eventAt,
        JSON.stringify(notification.detail),
        notification.createdAt,
        notification.createdAt,
        notification.createdAt,
      );
    }
    return stored;
  }

  function enqueueNotifications(notifications: readonly NewNotification[], watermark?: number): number {
    return transaction(() => {
      const stored = insertNotifications(notifications);
      if (watermark !== undefined) {
        run(
          `INSERT INTO notify_state (name, value) VALUES (?, ?)
           ON CONFLICT (name) DO UPDATE SET value = MAX(value, excluded.value)`,
          WATERMARK,
          watermark,
        );
      }
      return stored;
    }, 'bookkeeping');
  }

  function readNotifyEvents({ since, limit, newLeads }: ReadNotifyEventsOptions): NotifyEvents {
    const fresh = newLeads
      ? all(
          `SELECT l.id AS lead_id, l.source, d.state, l.received_at AS at FROM leads l JOIN deliveries d ON d.lead_id = l.id
           WHERE l.received_at >= ? AND l.spam_reason IS NULL AND d.state <> 'spam'
             AND l.source NOT IN (SELECT form FROM notify_forms WHERE new_lead_email = 0)
             AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.lead_id = l.id AND n.kind = 'new-lead')
           ORDER BY l.received_at, l.id LIMIT ?`,
          since,
          limit,
        )
      : [];
    const settled = all(
      `SELECT d.lead_id, l.source, d.state, d.updated_at AS at FROM deliveries d JOIN leads l ON l.id = d.lead_id
       WHERE d.state IN ('failed', 'delivered-test') AND d.updated_at >= ?
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.lead_id = d.lead_id AND n.event_at = d.updated_at
           AND n.kind = CASE d.state WHEN 'failed' THEN 'lead-failed' ELSE 'lead-test' END)
       ORDER BY d.updated_at, d.lead_id LIMIT ?`,
      since,
      limit,
    );
    return { newLeads: fresh.map(toNotifyLeadEvent), settledLeads: settled.map(toNotifyLeadEvent), health: readDeliveryHealth() };
  }

  // One outcome at a time, so each MAX and MIN is a single step through the (outcome, attempted_at) index.
  function readDeliveryHealth(): DeliveryHealth {
    const successTimes = SUCCESS_OUTCOMES.map((outcome) =>
      optionalTime(get('SELECT MAX(attempted_at) AS at FROM delivery_attempts WHERE outcome = ?', outcome)?.at),
    );
    const after = Math.max(-1, ...successTimes.filter((time) => time !== undefined));
    return combineDeliveryHealth({
      successTimes,
      firstFailureTimes: FAILURE_OUTCOMES.map((outcome) =>
        optionalTime(
          get('SELECT MIN(attempted_at) AS at FROM delivery_attempts WHERE outcome = ? AND attempted_at > ?', outcome, after)?.at,
        ),
      ),
      lastFailures: FAILURE_OUTCOMES.map((outcome) => {
        const row = get(
          'SELECT attempted_at, status, error FROM delivery_attempts WHERE outcome = ? ORDER BY attempted_at DESC LIMIT 1',
          outcome,
        );
        return row === undefined
          ? undefined
          : { at: Number(row.attempted_at), status: optionalTime(row.status), error: row.error === null ? undefined : String(row.error) };
      }),
    });
  }

  function startIncident(incident: NewIncident, notifications: readonly NewNotification[]): boolean {
    return transaction(() => {
      const opened = run(
        `INSERT INTO notify_incidents (since, last_error, opened_at, open_slot) VALUES (?, ?, ?, 1) ON CONFLICT DO NOTHING`,
        incident.since,
        incident.lastError ?? null,
        incident.openedAt,
      );
      if (opened === 0) return false;
      insertNotifications(notifications);
      return true;
    });
  }

  function endIncident(since: number, closedAt: number, notifications: readonly NewNotification[]): boolean {
    return transaction(() => {
      const closed = run('UPDATE notify_incidents SET closed_at = ?, open_slot = NULL WHERE since = ? AND open_slot = 1', closedAt, since);
      if (closed === 0) return false;
      insertNotifications(notifications);
      return true;
    });
  }

  function claimNotifications({ now, limit, owner, leaseMs }: ClaimOptions): ClaimedNotification[] {
    return transaction(() => {
      const rows = all(
        `SELECT ${NOTIFICATION_COLUMNS} FROM notifications
         WHERE state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
         ORDER BY next_attempt_at, id LIMIT ?`,
        now,
        now,
        limit,
      );
      for (const row of rows)
        run('UPDATE notifications SET lease_owner = ?, lease_until = ? WHERE id = ?', owner, now + leaseMs, Number(row.id));
      return rows.map(toClaimedNotification);
    }, 'bookkeeping');
  }

  function recordNotificationResults(results: readonly NotificationResult[]): void {
    if (results.length === 0) return;
    transaction(() => {
      for (const result of results) {
        run(
          `UPDATE notifications SET state = ?, attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,
             last_error = ?, updated_at = ? WHERE id = ? AND lease_owner = ?`,
          result.nextState,
          result.nextAttemptAt ?? null,
          result.error ?? null,
          result.at,
          result.id,
          result.owner,
        );
      }
    }, 'bookkeeping');
  }

  const notifyMethods = {
    notifyWatermark: () => optionalTime(get('SELECT value FROM notify_state WHERE name = ?', WATERMARK)?.value),
    readNotifyEvents,
    enqueueNotifications,
    startIncident,
    endIncident,
    findOpenIncident: () => {
      const row = get('SELECT since, last_error, opened_at, closed_at FROM notify_incidents WHERE open_slot = 1');
      return row === undefined ? undefined : toIncidentRecord(row);
    },
    claimNotifications,
    recordNotificationResults,
    listNotifications: () => all(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications ORDER BY id`).map(toNotificationRecord),
    listNotifyForms: () =>
      all('SELECT form, new_lead_email FROM notify_forms ORDER BY form').map((row) => ({
        form: String(row.form),
        newLeadEmail: Number(row.new_lead_email) === 1,
      })),
    setNotifyForm: (form: string, newLeadEmail: boolean, now: number) => {
      transaction(() =>
        run(
          `INSERT INTO notify_forms (form, new_lead_email, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (form) DO UPDATE SET new_lead_email = excluded.new_lead_email, updated_at = excluded.updated_at`,
          form,
          newLeadEmail ? 1 : 0,
          now,
        ),
      );
    },
  };

  const ifOpen =
    <A extends unknown[], T>(work: (...args: A) => T) =>
    async (...args: A): Promise<T> => {
      if (closed) throw new Error('The lead store is closed');
      return work(...args);
    };

  // Downloads read on connections of their own (a database in memory has only this one), closed with the store.
  const openExports = new Set<LeadExport>();
  function openLeadExport(query: LeadQuery): LeadExport {
    if (file === ':memory:')
      return keysetExport(
        async (after, limit) => listLeadPage(query, after, limit),
        async () => {},
      );
    const reader = openSqliteLeadExportSync(file, query);
    const opened = exportOf(
      async (limit) => reader.readPage(limit),
      async () => {
        openExports.delete(opened);
        reader.close();
      },
    );
    openExports.add(opened);
    return opened;
  }

  return {
    openLeadExport: ifOpen(openLeadExport),
    insertLead: (lead: NewLead) => (closed ? Promise.reject(new Error('The lead store is closed')) : queueInsert(lead)),
    claimDue: ifOpen(claimDue),
    recordResults: ifOpen(recordResults),
    releaseHeld: ifOpen((now: number) =>
      run(`UPDATE deliveries SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE state = 'held'`, now, now),
    ),
    holdPending: ifOpen((now: number) =>
      run(`UPDATE deliveries SET state = 'held', next_attempt_at = NULL, updated_at = ? WHERE state = 'pending'`, now),
    ),
    retry: ifOpen(retry),
    sendAgain: ifOpen(sendAgain),
    eraseByEmail: ifOpen(eraseByEmail),
    listLeads: ifOpen(listLeads),
    getLead: ifOpen((id: string) => {
      const row = get(`SELECT ${LEAD_COLUMNS} FROM leads l JOIN deliveries d ON d.lead_id = l.id WHERE l.id = ?`, id);
      return row === undefined ? undefined : toLeadRecord(row);
    }),
    listAttempts: ifOpen((leadId: string) =>
      all(
        `SELECT lead_id, attempted_at, duration_ms, status, response_body, error, outcome
         FROM delivery_attempts WHERE lead_id = ? ORDER BY id`,
        leadId,
      ).map(toAttemptRecord),
    ),
    countByState: ifOpen(() => {
      const counts: Partial<Record<DeliveryState, number>> = {};
      for (const row of all('SELECT state, COUNT(*) AS count FROM deliveries GROUP BY state')) {
        counts[row.state as DeliveryState] = Number(row.count);
      }
      return counts as StateCounts;
    }),
    countSpam: ifOpen((receivedFrom: number, receivedBefore: number) =>
      Number(
        get(
          `SELECT COUNT(*) AS count FROM deliveries WHERE state = 'spam' AND received_at >= ? AND received_at < ?`,
          receivedFrom,
          receivedBefore,
        )?.count ?? 0,
      ),
    ),
    listLeadPage: ifOpen(listLeadPage),
    markSpam: ifOpen(markSpam),
    markNotSpam: ifOpen(markNotSpam),
    countLeadsByEmail: ifOpen((email: string) =>
      Number(get('SELECT COUNT(*) AS count FROM leads WHERE email = ?', email.trim().toLowerCase())?.count ?? 0),
    ),
    appendAudit: ifOpen(({ at, actor, action, detail }: AuditEntry) => {
      transaction(() => run('INSERT INTO audit_log (at, actor, action, detail) VALUES (?, ?, ?, ?)', at, actor, action, detail));
    }),
    listAudit: ifOpen(listAudit),
    leadHealth: ifOpen(leadHealth),
    purgeExpired: (cutoffs: PurgeCutoffs, audit?: AuditEntryInput) =>
      closed ? Promise.reject(new Error('The lead store is closed')) : purgeExpired(cutoffs, audit),
    takeCrmSlots: ifOpen(takeCrmSlots),
    giveBackCrmSlots: ifOpen(giveBackCrmSlots),
    countSignInAttempt: ifOpen(countSignInAttempt),
    signInSucceeded: ifOpen(signInSucceeded),
    withdrawSignInAttempt: ifOpen((id: string) => {
      transaction(() => run('DELETE FROM sign_in_attempts WHERE attempt_id = ?', id), 'bookkeeping');
    }),
    createAccount: ifOpen(createAccount),
    listAccounts: ifOpen(() => all(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY email`).map(toAccountRecord)),
    findAccount: ifOpen((email: string) => {
      const row = get(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email = ?`, normalizeEmail(email));
      return row === undefined ? undefined : toStoredAccount(row);
    }),
    removeAccount: ifOpen(removeAccount),
    setAccountRole: ifOpen(setAccountRole),
    setAccountPassword: ifOpen(setAccountPassword),
    createSession: ifOpen(createSession),
    findSession: ifOpen(findSession),
    endSession: ifOpen((id: string, app: SessionApp) => {
      assertSessionApp(app);
      return transaction(() => run('DELETE FROM account_sessions WHERE id_hash = ? AND app = ?', hashSessionId(id), app) > 0);
    }),
    endAccountSessions: ifOpen((email: string) =>
      transaction(() =>
        run('DELETE FROM account_sessions WHERE account_id IN (SELECT id FROM accounts WHERE email = ?)', normalizeEmail(email)),
      ),
    ),
    schemaVersion: ifOpen(() => readSchemaVersion(db)),
    notifyWatermark: ifOpen(notifyMethods.notifyWatermark),
    readNotifyEvents: ifOpen(notifyMethods.readNotifyEvents),
    enqueueNotifications: ifOpen(notifyMethods.enqueueNotifications),
    startIncident: ifOpen(notifyMethods.startIncident),
    endIncident: ifOpen(notifyMethods.endIncident),
    findOpenIncident: ifOpen(notifyMethods.findOpenIncident),
    claimNotifications: ifOpen(notifyMethods.claimNotifications),
    recordNotificationResults: ifOpen(notifyMethods.recordNotificationResults),
    listNotifications: ifOpen(notifyMethods.listNotifications),
    listNotifyForms: ifOpen(notifyMethods.listNotifyForms),
    setNotifyForm: ifOpen(notifyMethods.setNotifyForm),
    ping: ifOpen(() => {
      get('SELECT 1 AS ok');
    }),
    async close() {
      if (closed) return;
      closed = true;
      if (insertQueue.length > 0) commitQueuedInserts();
      await Promise.all([...openExports].map((opened) => opened.close()));
      db.close();
    },
  };
}

function readSchemaVersion(db: DatabaseSync): number {
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as Row | undefined;
  return Number(row?.version ?? 0);
}

function optionalTime(value: SQLInputValue | undefined): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
