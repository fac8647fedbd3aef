import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The background jobs' runs: each engine's steps, each tagged with the lead database's schema version
// it came in. server/store/lead-schema.ts names the versions and runs a version's steps of every
// concern together. Never edit a released step: a change is a new step under the next version.
//
// One row per job and period ("retention" on "2026-11-28", "analytics-forgetting" on
// "2026-11-28T14"): the process that inserts it (or takes it over once its holder's lease lapsed)
// runs that period's work, so several servers on one database run each job once per period.

const JOB_RUNS = `
      CREATE TABLE job_runs (
        job TEXT NOT NULL,
        period TEXT NOT NULL,
        holder TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'done')),
        started_at BIGINT NOT NULL,
        lease_until BIGINT NOT NULL,
        finished_at BIGINT,
        attempts INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (job, period)
      );
`;

export const JOB_MIGRATIONS: ConcernMigrations = {
  sqlite: [{ version: 11, sql: JOB_RUNS }],
  postgres: [{ version: 11, sql: JOB_RUNS }],
};
