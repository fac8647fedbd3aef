import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewLead } from './outbox/outbox-store.ts';
import { openSqliteStore, SQLITE_MIGRATIONS } from './sqlite-store.ts';
import { openSqliteWorkerStore } from './sqlite-worker-store.ts';

// SQLite-only behaviour beside the shared contract (lead-store.test.ts).

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'sqlite-store-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const lead = (id: string): NewLead => ({
  id,
  receivedAt: 1,
  source: 'Homepage Simple Lead Form',
  email: 'a@example.com',
  payload: { lead_id: id },
  spamReason: undefined,
  initialState: 'pending',
});

describe('openSqliteStore', () => {
  it('creates the folder and a WAL-mode database on first start', async () => {
    const file = path.join(folder, 'data', 'leads.sqlite');
    const store = openSqliteStore(file);
    await store.close();
    expect((await stat(file)).isFile()).toBe(true);
    const db = new DatabaseSync(file);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
  });

  it('commits inserts of one event-loop turn together, and a failing one alone fails', async () => {
    const store = openSqliteStore(path.join(folder, 'leads.sqlite'));
    await store.insertLead(lead('taken'));
    const results = await Promise.allSettled([lead('a'), lead('taken'), lead('b')].map((next) => store.insertLead(next)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.listLeads()).map((stored) => stored.id).sort()).toEqual(['a', 'b', 'taken']);
    await store.close();
  });

  it('brings a database made before the accounts up to date, keeping its leads', async () => {
    const file = path.join(folder, 'leads.sqlite');
    await openSqliteStore(file, SQLITE_MIGRATIONS.slice(0, 2)).close();
    // The lead as a server of that version wrote it (today's insert writes columns added since).
    const db = new DatabaseSync(file);
    db.exec(`INSERT INTO leads (id, received_at, source, email, payload) VALUES ('kept', 1, 'Contact Page Form', 'a@example.com', '{}');
      INSERT INTO deliveries (lead_id, state, attempts, updated_at) VALUES ('kept', 'held', 0, 1);`);
    db.close();
    const after = openSqliteStore(file);
    expect(await after.schemaVersion()).toBe(SQLITE_MIGRATIONS.length);
    expect(await after.getLead('kept')).toBeDefined();
    const created = await after.createAccount({ email: 'ana@example.com', role: 'admin', passwordHash: 'scrypt$x', now: 1 });
    expect(created.kind).toBe('created');
    await after.close();
  });

  it('adds the notification tables to a database made before them, and finds its leads', async () => {
    const file = path.join(folder, 'leads.sqlite');
    const before = openSqliteStore(file, SQLITE_MIGRATIONS.slice(0, 4));
    await before.insertLead(lead('kept'));
    await before.close();
    const after = openSqliteStore(file);
    const { newLeads } = await after.readNotifyEvents({ since: 0, limit: 10, newLeads: true });
    expect(newLeads.map((event) => event.leadId)).toEqual(['kept']);
    await after.close();
  });

  it('commits queued inserts before closing', async () => {
    const file = path.join(folder, 'leads.sqlite');
    const store = openSqliteStore(file);
    const inserted = store.insertLead(lead('last'));
    await store.close();
    await expect(inserted).resolves.toEqual({ kind: 'created', id: 'last' });
    const reopened = openSqliteStore(file);
    expect(await reopened.getLead('last')).toBeDefined();
    await reopened.close();
  });
});

describe('openSqliteWorkerStore', () => {
  it('settles every call made around close, so a shutdown that awaits them never hangs', async () => {
    const store = await openSqliteWorkerStore(path.join(folder, 'leads.sqlite'));
    // The outbox loop keeps asking while the server closes the store; each of these must answer or fail.
    const calls: Promise<unknown>[] = [];
    // Each call's outcome is observed at once: the ones made after close reject straight away, and a
    // rejection nobody has handled yet would be reported as unhandled before allSettled reads it.
    const observed = (call: Promise<unknown>) => {
      call.catch(() => {});
      return call;
    };
    const claim = () => observed(store.claimDue({ now: Date.now(), limit: 10, owner: 'test', leaseMs: 60_000 }));
    for (let round = 0; round < 200; round += 1) calls.push(claim());
    const closing = store.close();
    for (let round = 0; round < 200; round += 1) calls.push(claim());
    await closing;
    const outcomes = await Promise.race([
      Promise.allSettled(calls),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000)),
    ]);
    expect(outcomes).not.toBe('still waiting');
    const settled = outcomes as PromiseSettledResult<unknown>[];
    expect(settled.slice(200).every((outcome) => outcome.status === 'rejected')).toBe(true);
  });
});
