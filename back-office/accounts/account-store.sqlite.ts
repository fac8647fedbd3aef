import { randomUUID } from 'node:crypto';
import { normalizeEmail } from './email.ts';
import type { Role } from '../roles.ts';
import type { AuditEntryInput } from '../database/audit-entry.ts';
import type { AccountChangeOptions, CreateAccountResult, NewAccount, RemoveAccountResult, SetAccountRoleResult } from './account-store.ts';
import { assertKnownRole, stopsBeingAdmin } from './account-store.ts';
import { ACCOUNT_COLUMNS, toAccountRecord, toStoredAccount } from './account-rows.ts';
import type { SqliteStoreContext } from '../database/sqlite-database.ts';
import type { AccountStore } from './account-store.ts';
import { SELECT_ACCOUNT_BY_EMAIL, SELECT_ACCOUNTS } from './account-sql.ts';

// The accounts in SQLite.

export function sqliteAccounts(c: SqliteStoreContext): AccountStore {
  const { all, get, run, transaction, writeAudit, ifOpen } = c;
  function createAccount({ email, role, passwordHash, now }: NewAccount, audit?: AuditEntryInput): CreateAccountResult {
    assertKnownRole(role);
    return transaction(() => {
      const id = randomUUID();
      const inserted = run(
        `INSERT INTO accounts (id, email, role, password_hash, created_at, updated_at, password_changed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING`,
        id,
        normalizeEmail(email),
        role,
        passwordHash,
        now,
        now,
        now,
      );
      if (inserted === 0) return { kind: 'exists' };
      writeAudit(audit, now);
      return { kind: 'created', account: toAccountRecord(get(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`, id)!) };
    });
  }

  function accountId(email: string): string | undefined {
    const row = get('SELECT id FROM accounts WHERE email = ?', normalizeEmail(email));
    return row === undefined ? undefined : String(row.id);
  }

  /**
   * The account a role change or removal is about, or why it may not go ahead. Called inside
   * BEGIN IMMEDIATE: the write lock is held from this read to the change's COMMIT, so no other
   * connection or process can demote or remove an admin in between.
   */
  function accountToChange(
    email: string,
    after: Role | undefined,
    { keepAnAdmin = false }: AccountChangeOptions,
  ): { kind: 'no-account' } | { kind: 'last-admin' } | { kind: 'found'; id: string; role: Role } {
    const row = get('SELECT id, role FROM accounts WHERE email = ?', normalizeEmail(email));
    if (row === undefined) return { kind: 'no-account' };
    const account = { id: String(row.id), role: row.role as Role };
    if (keepAnAdmin && stopsBeingAdmin(account.role, after)) {
      const another = get(`SELECT 1 AS found FROM accounts WHERE role = 'admin' AND id <> ? LIMIT 1`, account.id);
      if (another === undefined) return { kind: 'last-admin' };
    }
    return { kind: 'found', ...account };
  }

  function removeAccount(email: string, options: AccountChangeOptions = {}, audit?: AuditEntryInput): RemoveAccountResult {
    return transaction(() => {
      const account = accountToChange(email, undefined, options);
      if (account.kind !== 'found') return account;
      run('DELETE FROM account_sessions WHERE account_id = ?', account.id);
      run('DELETE FROM accounts WHERE id = ?', account.id);
      writeAudit(audit, Date.now());
      return { kind: 'removed' };
    });
  }

  function setAccountRole(
    email: string,
    role: Role,
    now: number,
    options: AccountChangeOptions = {},
    audit?: AuditEntryInput<'role-change'>,
  ): SetAccountRoleResult {
    assertKnownRole(role);
    return transaction(() => {
      const account = accountToChange(email, role, options);
      if (account.kind !== 'found') return account;
      const row = get(`UPDATE accounts SET role = ?, updated_at = ? WHERE id = ? RETURNING ${ACCOUNT_COLUMNS}`, role, now, account.id)!;
      if (role !== account.role) run('DELETE FROM account_sessions WHERE account_id = ?', account.id);
      const changed = { kind: 'changed', account: toAccountRecord(row), previousRole: account.role } as const;
      writeAudit(audit, now, changed);
      return changed;
    });
  }

  function setAccountPassword(email: string, passwordHash: string, now: number, audit?: AuditEntryInput): boolean {
    return transaction(() => {
      const id = accountId(email);
      if (id === undefined) return false;
      run('UPDATE accounts SET password_hash = ?, password_changed_at = ?, updated_at = ? WHERE id = ?', passwordHash, now, now, id);
      run('DELETE FROM account_sessions WHERE account_id = ?', id);
      writeAudit(audit, now);
      return true;
    });
  }
  return {
    createAccount: ifOpen(createAccount),
    listAccounts: ifOpen(() => all(SELECT_ACCOUNTS.sqlite).map(toAccountRecord)),
    findAccount: ifOpen((email: string) => {
      const row = get(SELECT_ACCOUNT_BY_EMAIL.sqlite, normalizeEmail(email));
      return row === undefined ? undefined : toStoredAccount(row);
    }),
    removeAccount: ifOpen(removeAccount),
    setAccountRole: ifOpen(setAccountRole),
    setAccountPassword: ifOpen(setAccountPassword),
  };
}
