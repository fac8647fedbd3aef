import type { ConcernMigrations } from '../database/migrations.ts';

// The sign-in limits' tables: each engine's steps, each tagged with the lead database's schema version it came
// in. server/store/lead-schema.ts names the versions and runs a version's steps of every concern
// together. Never edit a released step: a change is a new step under the next version.

export const SIGN_IN_LIMIT_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      // Sign-in attempts, one row per key an attempt counts under (its id names the attempt's rows), and
      // the account+address keys that signed in, with when: the limits are kept here so the console, the
      // studio and every server process on this database count together.
      version: 7,
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
    },
  ],
  postgres: [
    {
      // Sign-in attempts, one row per key an attempt counts under (its id names the attempt's rows), and
      // the account+address keys that signed in, with when: the limits are kept here so the console, the
      // studio and every server process on this database count together.
      version: 7,
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
    },
  ],
};
