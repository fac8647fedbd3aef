// The role type comes from the accounts' role module, which is moving to back-office/ beside this file.
import type { AuditEntryInput } from '../database/audit-entry.ts';
import { isRole, type Role } from '../roles.ts';

// Back-office accounts, kept in the lead database: one database to back up and secure.

/** A back-office account as it may be shown: never with its password hash. */
export type AccountRecord = {
  readonly id: string;
  /** Trimmed and lower-cased; no two accounts share one. */
  readonly email: string;
  readonly role: Role;
  readonly createdAt: number;
  /** When its role or password last changed. */
  readonly updatedAt: number;
  readonly passwordChangedAt: number;
  /** When a session was last started for it (a sign-in), or undefined if never. */
  readonly lastSignInAt: number | undefined;
};

/** An account with its password hash, for checking a password at sign-in; never shown or logged. */
export type StoredAccount = AccountRecord & { readonly passwordHash: string };

export type NewAccount = {
  /** Stored trimmed and lower-cased. */
  readonly email: string;
  readonly role: Role;
  readonly passwordHash: string;
  readonly now: number;
};

export type CreateAccountResult =
  | { readonly kind: 'created'; readonly account: AccountRecord }
  /** An account with that address (in any case) exists: nothing was stored. */
  | { readonly kind: 'exists' };

/** How a role change or a removal treats the team's admins. */
export type AccountChangeOptions = {
  /**
   * Refuse (`last-admin`) to demote or remove the only admin. The check and the write are one
   * transaction that every other such change waits for, so two admins demoting or removing each
   * other at the same moment cannot both succeed and leave the team with none.
   */
  readonly keepAnAdmin?: boolean;
};

export type SetAccountRoleResult =
  | { readonly kind: 'changed'; readonly account: AccountRecord; readonly previousRole: Role }
  | { readonly kind: 'no-account' }
  /** It is the only admin and the change would leave none (only with keepAnAdmin): nothing was changed. */
  | { readonly kind: 'last-admin' };

export type RemoveAccountResult =
  | { readonly kind: 'removed' }
  | { readonly kind: 'no-account' }
  /** It is the only admin (only with keepAnAdmin): nothing was removed. */
  | { readonly kind: 'last-admin' };

/** True when an account that had `before` and now has `after` (undefined: removed) stops being an admin. */
export function stopsBeingAdmin(before: Role, after: Role | undefined): boolean {
  return before === 'admin' && after !== 'admin';
}

/** An unknown role is a mistake in the calling code: refused before anything is stored. */
export function assertKnownRole(role: string): void {
  if (!isRole(role)) throw new Error(`Unknown role "${role}"`);
}

/**
 * The back office's accounts: the console's team screen, the users CLI, the studio's sign-in.
 *
 * A mutating method given `audit` writes that entry in the same transaction as its change, and only
 * when it changed something (created, removed, changed), so both commit or neither does.
 */
export interface AccountStore {
  /** Stores a new account unless one with that address exists, whatever its case. */
  createAccount(account: NewAccount, audit?: AuditEntryInput): Promise<CreateAccountResult>;
  /** Every account, by e-mail address. */
  listAccounts(): Promise<AccountRecord[]>;
  /** The account with that address (compared trimmed and lower-cased), with its password hash. */
  findAccount(email: string): Promise<StoredAccount | undefined>;
  /** Deletes the account and ends all its sessions, in one transaction. */
  removeAccount(email: string, options?: AccountChangeOptions, audit?: AuditEntryInput): Promise<RemoveAccountResult>;
  /**
   * Stores the new role and, when it differs from the old one, ends all the account's sessions in the
   * same transaction: a session started under one role never comes back to life under another.
   */
  setAccountRole(
    email: string,
    role: Role,
    now: number,
    options?: AccountChangeOptions,
    audit?: AuditEntryInput<'role-change'>,
  ): Promise<SetAccountRoleResult>;
  /** Stores a new password hash and ends all the account's sessions, in one transaction. False: no such account. */
  setAccountPassword(email: string, passwordHash: string, now: number, audit?: AuditEntryInput): Promise<boolean>;
}
