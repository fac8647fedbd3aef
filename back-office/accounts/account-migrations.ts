import type { ConcernMigrations } from '../database/migrations.ts';

// The accounts table: each engine's steps, each tagged with the lead database's schema version it came
// in. server/store/lead-schema.ts names the versions and runs a version's steps of every concern
// together. Never edit a released step: a change is a new step under the next version.

export const ACCOUNT_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      // Back-office accounts (their sessions are the sessions concern's, in the same version).
      version: 3,
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
    `,
    },
  ],
  postgres: [
    {
      // Back-office accounts (their sessions are the sessions concern's, in the same version).
      version: 3,
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
    `,
    },
  ],
};
