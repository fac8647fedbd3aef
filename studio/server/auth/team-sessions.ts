// The team's studio sessions, kept in the lead store with the console's: each request looks its
// session up there, so a removed account, a changed password or a role that no longer may edit the
// site ends the person's studio access on their next request. Only sessions the studio started are
// found (a console session id is no studio session), while "sign out everywhere" ends the person's
// sessions in the console too. The person is the account's e-mail address, which commits and the
// publish log name.
import { can } from '../../../back-office/roles.ts';
import type { SessionStore } from '../../../back-office/sessions/session-store.ts';
import type { SessionKeeper } from './sessions.ts';

export function createTeamSessions(store: SessionStore, now: () => number = Date.now): SessionKeeper {
  return {
    async find(id) {
      const found = await store.findSession(id, 'studio', now());
      // An account whose role no longer may edit the site (changed since it signed in) has no studio session.
      if (!found || !can(found.account.role, 'studio:edit')) return undefined;
      return { id, user: found.account.email, role: found.account.role };
    },
    async end(session) {
      await store.endSession(session.id, 'studio');
    },
    endEverywhere: (session) => store.endAccountSessions(session.user),
  };
}
