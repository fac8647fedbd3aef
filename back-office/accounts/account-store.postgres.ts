import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { normalizeEmail } from './email.ts';
import type { Role } from '../roles.ts';
import type { AuditEntryInput } from '../database/audit-entry.ts';
import type { AccountChangeOptions, CreateAccountResult, NewAccount, RemoveAccountResult, SetAccountRoleResult } from './account-store.ts';
import { assertKnownRole, stopsBeingAdmin } from './account-store.ts';
import { ACCOUNT_COLUMNS, toAccountRecord, toStoredAccount } from './account-rows.ts';
import type { PostgresStoreContext } from '../database/postgres-database.ts';
import type { AccountStore } from './account-store.ts';
import { SELECT_ACCOUNT_BY_EMAIL, SELECT_ACCOUNTS } from './account-sql.ts';

// The accounts in PostgreSQL.

export function postgresAccounts(c: PostgresStoreContext): AccountStore {
  const { query, transaction, writeAudit } = c;
  /**
   * The account a role change or removal is about, its row locked until the transaction ends, or why
   * it may not go ahead. Asked to keep an admin, it first locks every admin's row (by id, so two such
   * changes always lock in the same order and never deadlock): another transaction demoting or
   * removing an admin waits for this one to commit, then reads the admins as they are after it, so
   * two admins demoting each other at the same moment cannot both find that another admin remains.
   */
  async function lockAccountToChange(
    client: PoolClient,
    email: string,
    after: Role | undefined,
    { keepAnAdmin = false }: AccountChangeOptions,
  ): Promise<{ kind: 'no-account' } | { kind: 'last-admin' } | { kind: 'found'; id: string; role: Role }> {
    const admins = keepAnAdmin
      ? (await client.query<{ id: string }>(`SELECT id FROM accounts WHERE role = 'admin' ORDER BY id FOR UPDATE`)).rows
      : [];
    const { rows } = await client.query<{ id: string; role: Role }>('SELECT id, role FROM accounts WHERE email = $1 FOR UPDATE', [
      normalizeEmail(email),
    ]);
    const account = rows[0];
    if (account === undefined) return { kind: 'no-account' };
    // The admins locked above stay admins until this transaction ends. The account's own role is read
    // after them, as last committed: promoted meanwhile, it is an admin this change must keep one beside.
    if (keepAnAdmin && stopsBeingAdmin(account.role, after) && !admins.some((admin) => admin.id !== account.id)) {
      return { kind: 'last-admin' };
    }
    return { kind: 'found', id: account.id, role: account.role };
  }
  return {
    createAccount: async ({ email, role, passwordHash, now }: NewAccount, audit?: AuditEntryInput): Promise<CreateAccountResult> => {
      assertKnownRole(role);
      // ON CONFLICT: of two connections adding the same address at once, one creates it and the other is told it exists.
      const insert = async (run: typeof query) =>
        run(
          `INSERT INTO accounts (id, email, role, password_hash, created_at, updated_at, password_changed_at)
           VALUES ($1, $2, $3, $4, $5, $5, $5) ON CONFLICT (email) DO NOTHING RETURNING ${ACCOUNT_COLUMNS}`,
          [randomUUID(), normalizeEmail(email), role, passwordHash, now],
        );
      const [row] =
        audit === undefined
          ? await insert(query)
          : await transaction(async (client) => {
              const rows = await insert(async (sql, params) => (await client.query(sql, params)).rows);
              if (rows.length > 0) await writeAudit(client, audit, now);
              return rows;
            });
      return row === undefined ? { kind: 'exists' } : { kind: 'created', account: toAccountRecord(row) };
    },

    listAccounts: async () => (await query(SELECT_ACCOUNTS.postgres)).map(toAccountRecord),

    findAccount: async (email: string) => {
      const [row] = await query(SELECT_ACCOUNT_BY_EMAIL.postgres, [normalizeEmail(email)]);
      return row === undefined ? undefined : toStoredAccount(row);
    },

    removeAccount: (email: string, options: AccountChangeOptions = {}, audit?: AuditEntryInput) =>
      transaction<RemoveAccountResult>(async (client) => {
        const account = await lockAccountToChange(client, email, undefined, options);
        if (account.kind !== 'found') return account;
        // The account's sessions go with it (ON DELETE CASCADE), in the same statement.
        await client.query('DELETE FROM accounts WHERE id = $1', [account.id]);
        await writeAudit(client, audit, Date.now());
        return { kind: 'removed' };
      }),

    setAccountRole: async (email, role, now, options = {}, audit) => {
      assertKnownRole(role);
      return transaction<SetAccountRoleResult>(async (client) => {
        const account = await lockAccountToChange(client, email, role, options);
        if (account.kind !== 'found') return account;
        const { rows } = await client.query(`UPDATE accounts SET role = $1, updated_at = $2 WHERE id = $3 RETURNING ${ACCOUNT_COLUMNS}`, [
          role,
          now,
          account.id,
        ]);
        if (role !== account.role) await client.query('DELETE FROM account_sessions WHERE account_id = $1', [account.id]);
        const changed = { kind: 'changed', account: toAccountRecord(rows[0]!), previousRole: account.role } as const;
        await writeAudit(client, audit, now, changed);
        return changed;
      });
    },

    setAccountPassword: (email: string, passwordHash: string, now: number, audit?: AuditEntryInput) =>
      transaction(async (client) => {
        // The row lock this takes makes a sign-in checked against the old hash wait, then find no match.
        const { rows } = await client.query<{ id: string }>(
          'UPDATE accounts SET password_hash = $1, password_changed_at = $2, updated_at = $2 WHERE email = $3 RETURNING id',
          [passwordHash, now, normalizeEmail(email)],
        );
        const id = rows[0]?.id;
        if (id === undefined) return false;
        await client.query('DELETE FROM account_sessions WHERE account_id = $1', [id]);
        await writeAudit(client, audit, now);
        return true;
      }),
  };
}
