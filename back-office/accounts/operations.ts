import type { AccountStore, CreateAccountResult, NewAccount, RemoveAccountResult, SetAccountRoleResult } from './account-store.ts';
import { writeWithAudit, type Acting } from './audit-trail.ts';
import type { Role } from '../roles.ts';

// The changes to the team's accounts, as the console's accounts screen and `npm run users` make
// them: each is one store change and its audit entry, written in the change's transaction with the
// actor the caller names (and only when the change is made: an address that has an account, one
// that has none, the only admin write nothing), so a change made at the terminal leaves the same
// trail as one made in the console. The callers
// check what they are given (an address, a role, a password's length) and say what was refused.

export type AccountOperationsStore = Pick<AccountStore, 'createAccount' | 'setAccountRole' | 'removeAccount' | 'setAccountPassword'>;

// The team always keeps someone who can manage the accounts: the store refuses, in the same
// transaction as the change, to demote or remove the only admin (an admin acting at the same moment
// cannot slip in between).
const KEEP_AN_ADMIN = { keepAnAdmin: true } as const;

/** A new account; an address that has one already (in any case) is refused and nothing is recorded. */
export function addAccount(store: AccountOperationsStore, acting: Acting, account: Omit<NewAccount, 'now'>): Promise<CreateAccountResult> {
  return writeWithAudit(store, 'createAccount', [{ ...account, now: acting.at }], acting, {
    action: 'account.add',
    detail: `${account.email} as ${account.role}`,
  });
}

/** Another role for an account; its sessions end. Never the only admin's. */
export function changeAccountRole(store: AccountOperationsStore, acting: Acting, email: string, role: Role): Promise<SetAccountRoleResult> {
  // "li@example.com: viewer → admin": the address as stored and the role it had, read in the change's transaction.
  return writeWithAudit(store, 'setAccountRole', [email, role, acting.at, KEEP_AN_ADMIN], acting, {
    action: 'account.role',
    describe: 'role-change',
  });
}

/** Deletes an account and its sessions. Never the only admin. */
export function removeAccount(store: AccountOperationsStore, acting: Acting, email: string): Promise<RemoveAccountResult> {
  return writeWithAudit(store, 'removeAccount', [email, KEEP_AN_ADMIN], acting, { action: 'account.remove', detail: email });
}

/** A new password (already hashed); every session of the account ends. False: there is no such account. */
export function setAccountPassword(store: AccountOperationsStore, acting: Acting, email: string, passwordHash: string): Promise<boolean> {
  return writeWithAudit(store, 'setAccountPassword', [email, passwordHash, acting.at], acting, {
    action: 'account.password',
    detail: email,
  });
}
