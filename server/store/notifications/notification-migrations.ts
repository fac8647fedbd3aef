import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The notifier's tables: each engine's steps, each tagged with the lead database's schema version it came
// in. server/store/lead-schema.ts names the versions and runs a version's steps of every concern
// together. Never edit a released step: a change is a new step under the next version.

export const NOTIFICATION_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      // The notifier's tables: its outbox (one row per event and channel, the key unique so two processes
      // never send one event twice), its watermark, the open incident (open_slot is 1 only while open, and
      // unique, so at most one is open) and each form's new-lead e-mail switch. The two indexes let it read
      // the CRM's delivery record and the leads that settled without scanning either table.
      version: 5,
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
    },
    {
      // Who asked for the weekly summary by e-mail (opt-in, per account; no row: not asked).
      version: 10,
      sql: `
      CREATE TABLE weekly_summary_choices (
        account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
        enabled INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
    },
  ],
  postgres: [
    {
      // The notifier's tables: its outbox (one row per event and channel, the key unique so two processes
      // never send one event twice), its watermark, the open incident (open_slot is 1 only while open, and
      // unique, so at most one is open) and each form's new-lead e-mail switch. The two indexes let it read
      // the CRM's delivery record and the leads that settled without scanning either table.
      version: 5,
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
    },
    {
      // Who asked for the weekly summary by e-mail (opt-in, per account; no row: not asked).
      version: 10,
      sql: `
      CREATE TABLE weekly_summary_choices (
        account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
        enabled BOOLEAN NOT NULL,
        updated_at BIGINT NOT NULL
      );
    `,
    },
  ],
};
