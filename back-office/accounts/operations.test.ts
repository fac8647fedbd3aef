// The account operations behind the console's accounts screen and `npm run users`: a change writes
// one entry with the actor and moment the caller names; a refused change (an address that has an
// account, one that has none, the only admin) writes nothing; a change the store fails writes nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database as LeadStore } from '../../server/store/database.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import { writeWithAudit } from './audit-trail.ts';
import { addAccount, changeAccountRole, removeAccount, setAccountPassword } from './operations.ts';

const AT = Date.UTC(2025, 0, 15, 9, 0, 0);
const acting = { actor: 'command line (ana)', at: AT };

let folder: string;
let store: LeadStore;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'account-operations-'));
  store = openSqliteStore(path.join(folder, 'leads.sqlite'));
});
afterEach(async () => {
  await store.close();
  await rm(folder, { recursive: true, force: true });
});

const audit = async () =>
  (await store.listAudit(undefined, 20)).entries.map(({ at, actor, action, detail }) => ({ at, actor, action, detail }));

describe('account operations', () => {
  it('write one entry per change, with the actor and moment given', async () => {
    expect(await addAccount(store, acting, { email: 'ana@example.com', role: 'admin', passwordHash: 'x' })).toMatchObject({
      kind: 'created',
      account: { createdAt: AT },
    });
    await addAccount(store, acting, { email: 'li@example.com', role: 'viewer', passwordHash: 'x' });
    expect(await changeAccountRole(store, acting, 'li@example.com', 'admin')).toMatchObject({ kind: 'changed', previousRole: 'viewer' });
    expect(await setAccountPassword(store, acting, 'li@example.com', 'y')).toBe(true);
    expect(await removeAccount(store, acting, 'ana@example.com')).toEqual({ kind: 'removed' });
    expect((await audit()).reverse()).toEqual([
      { at: AT, actor: 'command line (ana)', action: 'account.add', detail: 'ana@example.com as admin' },
      { at: AT, actor: 'command line (ana)', action: 'account.add', detail: 'li@example.com as viewer' },
      { at: AT, actor: 'command line (ana)', action: 'account.role', detail: 'li@example.com: viewer → admin' },
      { at: AT, actor: 'command line (ana)', action: 'account.password', detail: 'li@example.com' },
      { at: AT, actor: 'command line (ana)', action: 'account.remove', detail: 'ana@example.com' },
    ]);
  });

  it('write nothing for a change refused', async () => {
    await store.createAccount({ email: 'ana@example.com', role: 'admin', passwordHash: 'x', now: AT });
    expect(await addAccount(store, acting, { email: 'ana@example.com', role: 'sales', passwordHash: 'x' })).toEqual({ kind: 'exists' });
    expect(await changeAccountRole(store, acting, 'ana@example.com', 'sales')).toEqual({ kind: 'last-admin' });
    expect(await changeAccountRole(store, acting, 'li@example.com', 'sales')).toEqual({ kind: 'no-account' });
    expect(await removeAccount(store, acting, 'ana@example.com')).toEqual({ kind: 'last-admin' });
    expect(await removeAccount(store, acting, 'li@example.com')).toEqual({ kind: 'no-account' });
    expect(await setAccountPassword(store, acting, 'li@example.com', 'y')).toBe(false);
    expect(await audit()).toEqual([]);
  });

  it('write nothing when the store fails the change', async () => {
    const failing: Pick<LeadStore, 'removeAccount'> = {
      removeAccount: async () => {
        throw new Error('the connection to the store was lost');
      },
    };
    await expect(writeWithAudit(failing, 'removeAccount', ['ana@example.com', {}], acting, { action: 'x', detail: 'y' })).rejects.toThrow(
      'the connection to the store was lost',
    );
    expect(await audit()).toEqual([]);
  });
});
