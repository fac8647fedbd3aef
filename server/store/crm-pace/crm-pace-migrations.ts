import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The CRM pace's table: each engine's steps, each tagged with the lead database's schema version it came
// in. server/store/lead-schema.ts names the versions and runs a version's steps of every concern
// together. Never edit a released step: a change is a new step under the next version.

export const CRM_PACE_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      // The CRM pace's one row of grants (the inbox's columns and the audit log came in the same version).
      version: 4,
      sql: `
      CREATE TABLE crm_pace (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        grants TEXT NOT NULL
      );
      INSERT INTO crm_pace (id, grants) VALUES (1, '[]');
    `,
    },
  ],
  postgres: [
    {
      // The CRM pace's one row of grants (the inbox's columns and the audit log came in the same version).
      version: 4,
      sql: `
      CREATE TABLE crm_pace (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        grants TEXT NOT NULL
      );
      INSERT INTO crm_pace (id, grants) VALUES (1, '[]');
    `,
    },
  ],
};
