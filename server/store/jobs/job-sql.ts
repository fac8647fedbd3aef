import { sharedSql } from '../../../back-office/database/shared-sql.ts';

// The jobs' statements, the same on both engines but for placeholders: both take the upsert with a
// condition (`ON CONFLICT … DO UPDATE … WHERE`) and RETURNING as written. A change of one run
// returns its job, so either engine tells whether it changed a row from the rows it got back.

/**
 * A new run, or the takeover of one still running whose lease lapsed; nothing for a finished run or
 * a live lease. Parameters: job, period, holder, now, lease end, now (the lapse test).
 * On PostgreSQL a second claimer racing on the same row waits for the first's commit and then
 * finds its lease live; SQLite's write lock serialises them.
 */
export const CLAIM_JOB_RUN = sharedSql(`
  INSERT INTO job_runs (job, period, holder, state, started_at, lease_until, finished_at, attempts)
  VALUES (?, ?, ?, 'running', ?, ?, NULL, 1)
  ON CONFLICT (job, period) DO UPDATE SET
    holder = excluded.holder,
    started_at = excluded.started_at,
    lease_until = excluded.lease_until,
    attempts = job_runs.attempts + 1
  WHERE job_runs.state = 'running' AND job_runs.lease_until <= ?
  RETURNING attempts`);

export const READ_JOB_RUN = sharedSql('SELECT holder, state, lease_until FROM job_runs WHERE job = ? AND period = ?');

/** Parameters: lease end, job, period, holder. */
export const RENEW_JOB_RUN = sharedSql(
  `UPDATE job_runs SET lease_until = ? WHERE job = ? AND period = ? AND holder = ? AND state = 'running' RETURNING job`,
);

/** Parameters: now, now, job, period, holder. */
export const FINISH_JOB_RUN = sharedSql(
  `UPDATE job_runs SET state = 'done', finished_at = ?, lease_until = ? WHERE job = ? AND period = ? AND holder = ? AND state = 'running' RETURNING job`,
);

/** Parameters: now, job, period, holder. */
export const RELEASE_JOB_RUN = sharedSql(
  `UPDATE job_runs SET lease_until = ? WHERE job = ? AND period = ? AND holder = ? AND state = 'running' RETURNING job`,
);

const COLUMNS = 'job, period, holder, state, started_at, lease_until, finished_at, attempts';
export const LIST_JOB_RUNS = sharedSql(`SELECT ${COLUMNS} FROM job_runs WHERE job = ? ORDER BY period, job`);
export const LIST_ALL_JOB_RUNS = sharedSql(`SELECT ${COLUMNS} FROM job_runs ORDER BY period, job`);

export const DELETE_JOB_RUNS_BEFORE = sharedSql('DELETE FROM job_runs WHERE lease_until < ?');
