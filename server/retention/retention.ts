import { SYSTEM_ACTOR, writeWithAudit } from '../../back-office/accounts/audit-trail.ts';
import type { LeadPurgeStore } from '../store/inbox/inbox-store.ts';
import type { PurgeCutoffs } from '../store/inbox/inbox-store.ts';
import { DAY_MS } from '../store/inbox/inbox-store.ts';
import { repeat, type Repeating } from '../schedule/repeat.ts';

// Retention: once shortly after start and then every day, leads past LEAD_RETENTION_DAYS and spam
// past SPAM_RETENTION_DAYS are deleted (never a lead still to be sent; the store guards that), the
// counts are logged and written to the audit log (by `system`, through the audit trail every
// back-office change goes through, in the purge's last transaction). Several servers on one store
// each run it; a second run the same day finds nothing left to delete.

export const RETENTION_DEFAULTS = {
  // Long enough for start-up to settle (migrations, the outbox's first claims) before a large purge.
  firstRunDelayMs: 30_000,
  intervalMs: DAY_MS,
} as const;

export type RetentionPeriods = {
  /** Undefined keeps non-spam leads for ever. */
  readonly leadRetentionDays: number | undefined;
  readonly spamRetentionDays: number;
};

export type RetentionLog = {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
};

export type RetentionOptions = RetentionPeriods & {
  readonly store: LeadPurgeStore;
  /** The app's logger (or any with the same two methods). */
  readonly log: RetentionLog;
  readonly now?: () => number;
  readonly firstRunDelayMs?: number;
  readonly intervalMs?: number;
};

export type Retention = Repeating;

/** What a purge at `now` deletes: whatever was received more than the retention period before it. */
export function retentionCutoffs(now: number, { leadRetentionDays, spamRetentionDays }: RetentionPeriods): PurgeCutoffs {
  return {
    leadsReceivedBefore: leadRetentionDays === undefined ? undefined : now - leadRetentionDays * DAY_MS,
    spamReceivedBefore: now - spamRetentionDays * DAY_MS,
  };
}

export function startRetention(options: RetentionOptions): Retention {
  const {
    store,
    log,
    now = Date.now,
    firstRunDelayMs = RETENTION_DEFAULTS.firstRunDelayMs,
    intervalMs = RETENTION_DEFAULTS.intervalMs,
  } = options;

  async function purge(): Promise<void> {
    const at = now();
    try {
      const { leads, spam } = await writeWithAudit(
        store,
        'purgeExpired',
        [retentionCutoffs(at, options)],
        { actor: SYSTEM_ACTOR, at },
        // "3 leads, 1 spam", worded by the store from the counts, in the purge's last transaction.
        { action: 'retention.purge', describe: 'purge-counts' },
      );
      log.info({ leads, spam }, 'retention: deleted expired leads');
    } catch (error) {
      // Tomorrow's run tries again; nothing is lost by waiting.
      log.error({ err: error }, 'retention: could not delete expired leads');
    }
  }

  return repeat(purge, { firstDelayMs: firstRunDelayMs, intervalMs });
}
