import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The audit log: each engine's steps, each tagged with the lead database's schema version it came
// in. server/store/lead-schema.ts names the versions and runs a version's steps of every concern
// together. Never edit a released step: a change is a new step under the next version.

export const AUDIT_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      // The audit log, newest first (the inbox's columns and the CRM pace came in the same version).
      version: 4,
      sql: `
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE INDEX audit_log_newest ON audit_log (at, id);
    `,
    },
  ],
  postgres: [
    {
      // The audit log, newest first (the inbox's columns and the CRM pace came in the same version).
      version: 4,
      sql: `
      CREATE TABLE audit_log (
        id BIGSERIAL PRIMARY KEY,
        at BIGINT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE INDEX audit_log_newest ON audit_log (at, id);
    `,
    },
  ],
};
