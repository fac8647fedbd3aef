import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeWithAudit, type Acting } from '../../../back-office/accounts/audit-trail.ts';
import { addAccount, changeAccountRole } from '../../../back-office/accounts/operations.ts';
import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import { eraseLeadsByEmail, markLeadSpam, retryEveryFailed } from '../../leads/operations.ts';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';
import type { NewLead } from '../outbox/outbox-store.ts';

// A mutating method given an audit entry writes it in the same transaction as its change: after the
// call the entry is in the log when the change happened, absent when nothing changed, and a failing
// entry (here one without an actor, which the log's NOT NULL refuses) takes the change back with it.
// The same holds through the operations the console and the command line call, whose details are
// worded from the change's result inside its transaction.

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const LEASE_MS = 60_000;

let sequence = 0;
function newLead(overrides: Partial<NewLead> = {}): NewLead {
  sequence += 1;
  const id = `audited-${String(sequence).padStart(5, '0')}`;
  return {
    id,
    receivedAt: T0 + sequence,
    source: 'Homepage Simple Lead Form',
    email: `person${sequence}@example.com`,
    payload: { email: `person${sequence}@example.com`, lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

const entry = (action: string, detail = 'detail'): AuditEntryInput => ({ actor: 'ana@example.com', action, detail });
// No actor: the audit log's NOT NULL refuses the row, so the whole transaction must roll back.
const refused = (action: string): AuditEntryInput => ({ actor: null as unknown as string, action, detail: 'refused' });

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`audit in the operation's transaction: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    async function actions(): Promise<string[]> {
      return (await store.listAudit(undefined, 100)).entries.map((record) => record.action);
    }

    async function failLead(lead: NewLead): Promise<void> {
      await store.claimDue({ now: lead.receivedAt, limit: 10, owner: 'w', leaseMs: LEASE_MS });
      await store.recordResults([
        {
          leadId: lead.id,
          owner: 'w',
          attempt: { attemptedAt: T0 + 1_000, durationMs: 5, status: 410, responseBody: undefined, error: undefined },
          nextState: 'failed',
          nextAttemptAt: undefined,
        },
      ]);
    }

    it('stamps the entry with the operation time when none is given, and keeps a given one', async () => {
      const lead = newLead();
      await store.insertLead(lead);
      expect(await store.markSpam(lead.id, 'manual', T0 + 5_000, entry('lead.spam', lead.id))).toBe(true);
      await store.markNotSpam(
        lead.id,
        T0 + 6_000,
        { source: lead.source, email: lead.email, payload: lead.payload },
        {
          ...entry('lead.not-spam', lead.id),
          at: T0 + 1,
        },
      );
      const { entries } = await store.listAudit(undefined, 10);
      expect(entries.map(({ at, actor, action, detail }) => ({ at, actor, action, detail }))).toEqual([
        { at: T0 + 5_000, actor: 'ana@example.com', action: 'lead.spam', detail: lead.id },
        { at: T0 + 1, actor: 'ana@example.com', action: 'lead.not-spam', detail: lead.id },
      ]);
    });

    it('inbox: retry, send again, spam marks and erasure leave their entry; a change that did not happen leaves none', async () => {
      const failed = newLead();
      const other = newLead();
      await store.insertLead(failed);
      await store.insertLead(other);
      await failLead(failed);
      expect(await store.retry({ id: failed.id }, T0 + 2_000, entry('lead.retry'))).toHaveLength(1);
      expect(await store.sendAgain(other.id, T0 + 2_000, entry('lead.send-again'))).toBe(false);
      expect(await store.markSpam('no-such-lead', 'manual', T0 + 2_000, entry('lead.spam'))).toBe(false);
      expect(
        await store.markNotSpam(other.id, T0 + 2_000, { source: other.source, email: other.email, payload: {} }, entry('lead.not-spam')),
      ).toBe(false);
      expect(await store.eraseByEmail(other.email, entry('leads.erase', '1 lead(s)'))).toEqual([other.id]);
      expect(await store.eraseByEmail('nobody@example.com', entry('leads.erase', '0 lead(s)'))).toEqual([]);
      expect(await actions()).toEqual(['leads.erase', 'leads.erase', 'lead.retry']);
    });

    it('send again leaves its entry when it moved the lead', async () => {
      const lead = newLead();
      await store.insertLead(lead);
      await store.claimDue({ now: lead.receivedAt, limit: 10, owner: 'w', leaseMs: LEASE_MS });
      await store.recordResults([
        {
          leadId: lead.id,
          owner: 'w',
          attempt: { attemptedAt: T0 + 1_000, durationMs: 5, status: 200, responseBody: undefined, error: undefined },
          nextState: 'delivered',
          nextAttemptAt: undefined,
        },
      ]);
      expect(await store.sendAgain(lead.id, T0 + 3_000, entry('lead.send-again'))).toBe(true);
      expect(await actions()).toEqual(['lead.send-again']);
    });

    it('inbox: an entry the log refuses takes the change back with it', async () => {
      const lead = newLead();
      await store.insertLead(lead);
      await expect(store.markSpam(lead.id, 'manual', T0 + 2_000, refused('lead.spam'))).rejects.toThrow();
      expect((await store.getLead(lead.id))?.state).toBe('pending');
      await expect(store.eraseByEmail(lead.email, refused('leads.erase'))).rejects.toThrow();
      expect(await store.getLead(lead.id)).toBeDefined();
      await failLead(lead);
      await expect(store.retry({ state: 'failed' }, T0 + 3_000, refused('lead.retry'))).rejects.toThrow();
      expect((await store.getLead(lead.id))?.state).toBe('failed');
      expect(await actions()).toEqual([]);
    });

    it('the retention purge leaves one entry, with its last batch, and none when the entry is refused', async () => {
      const old = newLead({ initialState: 'spam', spamReason: 'honeypot' });
      await store.insertLead(old);
      await expect(store.purgeExpired({ spamReceivedBefore: T0 + 1_000_000 }, refused('retention.purge'))).rejects.toThrow();
      expect(await store.getLead(old.id)).toBeDefined();
      expect(await store.purgeExpired({ spamReceivedBefore: T0 + 1_000_000 }, { ...entry('retention.purge'), actor: 'system' })).toEqual({
        leads: 0,
        spam: 1,
      });
      expect(await store.getLead(old.id)).toBeUndefined();
      expect(await store.purgeExpired({}, { ...entry('retention.purge'), actor: 'system' })).toEqual({ leads: 0, spam: 0 });
      expect(await actions()).toEqual(['retention.purge', 'retention.purge']);
    });

    it('accounts: add, role, password and removal leave their entry; a change refused or not needed leaves none', async () => {
      const account = { email: 'bo@example.com', role: 'sales', passwordHash: 'scrypt$one', now: T0 } as const;
      expect((await store.createAccount(account, entry('account.add'))).kind).toBe('created');
      expect((await store.createAccount(account, entry('account.add'))).kind).toBe('exists');
      expect((await store.setAccountRole('bo@example.com', 'admin', T0 + 1, {}, entry('account.role'))).kind).toBe('changed');
      expect((await store.setAccountRole('bo@example.com', 'sales', T0 + 2, { keepAnAdmin: true }, entry('account.role'))).kind).toBe(
        'last-admin',
      );
      expect((await store.setAccountRole('nobody@example.com', 'sales', T0 + 2, {}, entry('account.role'))).kind).toBe('no-account');
      expect(await store.setAccountPassword('bo@example.com', 'scrypt$two', T0 + 3, entry('account.password'))).toBe(true);
      expect(await store.setAccountPassword('nobody@example.com', 'scrypt$two', T0 + 3, entry('account.password'))).toBe(false);
      expect((await store.removeAccount('bo@example.com', { keepAnAdmin: true }, entry('account.remove'))).kind).toBe('last-admin');
      expect((await store.removeAccount('bo@example.com', {}, entry('account.remove'))).kind).toBe('removed');
      expect((await store.removeAccount('bo@example.com', {}, entry('account.remove'))).kind).toBe('no-account');
      expect(await actions()).toEqual(['account.remove', 'account.password', 'account.role', 'account.add']);
    });

    it('accounts: an entry the log refuses takes the change back with it', async () => {
      await expect(
        store.createAccount({ email: 'cy@example.com', role: 'sales', passwordHash: 'scrypt$one', now: T0 }, refused('account.add')),
      ).rejects.toThrow();
      expect(await store.findAccount('cy@example.com')).toBeUndefined();
      await store.createAccount({ email: 'cy@example.com', role: 'sales', passwordHash: 'scrypt$one', now: T0 });
      await expect(store.setAccountRole('cy@example.com', 'admin', T0 + 1, {}, refused('account.role'))).rejects.toThrow();
      await expect(store.setAccountPassword('cy@example.com', 'scrypt$two', T0 + 1, refused('account.password'))).rejects.toThrow();
      await expect(store.removeAccount('cy@example.com', {}, refused('account.remove'))).rejects.toThrow();
      expect(await store.findAccount('cy@example.com')).toMatchObject({ role: 'sales', passwordHash: 'scrypt$one' });
      expect(await actions()).toEqual([]);
    });
    it("operations: a detail worded from the change's result reads as the audit screen has always shown it", async () => {
      const acting: Acting = { actor: 'ana@example.com', at: T0 + 9_000 };
      const twice = newLead({ email: 'twice@example.com' });
      const again = newLead({ email: 'twice@example.com' });
      const failed = newLead();
      await store.insertLead(failed);
      await failLead(failed);
      for (const lead of [twice, again]) await store.insertLead(lead);
      expect((await retryEveryFailed(store, acting)).moved.map((lead) => lead.id)).toEqual([failed.id]);
      expect(await eraseLeadsByEmail(store, acting, 'Twice@Example.com')).toHaveLength(2);
      expect(await eraseLeadsByEmail(store, acting, 'nobody@example.com')).toEqual([]);
      await addAccount(store, acting, { email: 'bo@example.com', role: 'sales', passwordHash: 'scrypt$one' });
      await addAccount(store, acting, { email: 'cy@example.com', role: 'admin', passwordHash: 'scrypt$one' });
      expect((await changeAccountRole(store, acting, 'BO@example.com', 'admin')).kind).toBe('changed');
      expect((await changeAccountRole(store, acting, 'nobody@example.com', 'admin')).kind).toBe('no-account');
      const spam = newLead({ initialState: 'spam', spamReason: 'honeypot' });
      await store.insertLead(spam);
      const purged = await writeWithAudit(
        store,
        'purgeExpired',
        [{ spamReceivedBefore: T0 + 1_000_000 }],
        { actor: 'system', at: T0 + 9_500 },
        {
          action: 'retention.purge',
          describe: 'purge-counts',
        },
      );
      expect(purged).toEqual({ leads: 0, spam: 1 });
      const { entries } = await store.listAudit(undefined, 20);
      expect(entries.map(({ at, actor, action, detail }) => ({ at, actor, action, detail })).reverse()).toEqual([
        {
          at: T0 + 9_000,
          actor: 'ana@example.com',
          action: 'lead.retry',
          detail: `every failed lead: sent 1 lead(s): ${failed.id} (1 failed)`,
        },
        { at: T0 + 9_000, actor: 'ana@example.com', action: 'leads.erase', detail: '2 lead(s)' },
        { at: T0 + 9_000, actor: 'ana@example.com', action: 'leads.erase', detail: '0 lead(s)' },
        { at: T0 + 9_000, actor: 'ana@example.com', action: 'account.add', detail: 'bo@example.com as sales' },
        { at: T0 + 9_000, actor: 'ana@example.com', action: 'account.add', detail: 'cy@example.com as admin' },
        { at: T0 + 9_000, actor: 'ana@example.com', action: 'account.role', detail: 'bo@example.com: sales → admin' },
        { at: T0 + 9_500, actor: 'system', action: 'retention.purge', detail: '0 leads, 1 spam' },
      ]);
    });

    it("operations: an entry the log refuses takes the operation's change back with it", async () => {
      // No actor: every operation below hands the store an entry the log refuses.
      const refusedActing: Acting = { actor: null as unknown as string, at: T0 + 9_000 };
      const lead = newLead();
      const failed = newLead();
      const spam = newLead({ initialState: 'spam', spamReason: 'honeypot' });
      // The failed lead first: the claim that fails it would take any lead already waiting too.
      await store.insertLead(failed);
      await failLead(failed);
      for (const each of [lead, spam]) await store.insertLead(each);
      await store.createAccount({ email: 'bo@example.com', role: 'sales', passwordHash: 'scrypt$one', now: T0 });

      await expect(markLeadSpam(store, refusedActing, lead.id)).rejects.toThrow();
      expect((await store.getLead(lead.id))?.state).toBe('pending');
      await expect(eraseLeadsByEmail(store, refusedActing, lead.email)).rejects.toThrow();
      expect(await store.getLead(lead.id)).toBeDefined();
      await expect(retryEveryFailed(store, refusedActing)).rejects.toThrow();
      expect((await store.getLead(failed.id))?.state).toBe('failed');
      await expect(
        addAccount(store, refusedActing, { email: 'cy@example.com', role: 'admin', passwordHash: 'scrypt$one' }),
      ).rejects.toThrow();
      expect(await store.findAccount('cy@example.com')).toBeUndefined();
      await expect(changeAccountRole(store, refusedActing, 'bo@example.com', 'admin')).rejects.toThrow();
      expect(await store.findAccount('bo@example.com')).toMatchObject({ role: 'sales' });
      await expect(
        writeWithAudit(store, 'purgeExpired', [{ spamReceivedBefore: T0 + 1_000_000 }], refusedActing, {
          action: 'retention.purge',
          describe: 'purge-counts',
        }),
      ).rejects.toThrow();
      expect(await store.getLead(spam.id)).toBeDefined();
      expect(await actions()).toEqual([]);
    });
  });
}
