import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
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

// The jobs' runs in SQLite: each claim is one BEGIN IMMEDIATE transaction, so two processes on one
// file take a run one after the other and the second finds the first's lease. Claims are
// bookkeeping: a power cut that loses one only lets the run happen again, which every job allows.

export function sqliteJobs(c: SqliteStoreContext): JobStore {
  const { get, all, run, transaction, ifOpen } = c;
  return {
    claimJobRun: ifOpen(({ job, period, holder, now, leaseMs }) =>
      transaction(() => {
        const claimed = get(CLAIM_JOB_RUN.sqlite, job, period, holder, now, now + leaseMs, now);
        if (claimed !== undefined) return { outcome: 'claimed' as const, attempts: Number(claimed.attempts) };
        return unclaimedFrom(get(READ_JOB_RUN.sqlite, job, period));
      }, 'bookkeeping'),
    ),
    renewJobRun: ifOpen(({ job, period, holder, now, leaseMs }) =>
      transaction(() => all(RENEW_JOB_RUN.sqlite, now + leaseMs, job, period, holder).length > 0, 'bookkeeping'),
    ),
    finishJobRun: ifOpen(({ job, period, holder, now }) =>
      transaction(() => all(FINISH_JOB_RUN.sqlite, now, now, job, period, holder).length > 0),
    ),
    releaseJobRun: ifOpen(({ job, period, holder, now }) =>
      transaction(() => all(RELEASE_JOB_RUN.sqlite, now, job, period, holder).length > 0, 'bookkeeping'),
    ),
    listJobRuns: ifOpen((job?: string) =>
      (job === undefined ? all(LIST_ALL_JOB_RUNS.sqlite) : all(LIST_JOB_RUNS.sqlite, job)).map(jobRunFromRow),
    ),
    deleteJobRunsBefore: ifOpen((before: number) => transaction(() => run(DELETE_JOB_RUNS_BEFORE.sqlite, before))),
  };
}
