// The lead database's migrations as they were released, when each engine's whole list was written in
// one place (server/store/sqlite-store.ts, server/store/postgres-store.ts). Kept, never edited, so
// server/store/migrations.test.ts can prove the lists gathered from the concerns' steps run the same
// statements in the same order and leave the same schema at every version.

import type { Migration } from '../../back-office/database/migrations.ts';

// The notifier's tables: its outbox (one row per event and channel, the key unique so two processes
// never send one event twice), its watermark, the open incident (open_slot is 1 only while open, and
// unique, so at most one is open) and each form's new-lead e-mail switch. The two indexes let it read
// the CRM's delivery record and the leads that settled without scanning either table.
const SQLITE_NOTIFY_MIGRATION_AS_RELEASED: Migration = {
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
const SQLITE_SESSION_APP_MIGRATION_AS_RELEASED: Migration = {
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
const SQLITE_SIGN_IN_LIMITS_MIGRATION_AS_RELEASED: Migration = {
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
const SQLITE_NOT_SPAM_MIGRATION_AS_RELEASED: Migration = {
  version: 8,
  name: 'an index of the leads that are not spam, newest first',
  sql: `CREATE INDEX deliveries_not_spam_newest ON deliveries (received_at, lead_id) WHERE state <> 'spam';`,
};

export const SQLITE_MIGRATIONS_AS_RELEASED: readonly Migration[] = [
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
  SQLITE_NOTIFY_MIGRATION_AS_RELEASED,
  SQLITE_SESSION_APP_MIGRATION_AS_RELEASED,
  SQLITE_SIGN_IN_LIMITS_MIGRATION_AS_RELEASED,
  SQLITE_NOT_SPAM_MIGRATION_AS_RELEASED,
];

// The notifier's tables: its outbox (one row per event and channel, the key unique so two processes
// never send one event twice), its watermark, the open incident (open_slot is 1 only while open, and
// unique, so at most one is open) and each form's new-lead e-mail switch. The two indexes let it read
// the CRM's delivery record and the leads that settled without scanning either table.
const POSTGRES_NOTIFY_MIGRATION_AS_RELEASED: Migration = {
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
const POSTGRES_SESSION_APP_MIGRATION_AS_RELEASED: Migration = {
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
const POSTGRES_SIGN_IN_LIMITS_MIGRATION_AS_RELEASED: Migration = {
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
const POSTGRES_NOT_SPAM_MIGRATION_AS_RELEASED: Migration = {
  version: 8,
  name: 'an index of the leads that are not spam, newest first',
  sql: `CREATE INDEX deliveries_not_spam_newest ON deliveries (received_at, lead_id) WHERE state <> 'spam';`,
};

export const POSTGRES_MIGRATIONS_AS_RELEASED: readonly Migration[] = [
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
  POSTGRES_NOTIFY_MIGRATION_AS_RELEASED,
  POSTGRES_SESSION_APP_MIGRATION_AS_RELEASED,
  POSTGRES_SIGN_IN_LIMITS_MIGRATION_AS_RELEASED,
  POSTGRES_NOT_SPAM_MIGRATION_AS_RELEASED,
];
