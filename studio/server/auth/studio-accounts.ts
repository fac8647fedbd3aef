// How the studio is used, decided at start from the team's accounts in the lead store:
//   - the team: the store has accounts (or the old STUDIO_USERS settings are still set, so sign-in
//     was wanted even if none of them could be imported): people sign in, and only roles that may
//     edit the site get in;
//   - one person on their own computer: no account and no old settings; no sign-in, loopback only.
// A studio reachable beyond this computer needs at least one account that may edit the site: else
// nobody could sign in, and without sign-in anyone who reaches it could change the live site.
import { can } from '../../../back-office/roles.ts';
import type { AccountStore } from '../../../back-office/accounts/account-store.ts';
import type { SessionStore } from '../../../back-office/sessions/session-store.ts';
import type { SignInLimitStore } from '../../../back-office/sign-in/sign-in-limit-store.ts';
import { isLoopback, LOOPBACK_ADDRESS } from './loopback.ts';
import { describeImport, importOldAccounts, type OldAccounts } from './old-accounts.ts';

export const ADD_EDITOR_COMMAND = 'npm run users -- add <email> --role editor';

export type StudioUse = (
  | {
      readonly kind: 'team' | 'local';
      /** How many accounts may edit the site. */
      readonly editors: number;
    }
  /** The studio must not start: `reason` says why and what to do. */
  | { readonly kind: 'refused'; readonly reason: string }
) & {
  /** What became of the old settings, to print at start (started or not); undefined when none is set. */
  readonly importNotice: string | undefined;
};

export async function decideStudioUse({
  store,
  host,
  oldAccounts,
  stateDir,
  now = Date.now,
}: {
  store: AccountStore & SessionStore & SignInLimitStore;
  host: string;
  oldAccounts: OldAccounts | undefined;
  /** The studio's state folder, where the addresses imported once are listed. */
  stateDir: string;
  now?: () => number;
}): Promise<StudioUse> {
  const report = oldAccounts ? await importOldAccounts(oldAccounts, store, stateDir, now()) : undefined;
  const accounts = await store.listAccounts();
  const editors = accounts.filter((account) => can(account.role, 'studio:edit')).length;
  const importNotice = report ? describeImport(report) : undefined;
  if (editors === 0 && !isLoopback(host)) {
    const reason =
      `STUDIO_HOST is ${host}, but no account in the lead store may edit the site, so nobody could sign in. ` +
      `Create one with \`${ADD_EDITOR_COMMAND}\` or listen on ${LOOPBACK_ADDRESS}.`;
    return { kind: 'refused', reason, importNotice };
  }
  return { kind: accounts.length > 0 || oldAccounts ? 'team' : 'local', editors, importNotice };
}
