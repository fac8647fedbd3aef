import { sharedSql } from '../database/shared-sql.ts';
import { ACCOUNT_COLUMNS } from '../accounts/account-rows.ts';
import { SESSION_COLUMNS } from './session-rows.ts';

// The sessions' statements both engines run alike (placeholders aside). Ending one session, or an
// account's, differs: PostgreSQL counts the rows it deleted through RETURNING.

/** Sessions last seen at or before the given time. */
export const DELETE_LAPSED_SESSIONS = sharedSql('DELETE FROM account_sessions WHERE last_seen_at <= ?');

/** Values: now, e-mail, password hash; the account signed in, or no row. */
export const STAMP_SIGN_IN = sharedSql(
  `UPDATE accounts SET last_sign_in_at = ? WHERE email = ? AND password_hash = ? RETURNING ${ACCOUNT_COLUMNS}`,
);

/** Values: id hash, account id, app, created at, last seen at. */
export const INSERT_SESSION = sharedSql(
  'INSERT INTO account_sessions (id_hash, account_id, app, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
);

export const SELECT_SESSION = sharedSql(
  `SELECT ${SESSION_COLUMNS} FROM account_sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = ? AND s.app = ?`,
);

/** Values: now, id hash, now (never moves the time back). */
export const TOUCH_SESSION = sharedSql('UPDATE account_sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at < ?');

export const DELETE_SESSION = sharedSql('DELETE FROM account_sessions WHERE id_hash = ?');
