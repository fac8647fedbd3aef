import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { DAY_MS } from '../store/inbox/inbox-store.ts';
import { sqliteHarness } from '../testing/store-harness.ts';
import type { StoreDatabase } from '../testing/store-harness.ts';
import { RETENTION_DEFAULTS, retentionCutoffs, startRetention } from './retention.ts';
import type { RetentionLog, RetentionOptions } from './retention.ts';

// The daily purge on fake time against a real SQLite store: when it runs, what it deletes, what it
// logs and writes to the audit log, and that it stops with the app.

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

describe('startRetention', () => {
  let database: StoreDatabase;
  let store: Database;
  const logged: { fields: unknown; message: string }[] = [];
  const log: RetentionLog = {
    info: (fields, message) => logged.push({ fields, message }),
    error: (fields, message) => logged.push({ fields, message }),
  };

  beforeEach(async () => {
    logged.length = 0;
    database = await sqliteHarness.createDatabase();
    store = await database.open();
    // Only timers and the clock are faked: the store's group commit runs on setImmediate.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await database.remove();
  });

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
    const youngerSpam = newLead({ receivedAt: T0 - 29 * DAY_MS - 1, initialState: 'spam', spamReason: 'honeypot' });
    await deliver(oldLead);
    for (const lead of [oldWaiting, oldSpam, youngerSpam]) await store.insertLead(lead);

    const retention = startRetention({ store, log, leadRetentionDays: 365, spamRetentionDays: 30 });
    try {
      await vi.advanceTimersByTimeAsync(RETENTION_DEFAULTS.firstRunDelayMs - 1);
      expect(await store.getLead(oldSpam.id)).toBeDefined();

      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(async () => expect((await store.listAudit(undefined, 10)).entries).toHaveLength(1));
      expect((await store.listLeads()).map((lead) => lead.id).sort()).toEqual([oldWaiting.id, youngerSpam.id].sort());
      expect(logged).toContainEqual({ fields: { leads: 1, spam: 1 }, message: 'retention: deleted expired leads' });
      expect((await store.listAudit(undefined, 10)).entries[0]).toMatchObject({
        at: T0 + RETENTION_DEFAULTS.firstRunDelayMs,
        actor: 'system',
        action: 'retention.purge',
        detail: '1 leads, 1 spam',
      });

      // A day later the younger spam has passed 30 days too.
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
    const retention = startRetention({ store, log, leadRetentionDays: undefined, spamRetentionDays: 30 });
    await vi.advanceTimersByTimeAsync(RETENTION_DEFAULTS.firstRunDelayMs);
    await vi.waitFor(async () => expect((await store.listAudit(undefined, 10)).entries).toHaveLength(1));
    expect(await store.listLeads()).toHaveLength(1);
    await retention.stop();
    await retention.stop();

    const stoppedEarly = startRetention({ store, log, leadRetentionDays: 1, spamRetentionDays: 30 });
    await stoppedEarly.stop();
    await vi.advanceTimersByTimeAsync(2 * DAY_MS);
    expect(await store.listLeads()).toHaveLength(1);
  });

  it('logs a purge that fails and tries again the next day', async () => {
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
    };
    const retention = startRetention({ store: failing, log, leadRetentionDays: undefined, spamRetentionDays: 30 });
    try {
      await vi.advanceTimersByTimeAsync(RETENTION_DEFAULTS.firstRunDelayMs);
      expect(logged.map((entry) => entry.message)).toEqual(['retention: could not delete expired leads']);
      await vi.advanceTimersByTimeAsync(DAY_MS);
      await vi.waitFor(async () => expect((await store.listAudit(undefined, 10)).entries).toMatchObject([{ detail: '0 leads, 2 spam' }]));
    } finally {
      await retention.stop();
    }
  });
});
