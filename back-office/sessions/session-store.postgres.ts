import { normalizeEmail } from '../accounts/email.ts';
import { assertSessionApp } from './session-apps.ts';
import { SESSION_IDLE_MS, hashSessionId, judgeSession, newSessionId } from './sessions.ts';
import type { SessionApp } from './session-apps.ts';
import type { NewSession } from './session-store.ts';
import { toAccountRecord } from '../accounts/account-rows.ts';
import { toSessionRecord } from './session-rows.ts';
import type { PostgresStoreContext } from '../database/postgres-database.ts';
import type { SessionStore } from './session-store.ts';
import { DELETE_LAPSED_SESSIONS, DELETE_SESSION, INSERT_SESSION, SELECT_SESSION, STAMP_SIGN_IN, TOUCH_SESSION } from './session-sql.ts';

// The sessions in PostgreSQL, stored by the hash of their id.

export function postgresSessions(c: PostgresStoreContext): SessionStore {
  const { query, transaction } = c;

  return {
    createSession: async (signedIn, app, now) => {
      assertSessionApp(app);
      return transaction<NewSession | undefined>(async (client) => {
        // Sessions nobody looked up again would otherwise stay for ever; each sign-in clears the lapsed ones.
        await client.query(DELETE_LAPSED_SESSIONS.postgres, [now - SESSION_IDLE_MS]);
        const { rows } = await client.query(STAMP_SIGN_IN.postgres, [now, normalizeEmail(signedIn.email), signedIn.passwordHash]);
        const row = rows[0];
        if (row === undefined) return undefined;
        const id = newSessionId();
        await client.query(INSERT_SESSION.postgres, [hashSessionId(id), row.id, app, now, now]);
        return { id, account: toAccountRecord(row), createdAt: now, lastSeenAt: now };
      });
    },

    findSession: async (id: string, app: SessionApp, now: number) => {
      assertSessionApp(app);
      const idHash = hashSessionId(id);
      const [row] = await query(SELECT_SESSION.postgres, [idHash, app]);
      if (row === undefined) return undefined;
      const session = toSessionRecord(row);
      switch (judgeSession(session.createdAt, session.lastSeenAt, now)) {
        case 'fresh':
          return session;
        case 'touch':
          await query(TOUCH_SESSION.postgres, [now, idHash, now]);
          return { ...session, lastSeenAt: now };
        case 'over':
          await query(DELETE_SESSION.postgres, [idHash]);
          return undefined;
      }
    },

    endSession: async (id: string, app: SessionApp) => {
      assertSessionApp(app);
      return (
        (await query('DELETE FROM account_sessions WHERE id_hash = $1 AND app = $2 RETURNING id_hash', [hashSessionId(id), app])).length > 0
      );
    },

    endAccountSessions: async (email: string) =>
      (
        await query('DELETE FROM account_sessions WHERE account_id IN (SELECT id FROM accounts WHERE email = $1) RETURNING id_hash', [
          normalizeEmail(email),
        ])
      ).length,
  };
}
