import type { SignInAttemptRequest, SignInAttemptResult } from './sign-in-limit-store.ts';
import { SIGN_IN_PURGE_BATCH } from './sign-in-limit-store.ts';
import type { SqliteStoreContext } from '../database/sqlite-database.ts';
import type { SignInLimitStore } from './sign-in-limit-store.ts';

// The sign-in limits in SQLite: counted under BEGIN IMMEDIATE, so every process counts together.

export function sqliteSignInLimits(c: SqliteStoreContext): SignInLimitStore {
  const { get, run, transaction, ifOpen } = c;
  function countSignInAttempt({ id, at, windowMs, knownForMs, keys }: SignInAttemptRequest): SignInAttemptResult {
    // Inside BEGIN IMMEDIATE: no other connection counts between this read and its insert.
    return transaction(() => {
      run(
        'DELETE FROM sign_in_attempts WHERE rowid IN (SELECT rowid FROM sign_in_attempts WHERE at <= ? LIMIT ?)',
        at - windowMs,
        SIGN_IN_PURGE_BATCH,
      );
      run(
        'DELETE FROM sign_in_known WHERE pair_key IN (SELECT pair_key FROM sign_in_known WHERE known_at <= ? LIMIT ?)',
        at - knownForMs,
        SIGN_IN_PURGE_BATCH,
      );
      let retryAfterMs = 0;
      for (const { key, limit, unlessKnown } of keys) {
        if (
          unlessKnown !== undefined &&
          get('SELECT 1 AS known FROM sign_in_known WHERE pair_key = ? AND known_at > ?', unlessKnown, at - knownForMs)
        ) {
          continue;
        }
        // The limit-th newest attempt still counted: while it counts, the key is at its limit.
        const oldest = get(
          'SELECT at FROM sign_in_attempts WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
          key,
          at - windowMs,
          limit - 1,
        );
        if (oldest !== undefined) retryAfterMs = Math.max(retryAfterMs, Number(oldest.at) + windowMs - at);
      }
      if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
      for (const { key } of keys) run('INSERT INTO sign_in_attempts (key, at, attempt_id) VALUES (?, ?, ?)', key, at, id);
      return { allowed: true };
    }, 'bookkeeping');
  }

  function signInSucceeded(id: string, pairKey: string, at: number): void {
    transaction(() => {
      run('DELETE FROM sign_in_attempts WHERE key = ? OR attempt_id = ?', pairKey, id);
      run(
        'INSERT INTO sign_in_known (pair_key, known_at) VALUES (?, ?) ON CONFLICT (pair_key) DO UPDATE SET known_at = excluded.known_at',
        pairKey,
        at,
      );
    }, 'bookkeeping');
  }
  return {
    countSignInAttempt: ifOpen(countSignInAttempt),
    signInSucceeded: ifOpen(signInSucceeded),
    withdrawSignInAttempt: ifOpen((id: string) => {
      transaction(() => run('DELETE FROM sign_in_attempts WHERE attempt_id = ?', id), 'bookkeeping');
    }),
  };
}
