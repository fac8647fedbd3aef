import type { ConcernMigrations } from '../database/migrations.ts';

// The sessions table: each engine's steps, each tagged with the lead database's schema version it came
// in. server/store/lead-schema.ts names the versions and runs a version's steps of every concern
// together. Never edit a released step: a change is a new step under the next version.

export const SESSION_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      // The accounts' sessions, after the accounts they refer to (the accounts concern's step of this version).
      version: 3,
      sql: `
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
      // Each session names the app that started it ('console' or 'studio'), which alone accepts it.
      // Sessions started before there was a column to say so are ended: their people sign in again.
      version: 6,
      sql: `
    DELETE FROM account_sessions;
    ALTER TABLE account_sessions ADD COLUMN app TEXT NOT NULL CHECK (app IN ('console', 'studio'));
  `,
    },
  ],
  postgres: [
    {
      // The accounts' sessions, after the accounts they refer to (the accounts concern's step of this version).
      version: 3,
      sql: `
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
      // Each session names the app that started it ('console' or 'studio'), which alone accepts it.
      // Sessions started before there was a column to say so are ended: their people sign in again.
      version: 6,
      sql: `
    DELETE FROM account_sessions;
    ALTER TABLE account_sessions ADD COLUMN app TEXT NOT NULL CHECK (app IN ('console', 'studio'));
  `,
    },
  ],
};
