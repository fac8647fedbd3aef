// Turns a session row joined with its account into the store's record; both engines select the same columns.
import { toAccountRecord } from '../accounts/account-rows.ts';
import type { SessionRecord } from './session-store.ts';

type Row = Readonly<Record<string, unknown>>;

/** The columns both engines select for a session (s) joined with its account (a). */
export const SESSION_COLUMNS = `
  a.id, a.email, a.role, a.created_at, a.updated_at, a.password_changed_at, a.last_sign_in_at,
  s.created_at AS session_created_at, s.last_seen_at AS session_last_seen_at`;

/** A session joined with its account: the session's own times as session_created_at and session_last_seen_at. */
export function toSessionRecord(row: Row): SessionRecord {
  return {
    account: toAccountRecord(row),
    createdAt: Number(row.session_created_at),
    lastSeenAt: Number(row.session_last_seen_at),
  };
}
