// Turns an accounts row into the store's records; both engines select the same columns.
import type { Role } from '../roles.ts';
import type { AccountRecord, StoredAccount } from './account-store.ts';

type Row = Readonly<Record<string, unknown>>;

const optionalNumber = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));

/** The account columns both stores select, in the names the mappings below read. */
export const ACCOUNT_COLUMNS = 'id, email, role, password_hash, created_at, updated_at, password_changed_at, last_sign_in_at';

export function toAccountRecord(row: Row): AccountRecord {
  return {
    id: String(row.id),
    email: String(row.email),
    role: row.role as Role,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    passwordChangedAt: Number(row.password_changed_at),
    lastSignInAt: optionalNumber(row.last_sign_in_at),
  };
}

export function toStoredAccount(row: Row): StoredAccount {
  return { ...toAccountRecord(row), passwordHash: String(row.password_hash) };
}
