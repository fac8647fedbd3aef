import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { DAY_MS } from '../store/inbox/inbox-store.ts';
import { sqliteHarness } from '../testing/store-harness.ts';
import type { StoreDatabase } from '../testing/store-harness.ts';
import { createJobRunner, type JobLog, type JobRunner } from '../jobs/job-runner.ts';
import { JOB_RUNS_KEPT_DAYS, RETENTION_DEFAULTS, RETENTION_JOB, retentionCutoffs, retentionJob } from './retention.ts';
import type { RetentionOptions } from './retention.ts';

// The daily purge on fake time against a real SQLite store, run by the job runner as the server runs
// it: when it runs, what it deletes, what it logs and writes to the audit log, and that it stops with
// the app.

const T0 = Date.UTC(2025, 5, 1, 6, 0, 0);

let sequence = 0;
function newLead(overrides: Partial<NewLead>): NewLead {
  sequence += 1;
  return {
    id: `lead-${sequence}`,
    receivedAt: T0,
    source: 'Contact Page Form',
    email: `person${sequence}@example.com`,
    payload: { name: 'Ana' },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

describe('retentionCutoffs', () => {
  it('keeps leads for ever without LEAD_RETENTION_DAYS, and spam for its own period', () => {
    expect(retentionCutoffs(T0, { leadRetentionDays: undefined, spamRetentionDays: 30 })).toEqual({
      leadsReceivedBefore: undefined,
      spamReceivedBefore: T0 - 30 * DAY_MS,
    });
    expect(retentionCutoffs(T0, { leadRetentionDays: 365, spamRetentionDays: 7 })).toEqual({
      leadsReceivedBefore: T0 - 365 * DAY_MS,
      spamReceivedBefore: T0 - 7 * DAY_MS,
    });
  });
});

describe('the retention job', () => {
  let database: StoreDatabase;
  let store: Database;
  const logged: { fields: unknown; message: string }[] = [];
  const log: JobLog = {
    info: (fields, message) => logged.push({ fields, message }),
    warn: (fields, message) => logged.push({ fields, message }),
    error: (fields, message) => logged.push({ fields, message }),
  };
  const messages = () => logged.map((entry) => entry.message);

  beforeEach(async () => {
    logged.length = 0;
    database = await sqliteHarness.createDatabase();
    store = await database.open();
    // Only timers and the clock are faked: the store's group commit runs on setImmediate.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await database.remove();
  });

  function start(options: Omit<RetentionOptions, 'store' | 'log'> & { store?: RetentionOptions['store'] }): JobRunner {
    const runner = createJobRunner({ store, log, holder: 'test' });
    runner.periodic(retentionJob({ store, log, ...options }));
    return runner;
  }

  async function deliver(lead: NewLead): Promise<void> {
    await store.insertLead(lead);
    await store.claimDue({ now: T0, limit: 1, owner: 'w1', leaseMs: 60_000 });
    await store.recordResults([
      {
        leadId: lead.id,
        owner: 'w1',
        attempt: { attemptedAt: T0, durationMs: 5, status: 200, responseBody: 'ok', error: undefined },
        nextState: 'delivered',
        nextAttemptAt: undefined,
      },
    ]);
  }

  it('purges shortly after start and then daily, logging the counts and writing them to the audit log', async () => {
    const oldLead = newLead({ receivedAt: T0 - 400 * DAY_MS });
    const oldWaiting = newLead({ receivedAt: T0 - 400 * DAY_MS, initialState: 'held' });
    const oldSpam = newLead({ receivedAt: T0 - 31 * DAY_MS, initialState: 'spam', spamReason: 'honeypot' });
    // Received on 2 May at 23:00: past 30 days at the next day's run, at midnight.
    const youngerSpam = newLead({ receivedAt: T0 - 29 * DAY_MS - 7 * 3_600_000, initialState: 'spam', spamReason: 'honeypot' });
    await deliver(oldLead);
    for (const lead of [oldWaiting, oldSpam, youngerSpam]) await store.insertLead(lead);

    const retention = start({ leadRetentionDays: 365, spamRetentionDays: 30 });
    try {
      await vi.advanceTimersByTimeAsync(RETENTION_DEFAULTS.firstRunDelayMs - 1);
      expect(await store.getLead(oldSpam.id)).toBeDefined();

      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(async () => expect((await store.listAudit(undefined, 10)).entries).toHaveLength(1));
      expect((await store.listLeads()).map((lead) => lead.id).sort()).toEqual([oldWaiting.id, youngerSpam.id].sort());
      expect(logged).toContainEqual({ fields: { leads: 1, spam: 1 }, message: 'retention: deleted expired leads' });
      expect(logged).toContainEqual({
        fields: expect.objectContaining({ job: RETENTION_JOB, period: '2025-06-01' }),
        message: 'job run finished',
      });
      expect((await store.listAudit(undefined, 10)).entries[0]).toMatchObject({
        at: T0 + RETENTION_DEFAULTS.firstRunDelayMs,
        actor: 'system',
        action: 'retention.purge',
        detail: '1 leads, 1 spam',
      });

      // A restart the same day purges nothing more: the day's run is done.
      const restarted = start({ leadRetentionDays: 365, spamRetentionDays: 30 });
      await vi.advanceTimersByTimeAsync(RETENTION_DEFAULTS.firstRunDelayMs + 60_000);
      await restarted.stop();
      expect((await store.listAudit(undefined, 10)).entries).toHaveLength(1);

      // The next day's run, at its start, finds the younger spam past 30 days too.
      await vi.advanceTimersByTimeAsync(DAY_MS);
      await vi.waitFor(async () => expect((await store.listAudit(undefined, 10)).entries).toHaveLength(2));
      expect((await store.listAudit(undefined, 10)).entries[0]).toMatchObject({ detail: '0 leads, 1 spam' });
      expect((await store.listLeads()).map((lead) => lead.id)).toEqual([oldWaiting.id]);
    } finally {
      await retention.stop();
    }
    await vi.advanceTimersByTimeAsync(3 * DAY_MS);
    expect((await store.listAudit(undefined, 10)).entries).toHaveLength(2);
  });

  it('keeps every lead but spam when LEAD_RETENTION_DAYS is unset, and never runs once stopped', async () => {
    await deliver(newLead({ receivedAt: T0 - 4_000 * DAY_MS }));
    const retention = start({ leadRetentionDays: undefined, spamRetentionDays: 30 });
    await vi.advanceTimersByTimeAsync(RETENTION_DEFAULTS.firstRunDelayMs);
    await vi.waitFor(async () => expect((await store.listAudit(undefined, 10)).entries).toHaveLength(1));
    expect(await store.listLeads()).toHaveLength(1);
    await retention.stop();
    await retention.stop();

    const stoppedEarly = start({ leadRetentionDays: 1, spamRetentionDays: 30 });
    await stoppedEarly.stop();
    await vi.advanceTimersByTimeAsync(2 * DAY_MS);
    expect(await store.listLeads()).toHaveLength(1);
  });

  it('logs a purge that fails and tries again later that day', async () => {
    for (const receivedAt of [T0 - 31 * DAY_MS, T0 - 32 * DAY_MS]) {
      await store.insertLead(newLead({ receivedAt, initialState: 'spam', spamReason: 'honeypot' }));
    }
    let calls = 0;
    // The store writes the purge's entry itself, so the second run purges (and records) for real.
    const failing: RetentionOptions['store'] = {
      purgeExpired: async (cutoffs, audit) => {
        calls += 1;
        if (calls === 1) throw new Error('The lead store is briefly unavailable');
        return store.purgeExpired(cutoffs, audit);
      },
      deleteJobRunsBefore: (before) => store.deleteJobRunsBefore(before),
    };
    const retention = start({ store: failing, leadRetentionDays: undefined, spamRetentionDays: 30 });
    try {
      await vi.advanceTimersByTimeAsync(RETENTION_DEFAULTS.firstRunDelayMs);
      await vi.waitFor(() => expect(messages()).toEqual(['job run failed; it is tried again shortly']));
      // Tried again within a quarter of the day, not the next day.
      await vi.advanceTimersByTimeAsync(DAY_MS / 4);
      await vi.waitFor(async () => expect((await store.listAudit(undefined, 10)).entries).toMatchObject([{ detail: '0 leads, 2 spam' }]));
    } finally {
      await retention.stop();
    }
  });

  it('deletes the job runs older than the days they are kept, with the purge', async () => {
    await store.claimJobRun({
      job: 'spam-daily',
      period: 'long ago',
      holder: 'old',
      now: T0 - (JOB_RUNS_KEPT_DAYS + 1) * DAY_MS,
      leaseMs: 1,
    });
    await store.claimJobRun({
      job: 'spam-daily',
      period: 'lately',
      holder: 'old',
      now: T0 - (JOB_RUNS_KEPT_DAYS - 1) * DAY_MS,
      leaseMs: 1,
    });
    const retention = start({ leadRetentionDays: undefined, spamRetentionDays: 30 });
    try {
      await vi.advanceTimersByTimeAsync(RETENTION_DEFAULTS.firstRunDelayMs);
      await vi.waitFor(() => expect(messages()).toContain('job run finished'));
      expect((await store.listJobRuns()).map((row) => row.period)).toEqual(['2025-06-01', 'lately']);
    } finally {
      await retention.stop();
    }
  });
});
