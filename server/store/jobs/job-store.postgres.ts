import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import { jobRunFromRow, unclaimedFrom } from './job-rows.ts';
import type { JobStore } from './job-store.ts';
import {
  CLAIM_JOB_RUN,
  DELETE_JOB_RUNS_BEFORE,
  FINISH_JOB_RUN,
  LIST_ALL_JOB_RUNS,
  LIST_JOB_RUNS,
  READ_JOB_RUN,
  RELEASE_JOB_RUN,
  RENEW_JOB_RUN,
} from './job-sql.ts';

// The jobs' runs in PostgreSQL: the claim is one statement. Two servers inserting the same run at
// once: the second waits for the first's row, then re-checks the condition against it and finds a
// live lease, so exactly one of them gets it.

export function postgresJobs(c: PostgresStoreContext): JobStore {
  const { query, transaction } = c;

  async function changed(sql: string, params: unknown[]): Promise<boolean> {
    return (await query(sql, params)).length > 0;
  }

  return {
    claimJobRun: async ({ job, period, holder, now, leaseMs }) => {
      const [claimed] = await query<{ attempts: number }>(CLAIM_JOB_RUN.postgres, [job, period, holder, now, now + leaseMs, now]);
      if (claimed !== undefined) return { outcome: 'claimed', attempts: Number(claimed.attempts) };
      const [row] = await query(READ_JOB_RUN.postgres, [job, period]);
      return unclaimedFrom(row);
    },
    renewJobRun: ({ job, period, holder, now, leaseMs }) => changed(RENEW_JOB_RUN.postgres, [now + leaseMs, job, period, holder]),
    finishJobRun: ({ job, period, holder, now }) => changed(FINISH_JOB_RUN.postgres, [now, now, job, period, holder]),
    releaseJobRun: ({ job, period, holder, now }) => changed(RELEASE_JOB_RUN.postgres, [now, job, period, holder]),
    listJobRuns: async (job) =>
      (job === undefined ? await query(LIST_ALL_JOB_RUNS.postgres) : await query(LIST_JOB_RUNS.postgres, [job])).map(jobRunFromRow),
    deleteJobRunsBefore: (before) =>
      transaction(async (client) => (await client.query(DELETE_JOB_RUNS_BEFORE.postgres, [before])).rowCount ?? 0),
  };
}
