import type { AccountStore, CreateAccountResult, NewAccount, RemoveAccountResult, SetAccountRoleResult } from './account-store.ts';
import { writeWithAudit, type Acting, type AuditLog } from './audit-trail.ts';
import type { Role } from '../roles.ts';

// The changes to the team's accounts, as the console's accounts screen and `npm run users` make
// them: each is one store change and its audit entry, written here with the actor the caller names,
// so a change made at the terminal leaves the same trail as one made in the console. The callers
// check what they are given (an address, a role, a password's length) and say what was refused.

export type AccountOperationsStore = Pick<AccountStore, 'createAccount' | 'setAccountRole' | 'removeAccount' | 'setAccountPassword'> &
  AuditLog;

// The team always keeps someone who can manage the accounts: the store refuses, in the same
// transaction as the change, to demote or remove the only admin (an admin acting at the same moment
// cannot slip in between).
const KEEP_AN_ADMIN = { keepAnAdmin: true } as const;

/** A new account; an address that has one already (in any case) is refused and nothing is recorded. */
export function addAccount(store: AccountOperationsStore, acting: Acting, account: Omit<NewAccount, 'now'>): Promise<CreateAccountResult> {
  return writeWithAudit(store, 'createAccount', [{ ...account, now: acting.at }], acting, (result) =>
    result.kind === 'created' ? { action: 'account.add', detail: `${account.email} as ${account.role}` } : undefined,
  );
}

/** Another role for an account; its sessions end. Never the only admin's. */
export function changeAccountRole(store: AccountOperationsStore, acting: Acting, email: string, role: Role): Promise<SetAccountRoleResult> {
  return writeWithAudit(store, 'setAccountRole', [email, role, acting.at, KEEP_AN_ADMIN], acting, (result) =>
    result.kind === 'changed' ? { action: 'account.role', detail: `${result.account.email}: ${result.previousRole} → ${role}` } : undefined,
  );
}

/** Deletes an account and its sessions. Never the only admin. */
export function removeAccount(store: AccountOperationsStore, acting: Acting, email: string): Promise<RemoveAccountResult> {
  return writeWithAudit(store, 'removeAccount', [email, KEEP_AN_ADMIN], acting, (result) =>
    result.kind === 'removed' ? { action: 'account.remove', detail: email } : undefined,
  );
}

/** A new password (already hashed); every session of the account ends. False: there is no such account. */
export function setAccountPassword(store: AccountOperationsStore, acting: Acting, email: string, passwordHash: string): Promise<boolean> {
  return writeWithAudit(store, 'setAccountPassword', [email, passwordHash, acting.at], acting, (changed) =>
    changed ? { action: 'account.password', detail: email } : undefined,
  );
}
