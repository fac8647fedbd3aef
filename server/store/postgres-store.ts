import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
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
import type { LeadHealthRecord, ListOptions, StateCounts } from './inbox/inbox-store.ts';
import type { Database } from './database.ts';
import type { NewSession } from '../../back-office/sessions/session-store.ts';
import type { SignInAttemptRequest, SignInAttemptResult } from '../../back-office/sign-in/sign-in-limit-store.ts';
import { assertKnownRole, stopsBeingAdmin } from '../../back-office/accounts/account-store.ts';
import { assertPageLimit } from '../../back-office/database/page-limit.ts';
import { assertPaceLimit } from './crm-pace/crm-pace-store.ts';
import {
  DAY_MS,
  healthDays,
  PURGE_BATCH_SIZE,
  PURGEABLE_STATES,
  RETRYABLE_STATES,
  SEND_AGAIN_STATES,
  SPAM_MARKABLE_STATES,
  summarizeWeek,
} from './inbox/inbox-store.ts';
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
import { combineDeliveryHealth, FAILURE_OUTCOMES, SUCCESS_OUTCOMES } from './notifications/notification-store.ts';
import { keysetExport, type LeadExport } from './inbox/inbox-store.ts';
import { NOTIFICATION_COLUMNS, toClaimedNotification, toIncidentRecord, toNotificationRecord, toNotifyLeadEvent } from './row-mapping.ts';
import type { Migration } from '../../back-office/database/migrations.ts';
import { inPostgresTransaction, migratePostgres } from '../../back-office/database/postgres-database.ts';

// PostgreSQL store through `pg`. Commits are durable with the server's default synchronous_commit.
// Several server processes may share one database: claimDue takes due rows with
// `FOR UPDATE SKIP LOCKED` and stamps a lease, so no two workers hold the same lead at once; a lease
// outlives one attempt's timeout, and a crashed worker's lead is claimed again once it lapses.

// Any number that identifies this app's migration lock among other advisory locks on the database.
const MIGRATION_LOCK_ID = 4_201_735_001;
// The first half of the advisory locks a sign-in attempt takes on each of its keys (the second half is the key's hash).
const SIGN_IN_LOCK_CLASS = 4_201_735;
const POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 5_000;

// The notifier's tables: its outbox (one row per event and channel, the key unique so two processes
// never send one event twice), its watermark, the open incident (open_slot is 1 only while open, and
// unique, so at most one is open) and each form's new-lead e-mail switch. The two indexes let it read
// the CRM's delivery record and the leads that settled without scanning either table.
const POSTGRES_NOTIFY_MIGRATION: Migration = {
  version: 5,
  name: 'notifications, their watermark, delivery incidents and per-form switches',
  sql: `
    CREATE TABLE notifications (
      id BIGSERIAL PRIMARY KEY,
      event_key TEXT NOT NULL UNIQUE,
      channel TEXT NOT NULL,
      kind TEXT NOT NULL,
      lead_id TEXT,
      event_at BIGINT NOT NULL,
      detail TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at BIGINT,
      lease_owner TEXT,
      lease_until BIGINT,
      last_error TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE INDEX notifications_due ON notifications (state, next_attempt_at);
    CREATE INDEX notifications_lead ON notifications (lead_id, kind);
    CREATE TABLE notify_state (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
    CREATE TABLE notify_incidents (
      since BIGINT PRIMARY KEY,
      last_error TEXT,
      opened_at BIGINT NOT NULL,
      closed_at BIGINT,
      open_slot INTEGER UNIQUE
    );
    CREATE TABLE notify_forms (form TEXT PRIMARY KEY, new_lead_email BOOLEAN NOT NULL, updated_at BIGINT NOT NULL);
    CREATE INDEX delivery_attempts_outcome_time ON delivery_attempts (outcome, attempted_at);
    CREATE INDEX deliveries_state_updated ON deliveries (state, updated_at);
  `,
};

// Each session names the app that started it ('console' or 'studio'), which alone accepts it.
// Sessions started before there was a column to say so are ended: their people sign in again.
const POSTGRES_SESSION_APP_MIGRATION: Migration = {
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
const POSTGRES_SIGN_IN_LIMITS_MIGRATION: Migration = {
  version: 7,
  name: 'sign-in attempts and known addresses, shared by every app and process',
  sql: `
    CREATE TABLE sign_in_attempts (
      key TEXT NOT NULL,
      at BIGINT NOT NULL,
      attempt_id TEXT NOT NULL
    );
    CREATE INDEX sign_in_attempts_key_at ON sign_in_attempts (key, at);
    CREATE INDEX sign_in_attempts_attempt ON sign_in_attempts (attempt_id);
    CREATE INDEX sign_in_attempts_at ON sign_in_attempts (at);
    CREATE TABLE sign_in_known (
      pair_key TEXT PRIMARY KEY,
      known_at BIGINT NOT NULL
    );
    CREATE INDEX sign_in_known_at ON sign_in_known (known_at);
  `,
};

// The inbox's first screen lists every lead but spam, newest first. Without an index of only those,
// each page walks all leads and skips spam one by one: after a flood of spam, every lead of it.
const POSTGRES_NOT_SPAM_MIGRATION: Migration = {
  version: 8,
  name: 'an index of the leads that are not spam, newest first',
  sql: `CREATE INDEX deliveries_not_spam_newest ON deliveries (received_at, lead_id) WHERE state <> 'spam';`,
};

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'leads, deliveries and delivery attempts',
    sql: `
      CREATE TABLE leads (
        id TEXT PRIMARY KEY,
        received_at BIGINT NOT NULL,
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
        next_attempt_at BIGINT,
        lease_owner TEXT,
        lease_until BIGINT,
        last_status INTEGER,
        last_error TEXT,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
      CREATE TABLE delivery_attempts (
        id BIGSERIAL PRIMARY KEY,
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        attempted_at BIGINT NOT NULL,
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
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        password_changed_at BIGINT NOT NULL,
        last_sign_in_at BIGINT
      );
      CREATE TABLE account_sessions (
        id_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL
      );
      CREATE INDEX account_sessions_account ON account_sessions (account_id);
      CREATE INDEX account_sessions_last_seen ON account_sessions (last_seen_at);
    `,
  },
  {
    version: 4,
    name: 'the console: inbox columns and indexes, audit log, CRM pace',
    sql: `
      ALTER TABLE leads ADD COLUMN name TEXT, ADD COLUMN company TEXT, ADD COLUMN utm_campaign TEXT, ADD COLUMN utm_source TEXT;
      UPDATE leads SET
        name = CASE WHEN jsonb_typeof(payload::jsonb -> 'name') = 'string' THEN payload::jsonb ->> 'name' END,
        company = CASE WHEN jsonb_typeof(payload::jsonb -> 'company') = 'string' THEN payload::jsonb ->> 'company' END,
        utm_campaign = CASE WHEN jsonb_typeof(payload::jsonb -> 'utm_campaign') = 'string' THEN payload::jsonb ->> 'utm_campaign' END,
        utm_source = CASE WHEN jsonb_typeof(payload::jsonb -> 'utm_source') = 'string' THEN payload::jsonb ->> 'utm_source' END;
      DROP INDEX leads_email;
      DROP INDEX leads_received_at;
      CREATE INDEX leads_newest ON leads (received_at, id);
      CREATE INDEX leads_email_newest ON leads (email, received_at, id);
      CREATE INDEX leads_source_newest ON leads (source, received_at, id);
      CREATE INDEX leads_campaign_newest ON leads (utm_campaign, received_at, id);
      CREATE INDEX leads_utm_source_newest ON leads (utm_source, received_at, id);
      -- The lead's received_at, which never changes, beside its state: one index then serves the
      -- inbox filtered by state, the oldest lead waiting and the retention purge.
      ALTER TABLE deliveries ADD COLUMN received_at BIGINT NOT NULL DEFAULT 0;
      UPDATE deliveries d SET received_at = l.received_at FROM leads l WHERE l.id = d.lead_id;
      CREATE INDEX deliveries_state_newest ON deliveries (state, received_at, lead_id);
      CREATE INDEX delivery_attempts_outcome ON delivery_attempts (outcome, attempted_at);
      CREATE TABLE audit_log (
        id BIGSERIAL PRIMARY KEY,
        at BIGINT NOT NULL,
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
  POSTGRES_NOTIFY_MIGRATION,
  POSTGRES_SESSION_APP_MIGRATION,
  POSTGRES_SIGN_IN_LIMITS_MIGRATION,
  POSTGRES_NOT_SPAM_MIGRATION,
];

const SESSION_COLUMNS = `
  a.id, a.email, a.role, a.created_at, a.updated_at, a.password_changed_at, a.last_sign_in_at,
  s.created_at AS session_created_at, s.last_seen_at AS session_last_seen_at`;

export async function openPostgresStore(url: string, migrations: readonly Migration[] = POSTGRES_MIGRATIONS): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client losing its connection (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let closed = false;
  // Downloads' own connections, ended with the store.
  const openExports = new Set<LeadExport>();

  // The audit entry of an operation, written inside the operation's transaction.
  async function writeAudit(client: PoolClient, audit: AuditEntryInput | undefined, now: number): Promise<void> {
    if (audit !== undefined) await client.query(INSERT_AUDIT_SQL.postgres, auditValues(audit, now));
  }

  async function transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    if (closed) throw new Error('The lead store is closed');
    return inPostgresTransaction(pool, work);
  }

  /**
   * The account a role change or removal is about, its row locked until the transaction ends, or why
   * it may not go ahead. Asked to keep an admin, it first locks every admin's row (by id, so two such
   * changes always lock in the same order and never deadlock): another transaction demoting or
   * removing an admin waits for this one to commit, then reads the admins as they are after it, so
   * two admins demoting each other at the same moment cannot both find that another admin remains.
   */
  async function lockAccountToChange(
    client: PoolClient,
    email: string,
    after: Role | undefined,
    { keepAnAdmin = false }: AccountChangeOptions,
  ): Promise<{ kind: 'no-account' } | { kind: 'last-admin' } | { kind: 'found'; id: string; role: Role }> {
    const admins = keepAnAdmin
      ? (await client.query<{ id: string }>(`SELECT id FROM accounts WHERE role = 'admin' ORDER BY id FOR UPDATE`)).rows
      : [];
    const { rows } = await client.query<{ id: string; role: Role }>('SELECT id, role FROM accounts WHERE email = $1 FOR UPDATE', [
      normalizeEmail(email),
    ]);
    const account = rows[0];
    if (account === undefined) return { kind: 'no-account' };
    // The admins locked above stay admins until this transaction ends. The account's own role is read
    // after them, as last committed: promoted meanwhile, it is an admin this change must keep one beside.
    if (keepAnAdmin && stopsBeingAdmin(account.role, after) && !admins.some((admin) => admin.id !== account.id)) {
      return { kind: 'last-admin' };
    }
    return { kind: 'found', id: account.id, role: account.role };
  }

  async function query<R extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    if (closed) throw new Error('The lead store is closed');
    return (await pool.query<R>(sql, params)).rows;
  }

  // ---------------------------------------------------------------------------------------------
  // Notifications

  const WATERMARK = 'watermark';

  async function insertNotifications(client: PoolClient, notifications: readonly NewNotification[]): Promise<number> {
    let stored = 0;
    // In key order, so two processes storing the same events lock their rows in the same order (no deadlock).
    for (const notification of [...notifications].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
      const result = await client.query(
        `INSERT INTO notifications (event_key, channel, kind, lead_id, event_at, detail, state, attempts, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, $7, $7) ON CONFLICT (event_key) DO NOTHING`,
        [
          notification.key,
          notification.channel,
          notification.kind,
          notification.leadId ?? null,
          notification.eventAt,
          JSON.stringify(notification.detail),
          notification.createdAt,
        ],
      );
      stored += result.rowCount ?? 0;
    }
    return stored;
  }

  // One outcome at a time, so each MAX and MIN is a single step through the (outcome, attempted_at) index.
  async function readDeliveryHealth(): Promise<DeliveryHealth> {
    const timeOf = (rows: QueryResultRow[]) => (rows[0]?.at === null || rows[0]?.at === undefined ? undefined : Number(rows[0].at));
    const successTimes = await Promise.all(
      SUCCESS_OUTCOMES.map(async (outcome) =>
        timeOf(await query('SELECT MAX(attempted_at) AS at FROM delivery_attempts WHERE outcome = $1', [outcome])),
      ),
    );
    const after = Math.max(-1, ...successTimes.filter((time) => time !== undefined));
    const firstFailureTimes = await Promise.all(
      FAILURE_OUTCOMES.map(async (outcome) =>
        timeOf(
          await query('SELECT MIN(attempted_at) AS at FROM delivery_attempts WHERE outcome = $1 AND attempted_at > $2', [outcome, after]),
        ),
      ),
    );
    const lastFailures = await Promise.all(
      FAILURE_OUTCOMES.map(async (outcome) => {
        const [row] = await query(
          'SELECT attempted_at, status, error FROM delivery_attempts WHERE outcome = $1 ORDER BY attempted_at DESC LIMIT 1',
          [outcome],
        );
        return row === undefined
          ? undefined
          : { at: Number(row.attempted_at), status: row.status === null ? undefined : Number(row.status), error: row.error ?? undefined };
      }),
    );
    return combineDeliveryHealth({ successTimes, firstFailureTimes, lastFailures });
  }

  const notifyMethods = {
    notifyWatermark: async () => {
      const [row] = await query('SELECT value FROM notify_state WHERE name = $1', [WATERMARK]);
      return row === undefined ? undefined : Number(row.value);
    },

    readNotifyEvents: async ({ since, limit, newLeads }: ReadNotifyEventsOptions): Promise<NotifyEvents> => {
      const fresh = newLeads
        ? await query(
            `SELECT l.id AS lead_id, l.source, d.state, l.received_at AS at FROM leads l JOIN deliveries d ON d.lead_id = l.id
             WHERE l.received_at >= $1 AND l.spam_reason IS NULL AND d.state <> 'spam'
               AND l.source NOT IN (SELECT form FROM notify_forms WHERE NOT new_lead_email)
               AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.lead_id = l.id AND n.kind = 'new-lead')
             ORDER BY l.received_at, l.id LIMIT $2`,
            [since, limit],
          )
        : [];
      const settled = await query(
        `SELECT d.lead_id, l.source, d.state, d.updated_at AS at FROM deliveries d JOIN leads l ON l.id = d.lead_id
         WHERE d.state IN ('failed', 'delivered-test') AND d.updated_at >= $1
           AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.lead_id = d.lead_id AND n.event_at = d.updated_at
             AND n.kind = CASE d.state WHEN 'failed' THEN 'lead-failed' ELSE 'lead-test' END)
         ORDER BY d.updated_at, d.lead_id LIMIT $2`,
        [since, limit],
      );
      return { newLeads: fresh.map(toNotifyLeadEvent), settledLeads: settled.map(toNotifyLeadEvent), health: await readDeliveryHealth() };
    },

    enqueueNotifications: (notifications: readonly NewNotification[], watermark?: number) =>
      transaction(async (client) => {
        const stored = await insertNotifications(client, notifications);
        if (watermark !== undefined) {
          await client.query(
            `INSERT INTO notify_state (name, value) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET value = GREATEST(notify_state.value, excluded.value)`,
            [WATERMARK, watermark],
          );
        }
        return stored;
      }),

    startIncident: (incident: NewIncident, notifications: readonly NewNotification[]) =>
      transaction(async (client) => {
        const opened = await client.query(
          'INSERT INTO notify_incidents (since, last_error, opened_at, open_slot) VALUES ($1, $2, $3, 1) ON CONFLICT DO NOTHING',
          [incident.since, incident.lastError ?? null, incident.openedAt],
        );
        if (opened.rowCount === 0) return false;
        await insertNotifications(client, notifications);
        return true;
      }),

    endIncident: (since: number, closedAt: number, notifications: readonly NewNotification[]) =>
      transaction(async (client) => {
        const closed = await client.query(
          'UPDATE notify_incidents SET closed_at = $1, open_slot = NULL WHERE since = $2 AND open_slot = 1',
          [closedAt, since],
        );
        if (closed.rowCount === 0) return false;
        await insertNotifications(client, notifications);
        return true;
      }),

    findOpenIncident: async () => {
      const [row] = await query('SELECT since, last_error, opened_at, closed_at FROM notify_incidents WHERE open_slot = 1');
      return row === undefined ? undefined : toIncidentRecord(row);
    },

    claimNotifications: ({ now, limit, owner, leaseMs }: ClaimOptions) =>
      transaction<ClaimedNotification[]>(async (client) => {
        const { rows } = await client.query(
          `WITH due AS (
             SELECT id FROM notifications
             WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
             ORDER BY next_attempt_at, id LIMIT $2
             FOR UPDATE SKIP LOCKED
           )
           UPDATE notifications n SET lease_owner = $3, lease_until = $4 FROM due WHERE n.id = due.id
           RETURNING ${NOTIFICATION_COLUMNS.split(', ')
             .map((column) => `n.${column}`)
             .join(', ')}, n.next_attempt_at`,
          [now, limit, owner, now + leaseMs],
        );
        return rows
          .sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || Number(a.id) - Number(b.id))
          .map(toClaimedNotification);
      }),

    recordNotificationResults: async (results: readonly NotificationResult[]) => {
      if (results.length === 0) return;
      await transaction(async (client) => {
        for (const result of results) {
          await client.query(
            `UPDATE notifications SET state = $1, attempts = attempts + 1, next_attempt_at = $2, lease_owner = NULL, lease_until = NULL,
               last_error = $3, updated_at = $4 WHERE id = $5 AND lease_owner = $6`,
            [result.nextState, result.nextAttemptAt ?? null, result.error ?? null, result.at, result.id, result.owner],
          );
        }
      });
    },

    listNotifications: async () => (await query(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications ORDER BY id`)).map(toNotificationRecord),

    listNotifyForms: async () =>
      (await query('SELECT form, new_lead_email FROM notify_forms ORDER BY form')).map((row) => ({
        form: String(row.form),
        newLeadEmail: Boolean(row.new_lead_email),
      })),

    setNotifyForm: async (form: string, newLeadEmail: boolean, now: number) => {
      await query(
        `INSERT INTO notify_forms (form, new_lead_email, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (form) DO UPDATE SET new_lead_email = excluded.new_lead_email, updated_at = excluded.updated_at`,
        [form, newLeadEmail, now],
      );
    },
  };

  try {
    await migratePostgres(pool, migrations, { table: 'schema_migrations', lockId: MIGRATION_LOCK_ID, database: 'lead' });
  } catch (error) {
    await pool.end();
    throw error;
  }

  return {
    insertLead: (lead: NewLead) =>
      transaction<InsertLeadResult>(async (client) => {
        const columns = leadColumnsOf(lead.payload);
        const inserted = await client.query(
          `INSERT INTO leads (id, received_at, source, email, payload, spam_reason, idempotency_key_hash, idempotency_body_hash,
             name, company, utm_campaign, utm_source)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (idempotency_key_hash) DO NOTHING RETURNING id`,
          [
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
          ],
        );
        if (inserted.rowCount === 0 && lead.idempotency !== undefined) {
          // The conflicting insert has committed (PostgreSQL waited for it), so its row is visible now.
          const existing = await client.query<{ id: string; idempotency_body_hash: string | null }>(
            'SELECT id, idempotency_body_hash FROM leads WHERE idempotency_key_hash = $1',
            [lead.idempotency.keyHash],
          );
          const row = existing.rows[0];
          return judgeRepeatedKey(String(row?.id), row?.idempotency_body_hash ?? null, lead.idempotency.bodyHash);
        }
        await client.query(
          `INSERT INTO deliveries (lead_id, state, attempts, next_attempt_at, updated_at, received_at) VALUES ($1, $2, 0, $3, $4, $4)`,
          [lead.id, lead.initialState, lead.initialState === 'pending' ? lead.receivedAt : null, lead.receivedAt],
        );
        return { kind: 'created', id: lead.id };
      }),

    claimDue: ({ now, limit, owner, leaseMs }: ClaimOptions) =>
      transaction<ClaimedDelivery[]>(async (client) => {
        const { rows } = await client.query(
          `WITH due AS (
             SELECT lead_id FROM deliveries
             WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
             ORDER BY next_attempt_at LIMIT $2
             FOR UPDATE SKIP LOCKED
           )
           UPDATE deliveries d SET lease_owner = $3, lease_until = $4
           FROM due, leads l
           WHERE d.lead_id = due.lead_id AND l.id = d.lead_id
           RETURNING d.lead_id, d.attempts, l.payload, d.next_attempt_at`,
          [now, limit, owner, now + leaseMs],
        );
        return rows
          .sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at))
          .map((row) => ({
            leadId: String(row.lead_id),
            attempts: Number(row.attempts),
            body: String(row.payload),
          }));
      }),

    recordResults: async (results: readonly DeliveryResult[]) => {
      if (results.length === 0) return;
      await transaction(async (client) => {
        for (const result of results) {
          const { attempt } = result;
          await client.query(
            `INSERT INTO delivery_attempts (lead_id, attempted_at, duration_ms, status, response_body, error, outcome)
             SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM leads WHERE id = $1)`,
            [
              result.leadId,
              attempt.attemptedAt,
              Math.round(attempt.durationMs),
              attempt.status ?? null,
              truncateResponseBody(attempt.responseBody) ?? null,
              attempt.error ?? null,
              result.nextState,
            ],
          );
          await client.query(
            `UPDATE deliveries SET state = $1, attempts = attempts + 1, next_attempt_at = $2, lease_owner = NULL,
               lease_until = NULL, last_status = $3, last_error = $4, updated_at = $5
             WHERE lead_id = $6 AND lease_owner = $7`,
            [
              result.nextState,
              result.nextAttemptAt ?? null,
              attempt.status ?? null,
              attempt.error ?? null,
              Math.round(attempt.attemptedAt + attempt.durationMs),
              result.leadId,
              result.owner,
            ],
          );
        }
      });
    },

    releaseHeld: async (now: number) =>
      (await pool.query(`UPDATE deliveries SET state = 'pending', next_attempt_at = $1, updated_at = $1 WHERE state = 'held'`, [now]))
        .rowCount ?? 0,

    holdPending: async (now: number) =>
      (await pool.query(`UPDATE deliveries SET state = 'held', next_attempt_at = NULL, updated_at = $1 WHERE state = 'pending'`, [now]))
        .rowCount ?? 0,

    // The subquery reads each row's state and attempts before the update, locked, so the answer says
    // what each lead was when it was moved.
    retry: async (target, now, audit) => {
      const moveDue = async (run: typeof query) =>
        run<{ lead_id: string; state: DeliveryState; attempts: number | string }>(
          `UPDATE deliveries d SET state = 'pending', attempts = 0, next_attempt_at = $1, lease_owner = NULL,
           lease_until = NULL, updated_at = $1
         FROM (SELECT lead_id, state, attempts FROM deliveries
               WHERE ${'id' in target ? `lead_id = $2 AND state = ANY($3::text[]) AND (lease_until IS NULL OR lease_until <= $1)` : `state = 'failed'`}
               FOR UPDATE) before
         WHERE d.lead_id = before.lead_id
         RETURNING d.lead_id, before.state, before.attempts`,
          'id' in target ? [now, target.id, RETRYABLE_STATES] : [now],
        );
      const rows =
        audit === undefined
          ? await moveDue(query)
          : await transaction(async (client) => {
              const moved = await moveDue(async (sql, params) => (await client.query(sql, params)).rows);
              await writeAudit(client, audit, now);
              return moved;
            });
      return rows.map((row) => ({ id: row.lead_id, from: row.state, attempts: Number(row.attempts) }));
    },

    sendAgain: async (id, now, audit) => {
      const sql = `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = $1, lease_owner = NULL,
             lease_until = NULL, updated_at = $1
           WHERE lead_id = $2 AND state = ANY($3::text[]) AND (lease_until IS NULL OR lease_until <= $1)`;
      if (audit === undefined) return ((await pool.query(sql, [now, id, SEND_AGAIN_STATES])).rowCount ?? 0) > 0;
      return transaction(async (client) => {
        const moved = ((await client.query(sql, [now, id, SEND_AGAIN_STATES])).rowCount ?? 0) > 0;
        if (moved) await writeAudit(client, audit, now);
        return moved;
      });
    },

    eraseByEmail: (email: string, audit?: AuditEntryInput) =>
      transaction(async (client) => {
        const { rows } = await client.query<{ id: string }>('DELETE FROM leads WHERE email = $1 RETURNING id', [
          email.trim().toLowerCase(),
        ]);
        // deliveries and delivery_attempts go with their lead (ON DELETE CASCADE).
        await writeAudit(client, audit, Date.now());
        return rows.map((row) => row.id);
      }),

    listLeads: async ({ state, limit }: ListOptions = {}) => {
      const rows = await query(
        `SELECT ${LEAD_COLUMNS} FROM leads l JOIN deliveries d ON d.lead_id = l.id
         WHERE ($1::text IS NULL OR d.state = $1) ORDER BY l.received_at, l.id LIMIT $2`,
        [state ?? null, limit ?? null],
      );
      return rows.map(toLeadRecord);
    },

    getLead: async (id: string) => {
      const [row] = await query(`SELECT ${LEAD_COLUMNS} FROM leads l JOIN deliveries d ON d.lead_id = l.id WHERE l.id = $1`, [id]);
      return row === undefined ? undefined : toLeadRecord(row);
    },

    listAttempts: async (leadId: string) =>
      (
        await query(
          `SELECT lead_id, attempted_at, duration_ms, status, response_body, error, outcome
           FROM delivery_attempts WHERE lead_id = $1 ORDER BY id`,
          [leadId],
        )
      ).map(toAttemptRecord),

    countByState: async () => {
      const counts: Partial<Record<DeliveryState, number>> = {};
      for (const row of await query('SELECT state, COUNT(*) AS count FROM deliveries GROUP BY state')) {
        counts[row.state as DeliveryState] = Number(row.count);
      }
      return counts as StateCounts;
    },

    countSpam: async (receivedFrom, receivedBefore) => {
      const [row] = await query(
        `SELECT COUNT(*) AS count FROM deliveries WHERE state = 'spam' AND received_at >= $1 AND received_at < $2`,
        [receivedFrom, receivedBefore],
      );
      return Number(row?.count ?? 0);
    },

    listLeadPage: async (leadQuery, after, limit) => {
      assertPageLimit(limit);
      const { sql, params } = buildLeadPageQuery('postgres', leadQuery, after, limit);
      return toLeadPage(await query(sql, params), limit);
    },

    markSpam: (id, reason, now, audit) =>
      transaction(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE deliveries SET state = 'spam', next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL, updated_at = $1
           WHERE lead_id = $2 AND state = ANY($3::text[]) AND (lease_until IS NULL OR lease_until <= $1)`,
          [now, id, SPAM_MARKABLE_STATES],
        );
        if (rowCount === 0) return false;
        await client.query('UPDATE leads SET spam_reason = $1 WHERE id = $2', [reason, id]);
        await writeAudit(client, audit, now);
        return true;
      }),

    markNotSpam: (id, now, rebuilt, audit) =>
      transaction(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = $1, lease_owner = NULL, lease_until = NULL,
             updated_at = $1 WHERE lead_id = $2 AND state = 'spam'`,
          [now, id],
        );
        if (rowCount === 0) return false;
        const columns = leadColumnsOf(rebuilt.payload);
        await client.query(
          `UPDATE leads SET spam_reason = NULL, source = $2, email = $3, payload = $4, name = $5, company = $6, utm_campaign = $7,
             utm_source = $8 WHERE id = $1`,
          [
            id,
            rebuilt.source,
            rebuilt.email.toLowerCase(),
            JSON.stringify(rebuilt.payload),
            columns.name,
            columns.company,
            columns.utmCampaign,
            columns.utmSource,
          ],
        );
        await writeAudit(client, audit, now);
        return true;
      }),

    countLeadsByEmail: async (email) => {
      const [row] = await query('SELECT COUNT(*) AS count FROM leads WHERE email = $1', [email.trim().toLowerCase()]);
      return Number(row?.count ?? 0);
    },

    appendAudit: async ({ at, actor, action, detail }) => {
      await query('INSERT INTO audit_log (at, actor, action, detail) VALUES ($1, $2, $3, $4)', [at, actor, action, detail]);
    },

    listAudit: async (before, limit) => {
      assertPageLimit(limit);
      const rows =
        before === undefined
          ? await query('SELECT id, at, actor, action, detail FROM audit_log ORDER BY at DESC, id DESC LIMIT $1', [limit + 1])
          : await query(
              'SELECT id, at, actor, action, detail FROM audit_log WHERE (at, id) < ($1, $2) ORDER BY at DESC, id DESC LIMIT $3',
              [before.at, before.id, limit + 1],
            );
      return toAuditPage(rows, limit);
    },

    leadHealth: async (now): Promise<LeadHealthRecord> => {
      const { weekStart, end } = healthDays(now);
      const count = async (sql: string, params: unknown[] = []): Promise<number> => Number((await query(sql, params))[0]?.count ?? 0);
      const [week, deliveredLast24h, failed, retrying, spamWeek, oldest, lastDelivered, lastFailed, pending] = await Promise.all([
        query(
          `SELECT l.source, (l.received_at - $1) / $2 AS day_index, COUNT(*) AS leads
           FROM leads l JOIN deliveries d ON d.lead_id = l.id
           WHERE l.received_at >= $1 AND l.received_at < $3 AND d.state <> 'spam'
           GROUP BY l.source, day_index`,
          [weekStart, DAY_MS, end],
        ),
        count(`SELECT COUNT(*) AS count FROM delivery_attempts WHERE outcome = 'delivered' AND attempted_at > $1 AND attempted_at <= $2`, [
          now - DAY_MS,
          now,
        ]),
        count(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'failed'`),
        count(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'pending' AND attempts > 0`),
        count(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'spam' AND received_at >= $1 AND received_at < $2`, [weekStart, end]),
        query(`SELECT lead_id, received_at FROM deliveries WHERE state IN ('pending', 'held') ORDER BY received_at, lead_id LIMIT 1`),
        query(
          `SELECT GREATEST(
             (SELECT MAX(attempted_at) FROM delivery_attempts WHERE outcome = 'delivered'),
             (SELECT MAX(attempted_at) FROM delivery_attempts WHERE outcome = 'delivered-test')) AS latest`,
        ),
        query(
          `SELECT GREATEST(
             (SELECT MAX(attempted_at) FROM delivery_attempts WHERE outcome = 'pending'),
             (SELECT MAX(attempted_at) FROM delivery_attempts WHERE outcome = 'failed')) AS latest`,
        ),
        count(`SELECT COUNT(*) AS count FROM deliveries WHERE state = 'pending'`),
      ]);
      const latest = lastDelivered[0]?.latest;
      const latestFailure = lastFailed[0]?.latest;
      return {
        ...summarizeWeek(
          weekStart,
          week.map((row) => ({ source: String(row.source), dayIndex: Number(row.day_index), leads: Number(row.leads) })),
        ),
        deliveredLast24h,
        failed,
        retrying,
        spamWeek,
        oldestUndelivered:
          oldest[0] === undefined ? undefined : { id: String(oldest[0].lead_id), receivedAt: Number(oldest[0].received_at) },
        lastDeliveredAt: latest === null || latest === undefined ? undefined : Number(latest),
        lastFailedAt: latestFailure === null || latestFailure === undefined ? undefined : Number(latestFailure),
        pending,
      };
    },

    // The audit entry goes with the purge's last batch (of the last cutoff given), in its transaction.
    purgeExpired: async ({ leadsReceivedBefore, spamReceivedBefore }, audit) => {
      // Each batch is one statement of its own; a lead being retried or claimed meanwhile is locked
      // and skipped, and its new state keeps it for the next run to judge.
      const purge = async (states: readonly DeliveryState[], before: number | undefined, last?: AuditEntryInput): Promise<number> => {
        if (before === undefined) return 0;
        let total = 0;
        for (;;) {
          // Deliveries and attempts go with their lead (ON DELETE CASCADE).
          const sql = `DELETE FROM leads WHERE id IN (
                 SELECT lead_id FROM deliveries WHERE state = ANY($1::text[]) AND received_at < $2 AND lease_until IS NULL
                 LIMIT $3 FOR UPDATE SKIP LOCKED)
               RETURNING id`;
          const params = [states, before, PURGE_BATCH_SIZE];
          const deleted =
            last === undefined
              ? (await query(sql, params)).length
              : await transaction(async (client) => {
                  const count = (await client.query(sql, params)).rowCount ?? 0;
                  if (count < PURGE_BATCH_SIZE) await writeAudit(client, last, Date.now());
                  return count;
                });
          total += deleted;
          if (deleted < PURGE_BATCH_SIZE) return total;
        }
      };
      const leads = await purge(PURGEABLE_STATES, leadsReceivedBefore, spamReceivedBefore === undefined ? audit : undefined);
      const spam = await purge(['spam'], spamReceivedBefore, audit);
      if (leadsReceivedBefore === undefined && spamReceivedBefore === undefined && audit !== undefined) {
        await transaction((client) => writeAudit(client, audit, Date.now()));
      }
      return { leads, spam };
    },

    takeCrmSlots: async (now, wanted, maxPer10s) => {
      assertPaceLimit(maxPer10s);
      if (wanted < 1) return 0;
      // The row lock makes every other process's grant wait until this one has committed.
      return transaction(async (client) => {
        const { rows } = await client.query<{ grants: string }>('SELECT grants FROM crm_pace WHERE id = 1 FOR UPDATE');
        const { granted, log } = takeSlots(parsePaceLog(rows[0]?.grants), now, wanted, maxPer10s);
        if (granted > 0) await client.query('UPDATE crm_pace SET grants = $1 WHERE id = 1', [JSON.stringify(log)]);
        return granted;
      });
    },

    giveBackCrmSlots: async (now, count) => {
      if (count < 1) return;
      await transaction(async (client) => {
        const { rows } = await client.query<{ grants: string }>('SELECT grants FROM crm_pace WHERE id = 1 FOR UPDATE');
        const log = giveBackSlots(parsePaceLog(rows[0]?.grants), now, count);
        await client.query('UPDATE crm_pace SET grants = $1 WHERE id = 1', [JSON.stringify(log)]);
      });
    },

    countSignInAttempt: async ({ id, at, windowMs, knownForMs, keys }: SignInAttemptRequest): Promise<SignInAttemptResult> =>
      transaction(async (client) => {
        // One lock per key, held until COMMIT and taken in the order of the lock ids (so two attempts
        // never deadlock): an attempt on any of the same keys, from any process, waits, then reads
        // this one's rows. (A volatile function in the select list runs after ORDER BY has sorted.)
        await client.query(
          `SELECT pg_advisory_xact_lock($1, lock_id)
           FROM (SELECT DISTINCT hashtext(key) AS lock_id FROM unnest($2::text[]) AS k(key)) AS ids ORDER BY lock_id`,
          [SIGN_IN_LOCK_CLASS, keys.map(({ key }) => key)],
        );
        // Expired rows go a batch at a time. Two attempts on different keys purge at once: each skips
        // the rows the other has locked, so neither waits for the other (two purges taking the same
        // rows in different orders would deadlock, and one sign-in would fail).
        await client.query(
          'DELETE FROM sign_in_attempts WHERE ctid IN (SELECT ctid FROM sign_in_attempts WHERE at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)',
          [at - windowMs, SIGN_IN_PURGE_BATCH],
        );
        await client.query(
          'DELETE FROM sign_in_known WHERE pair_key IN (SELECT pair_key FROM sign_in_known WHERE known_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)',
          [at - knownForMs, SIGN_IN_PURGE_BATCH],
        );
        let retryAfterMs = 0;
        for (const { key, limit, unlessKnown } of keys) {
          if (unlessKnown !== undefined) {
            const known = await client.query('SELECT 1 FROM sign_in_known WHERE pair_key = $1 AND known_at > $2', [
              unlessKnown,
              at - knownForMs,
            ]);
            if (known.rows.length > 0) continue;
          }
          // The limit-th newest attempt still counted: while it counts, the key is at its limit.
          const { rows } = await client.query<{ at: string }>(
            'SELECT at FROM sign_in_attempts WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT 1 OFFSET $3',
            [key, at - windowMs, limit - 1],
          );
          if (rows[0] !== undefined) retryAfterMs = Math.max(retryAfterMs, Number(rows[0].at) + windowMs - at);
        }
        if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
        await client.query('INSERT INTO sign_in_attempts (key, at, attempt_id) SELECT key, $2, $3 FROM unnest($1::text[]) AS k(key)', [
          keys.map(({ key }) => key),
          at,
          id,
        ]);
        return { allowed: true };
      }),

    signInSucceeded: async (id: string, pairKey: string, at: number) => {
      await transaction(async (client) => {
        await client.query('DELETE FROM sign_in_attempts WHERE key = $1 OR attempt_id = $2', [pairKey, id]);
        await client.query(
          `INSERT INTO sign_in_known (pair_key, known_at) VALUES ($1, $2)
           ON CONFLICT (pair_key) DO UPDATE SET known_at = excluded.known_at`,
          [pairKey, at],
        );
      });
    },

    withdrawSignInAttempt: async (id: string) => {
      await query('DELETE FROM sign_in_attempts WHERE attempt_id = $1', [id]);
    },

    createAccount: async ({ email, role, passwordHash, now }: NewAccount, audit?: AuditEntryInput): Promise<CreateAccountResult> => {
      assertKnownRole(role);
      // ON CONFLICT: of two connections adding the same address at once, one creates it and the other is told it exists.
      const insert = async (run: typeof query) =>
        run(
          `INSERT INTO accounts (id, email, role, password_hash, created_at, updated_at, password_changed_at)
           VALUES ($1, $2, $3, $4, $5, $5, $5) ON CONFLICT (email) DO NOTHING RETURNING ${ACCOUNT_COLUMNS}`,
          [randomUUID(), normalizeEmail(email), role, passwordHash, now],
        );
      const [row] =
        audit === undefined
          ? await insert(query)
          : await transaction(async (client) => {
              const rows = await insert(async (sql, params) => (await client.query(sql, params)).rows);
              if (rows.length > 0) await writeAudit(client, audit, now);
              return rows;
            });
      return row === undefined ? { kind: 'exists' } : { kind: 'created', account: toAccountRecord(row) };
    },

    listAccounts: async () => (await query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY email`)).map(toAccountRecord),

    findAccount: async (email: string) => {
      const [row] = await query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email = $1`, [normalizeEmail(email)]);
      return row === undefined ? undefined : toStoredAccount(row);
    },

    removeAccount: (email: string, options: AccountChangeOptions = {}, audit?: AuditEntryInput) =>
      transaction<RemoveAccountResult>(async (client) => {
        const account = await lockAccountToChange(client, email, undefined, options);
        if (account.kind !== 'found') return account;
        // The account's sessions go with it (ON DELETE CASCADE), in the same statement.
        await client.query('DELETE FROM accounts WHERE id = $1', [account.id]);
        await writeAudit(client, audit, Date.now());
        return { kind: 'removed' };
      }),

    setAccountRole: async (email, role, now, options = {}, audit) => {
      assertKnownRole(role);
      return transaction<SetAccountRoleResult>(async (client) => {
        const account = await lockAccountToChange(client, email, role, options);
        if (account.kind !== 'found') return account;
        const { rows } = await client.query(`UPDATE accounts SET role = $1, updated_at = $2 WHERE id = $3 RETURNING ${ACCOUNT_COLUMNS}`, [
          role,
          now,
          account.id,
        ]);
        if (role !== account.role) await client.query('DELETE FROM account_sessions WHERE account_id = $1', [account.id]);
        await writeAudit(client, audit, now);
        return { kind: 'changed', account: toAccountRecord(rows[0]!), previousRole: account.role };
      });
    },

    setAccountPassword: (email: string, passwordHash: string, now: number, audit?: AuditEntryInput) =>
      transaction(async (client) => {
        // The row lock this takes makes a sign-in checked against the old hash wait, then find no match.
        const { rows } = await client.query<{ id: string }>(
          'UPDATE accounts SET password_hash = $1, password_changed_at = $2, updated_at = $2 WHERE email = $3 RETURNING id',
          [passwordHash, now, normalizeEmail(email)],
        );
        const id = rows[0]?.id;
        if (id === undefined) return false;
        await client.query('DELETE FROM account_sessions WHERE account_id = $1', [id]);
        await writeAudit(client, audit, now);
        return true;
      }),

    createSession: async (signedIn, app, now) => {
      assertSessionApp(app);
      return transaction<NewSession | undefined>(async (client) => {
        // Sessions nobody looked up again would otherwise stay for ever; each sign-in clears the lapsed ones.
        await client.query('DELETE FROM account_sessions WHERE last_seen_at <= $1', [now - SESSION_IDLE_MS]);
        const { rows } = await client.query(
          `UPDATE accounts SET last_sign_in_at = $1 WHERE email = $2 AND password_hash = $3 RETURNING ${ACCOUNT_COLUMNS}`,
          [now, normalizeEmail(signedIn.email), signedIn.passwordHash],
        );
        const row = rows[0];
        if (row === undefined) return undefined;
        const id = newSessionId();
        await client.query(
          'INSERT INTO account_sessions (id_hash, account_id, app, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)',
          [hashSessionId(id), row.id, app, now],
        );
        return { id, account: toAccountRecord(row), createdAt: now, lastSeenAt: now };
      });
    },

    findSession: async (id: string, app: SessionApp, now: number) => {
      assertSessionApp(app);
      const idHash = hashSessionId(id);
      const [row] = await query(
        `SELECT ${SESSION_COLUMNS} FROM account_sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = $1 AND s.app = $2`,
        [idHash, app],
      );
      if (row === undefined) return undefined;
      const session = toSessionRecord(row);
      switch (judgeSession(session.createdAt, session.lastSeenAt, now)) {
        case 'fresh':
          return session;
        case 'touch':
          await query('UPDATE account_sessions SET last_seen_at = $1 WHERE id_hash = $2 AND last_seen_at < $1', [now, idHash]);
          return { ...session, lastSeenAt: now };
        case 'over':
          await query('DELETE FROM account_sessions WHERE id_hash = $1', [idHash]);
          return undefined;
      }
    },

    endSession: async (id: string, app: SessionApp) => {
      assertSessionApp(app);
      return (
        (await query('DELETE FROM account_sessions WHERE id_hash = $1 AND app = $2 RETURNING id_hash', [hashSessionId(id), app])).length > 0
      );
    },

    endAccountSessions: async (email: string) =>
      (
        await query('DELETE FROM account_sessions WHERE account_id IN (SELECT id FROM accounts WHERE email = $1) RETURNING id_hash', [
          normalizeEmail(email),
        ])
      ).length,

    schemaVersion: async () => {
      const [row] = await query('SELECT MAX(version) AS version FROM schema_migrations');
      return Number(row?.version ?? 0);
    },

    ping: async () => {
      await query('SELECT 1');
    },

    ...notifyMethods,

    openLeadExport: async (leadQuery) => {
      if (closed) throw new Error('The lead store is closed');
      // A connection of its own, outside the pool the leads are taken through, holding one
      // REPEATABLE READ transaction: every page reads the snapshot its first statement took.
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query('SELECT 1 FROM leads LIMIT 1');
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
      const opened = keysetExport(
        async (after, limit) => {
          const { sql, params } = buildLeadPageQuery('postgres', leadQuery, after, limit);
          return toLeadPage((await client.query(sql, params)).rows, limit);
        },
        async () => {
          openExports.delete(opened);
          await client.query('COMMIT').catch(() => {});
          await client.end().catch(() => {});
        },
      );
      openExports.add(opened);
      return opened;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...openExports].map((opened) => opened.close()));
      await pool.end();
    },
  };
}
