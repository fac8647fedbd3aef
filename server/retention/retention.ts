import { SYSTEM_ACTOR, writeWithAudit } from '../../back-office/accounts/audit-trail.ts';
import type { LeadPurgeStore } from '../store/inbox/inbox-store.ts';
import type { PurgeCutoffs } from '../store/inbox/inbox-store.ts';
import { DAY_MS } from '../store/inbox/inbox-store.ts';
import type { JobStore } from '../store/jobs/job-store.ts';
import type { PeriodicJob } from '../jobs/job-runner.ts';

// Retention: the daily job `retention`, run once per UTC day across every server on the store (the
// job runner), deletes leads past LEAD_RETENTION_DAYS and spam past SPAM_RETENTION_DAYS (never a lead
// still to be sent; the store guards that), logs the counts and writes them to the audit log (by
// `system`, through the audit trail every back-office change goes through, in the purge's last
// transaction): one entry a day. It also deletes the job runs older than JOB_RUNS_KEPT_DAYS. A
// server starting on a day not yet purged purges shortly after start; days when no server ran need
// no run of their own, since each run deletes everything past its period at that moment.

export const RETENTION_JOB = 'retention';

export const RETENTION_DEFAULTS = {
  // Long enough for start-up to settle (migrations, the outbox's first claims) before a large purge.
  firstRunDelayMs: 30_000,
} as const;

/** Which server ran which job when is kept this long, then deleted by the purge. */
export const JOB_RUNS_KEPT_DAYS = 30;

export type RetentionPeriods = {
  /** Undefined keeps non-spam leads for ever. */
  readonly leadRetentionDays: number | undefined;
  readonly spamRetentionDays: number;
};

export type RetentionLog = {
  info(fields: object, message: string): void;
};

export type RetentionOptions = RetentionPeriods & {
  readonly store: LeadPurgeStore & Pick<JobStore, 'deleteJobRunsBefore'>;
  /** The app's logger (or any with the same method). */
  readonly log: RetentionLog;
  readonly firstRunDelayMs?: number;
};

/** What a purge at `now` deletes: whatever was received more than the retention period before it. */
export function retentionCutoffs(now: number, { leadRetentionDays, spamRetentionDays }: RetentionPeriods): PurgeCutoffs {
  return {
    leadsReceivedBefore: leadRetentionDays === undefined ? undefined : now - leadRetentionDays * DAY_MS,
    spamReceivedBefore: now - spamRetentionDays * DAY_MS,
  };
}

/** The daily purge, for the job runner. A purge that fails throws: the runner logs it and tries again later that day. */
export function retentionJob(options: RetentionOptions): PeriodicJob {
  const { store, log, firstRunDelayMs = RETENTION_DEFAULTS.firstRunDelayMs } = options;
  return {
    name: RETENTION_JOB,
    period: 'day',
    firstRunDelayMs,
    async run({ at }) {
      const { leads, spam } = await writeWithAudit(
        store,
        'purgeExpired',
        [retentionCutoffs(at, options)],
        { actor: SYSTEM_ACTOR, at },
        // "3 leads, 1 spam", worded by the store from the counts, in the purge's last transaction.
        { action: 'retention.purge', describe: 'purge-counts' },
      );
      log.info({ leads, spam }, 'retention: deleted expired leads');
      await store.deleteJobRunsBefore(at - JOB_RUNS_KEPT_DAYS * DAY_MS);
    },
  };
}
