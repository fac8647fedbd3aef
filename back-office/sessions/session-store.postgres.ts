import { normalizeEmail } from '../accounts/email.ts';
import { assertSessionApp } from './session-apps.ts';
import { SESSION_IDLE_MS, hashSessionId, judgeSession, newSessionId } from './sessions.ts';
import type { SessionApp } from './session-apps.ts';
import type { NewSession } from './session-store.ts';
import { ACCOUNT_COLUMNS, toAccountRecord } from '../accounts/account-rows.ts';
import { SESSION_COLUMNS, toSessionRecord } from './session-rows.ts';
import type { PostgresStoreContext } from '../database/postgres-database.ts';
import type { SessionStore } from './session-store.ts';

// The sessions in PostgreSQL, stored by the hash of their id.

export function postgresSessions(c: PostgresStoreContext): SessionStore {
  const { query, transaction } = c;

  return {
    createSession: async (signedIn, app, now) => {
      assertSessionApp(app);
      return transaction<NewSession | undefined>(async (client) => {
        // Sessions nobody looked up again would otherwise stay for ever; each sign-in clears the lapsed ones.
        await client.query('DELETE FROM account_sessions WHERE last_seen_at <= $1', [now - SESSION_IDLE_MS]);
        const { rows } = await client.query(
          `UPDATE accounts SET last_sign_in_at = $1 WHERE email = $2 AND password_hash = $3 RETURNING ${ACCOUNT_COLUMNS}`,
          [now, normalizeEmail(signedIn.email), signedIn.passwordHash],
        );
        const row = rows[0];
        if (row === undefined) return undefined;
        const id = newSessionId();
        await client.query(
          'INSERT INTO account_sessions (id_hash, account_id, app, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)',
          [hashSessionId(id), row.id, app, now],
        );
        return { id, account: toAccountRecord(row), createdAt: now, lastSeenAt: now };
      });
    },

    findSession: async (id: string, app: SessionApp, now: number) => {
      assertSessionApp(app);
      const idHash = hashSessionId(id);
      const [row] = await query(
        `SELECT ${SESSION_COLUMNS} FROM account_sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = $1 AND s.app = $2`,
        [idHash, app],
      );
      if (row === undefined) return undefined;
      const session = toSessionRecord(row);
      switch (judgeSession(session.createdAt, session.lastSeenAt, now)) {
        case 'fresh':
          return session;
        case 'touch':
          await query('UPDATE account_sessions SET last_seen_at = $1 WHERE id_hash = $2 AND last_seen_at < $1', [now, idHash]);
          return { ...session, lastSeenAt: now };
        case 'over':
          await query('DELETE FROM account_sessions WHERE id_hash = $1', [idHash]);
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
