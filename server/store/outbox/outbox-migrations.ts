import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The outbox's tables: each engine's steps, each tagged with the lead database's schema version it came
// in. server/store/lead-schema.ts names the versions and runs a version's steps of every concern
// together. Never edit a released step: a change is a new step under the next version.

export const OUTBOX_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      // The leads, each one's delivery to the CRM and every attempt at it.
      version: 1,
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
      // The body hash that came with each Idempotency-Key.
      version: 2,
      sql: `ALTER TABLE leads ADD COLUMN idempotency_body_hash TEXT;`,
    },
  ],
  postgres: [
    {
      // The leads, each one's delivery to the CRM and every attempt at it.
      version: 1,
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
      // The body hash that came with each Idempotency-Key.
      version: 2,
      sql: `ALTER TABLE leads ADD COLUMN idempotency_body_hash TEXT;`,
    },
  ],
};
