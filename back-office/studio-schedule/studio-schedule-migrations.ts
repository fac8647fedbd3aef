import type { ConcernMigrations } from '../database/migrations.ts';

// The content studio's schedule: each engine's steps, each tagged with the lead database's schema
// version it came in. server/store/lead-schema.ts names the versions and runs a version's steps of
// every concern together. Never edit a released step: a change is a new step under the next version.
//
// One row per scheduled publish. `seq` keeps the order they were scheduled in; `record` holds the
// whole entry (pages, texts, base versions, who approved); the other columns say the same facts for
// reading the table and finding what is waiting.

export const STUDIO_SCHEDULE_MIGRATIONS: ConcernMigrations = {
  sqlite: [
    {
      version: 11,
      sql: `
      CREATE TABLE studio_schedule (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        run_at TEXT NOT NULL,
        status TEXT NOT NULL,
        scheduled_by TEXT NOT NULL,
        scheduled_at TEXT NOT NULL,
        started_at TEXT,
        record TEXT NOT NULL
      );
      CREATE INDEX studio_schedule_status_run_at ON studio_schedule (status, run_at);
`,
    },
  ],
  postgres: [
    {
      version: 11,
      sql: `
      CREATE TABLE studio_schedule (
        seq BIGSERIAL PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        run_at TEXT NOT NULL,
        status TEXT NOT NULL,
        scheduled_by TEXT NOT NULL,
        scheduled_at TEXT NOT NULL,
        started_at TEXT,
        record TEXT NOT NULL
      );
      CREATE INDEX studio_schedule_status_run_at ON studio_schedule (status, run_at);
`,
    },
  ],
};
