import { sharedSql } from '../database/shared-sql.ts';

// The sign-in limits' statements both engines run alike (placeholders aside). The purges and the
// attempt's insert differ: PostgreSQL locks the keys, skips rows another attempt is purging and
// inserts every key in one statement.

/** Values: the account+address key, the oldest time it still counts as known from. */
export const SELECT_KNOWN_PAIR = sharedSql('SELECT 1 AS known FROM sign_in_known WHERE pair_key = ? AND known_at > ?');

/** The limit-th newest attempt still counted under a key. Values: key, window start, limit - 1. */
export const SELECT_LIMITING_ATTEMPT = sharedSql(
  'SELECT at FROM sign_in_attempts WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
);

/** Values: the account+address key, the attempt's id. */
export const DELETE_SUCCEEDED_ATTEMPTS = sharedSql('DELETE FROM sign_in_attempts WHERE key = ? OR attempt_id = ?');

export const UPSERT_KNOWN_PAIR = sharedSql(
  'INSERT INTO sign_in_known (pair_key, known_at) VALUES (?, ?) ON CONFLICT (pair_key) DO UPDATE SET known_at = excluded.known_at',
);

export const DELETE_ATTEMPT = sharedSql('DELETE FROM sign_in_attempts WHERE attempt_id = ?');
