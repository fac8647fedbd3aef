import { normalizeEmail } from '../accounts/email.ts';
import { assertSessionApp } from './session-apps.ts';
import { SESSION_IDLE_MS, hashSessionId, judgeSession, newSessionId } from './sessions.ts';
import type { SessionApp } from './session-apps.ts';
import type { NewSession, SessionRecord } from './session-store.ts';
import { isStoreUnavailable } from '../database/store-unavailable.ts';
import { toAccountRecord } from '../accounts/account-rows.ts';
import { toSessionRecord } from './session-rows.ts';
import type { SqliteStoreContext } from '../database/sqlite-database.ts';
import type { SessionStore } from './session-store.ts';
import { DELETE_LAPSED_SESSIONS, DELETE_SESSION, INSERT_SESSION, SELECT_SESSION, STAMP_SIGN_IN, TOUCH_SESSION } from './session-sql.ts';

// The sessions in SQLite, stored by the hash of their id.

export function sqliteSessions(c: SqliteStoreContext): SessionStore {
  const { get, run, transaction, ifOpen } = c;

  function createSession(
    signedIn: { readonly email: string; readonly passwordHash: string },
    app: SessionApp,
    now: number,
  ): NewSession | undefined {
    assertSessionApp(app);
    return transaction(() => {
      // Sessions nobody looked up again would otherwise stay for ever; each sign-in clears the lapsed ones.
      run(DELETE_LAPSED_SESSIONS.sqlite, now - SESSION_IDLE_MS);
      const row = get(STAMP_SIGN_IN.sqlite, now, normalizeEmail(signedIn.email), signedIn.passwordHash);
      if (row === undefined) return undefined;
      const id = newSessionId();
      run(INSERT_SESSION.sqlite, hashSessionId(id), String(row.id), app, now, now);
      return { id, account: toAccountRecord(row), createdAt: now, lastSeenAt: now };
    });
  }

  function findSession(id: string, app: SessionApp, now: number): SessionRecord | undefined {
    assertSessionApp(app);
    const idHash = hashSessionId(id);
    const row = get(SELECT_SESSION.sqlite, idHash, app);
    if (row === undefined) return undefined;
    const session = toSessionRecord(row);
    switch (judgeSession(session.createdAt, session.lastSeenAt, now)) {
      case 'fresh':
        return session;
      case 'touch':
        bestEffort(() => run(TOUCH_SESSION.sqlite, now, idHash, now));
        return { ...session, lastSeenAt: now };
      case 'over':
        bestEffort(() => run(DELETE_SESSION.sqlite, idHash));
        return undefined;
    }
  }

  // A lookup's own writes (the last-seen time, clearing a lapsed session) do not change its answer,
  // so a write lock held elsewhere skips them (the next lookup tries again) instead of failing the
  // request. They commit as bookkeeping: a power cut losing one only ends a session a minute early.
  function bestEffort(write: () => void): void {
    try {
      transaction(write, 'bookkeeping');
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
    }
  }
  return {
    createSession: ifOpen(createSession),
    findSession: ifOpen(findSession),
    endSession: ifOpen((id: string, app: SessionApp) => {
      assertSessionApp(app);
      return transaction(() => run('DELETE FROM account_sessions WHERE id_hash = ? AND app = ?', hashSessionId(id), app) > 0);
    }),
    endAccountSessions: ifOpen((email: string) =>
      transaction(() =>
        run('DELETE FROM account_sessions WHERE account_id IN (SELECT id FROM accounts WHERE email = ?)', normalizeEmail(email)),
      ),
    ),
  };
}
