import type { JobClaim, JobRunRecord } from './job-store.ts';

// Rows of job_runs as both engines read them (PostgreSQL's BIGINT arrives as text).

export function jobRunFromRow(row: Record<string, unknown>): JobRunRecord {
  return {
    job: String(row.job),
    period: String(row.period),
    holder: String(row.holder),
    state: row.state === 'done' ? 'done' : 'running',
    startedAt: Number(row.started_at),
    leaseUntil: Number(row.lease_until),
    finishedAt: row.finished_at === null || row.finished_at === undefined ? undefined : Number(row.finished_at),
    attempts: Number(row.attempts),
  };
}

/** Why a claim that took nothing took nothing, from the row as it is now. */
export function unclaimedFrom(row: Record<string, unknown> | undefined): JobClaim {
  // The row went between the two statements (deleted as long finished): nothing is due from this claim.
  if (row === undefined || row.state === 'done') return { outcome: 'done' };
  return { outcome: 'held', holder: String(row.holder), leaseUntil: Number(row.lease_until) };
}
