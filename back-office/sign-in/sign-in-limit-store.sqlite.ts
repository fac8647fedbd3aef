import type { SignInAttemptRequest, SignInAttemptResult } from './sign-in-limit-store.ts';
import { SIGN_IN_PURGE_BATCH } from './sign-in-limit-store.ts';
import type { SqliteStoreContext } from '../database/sqlite-database.ts';
import type { SignInLimitStore } from './sign-in-limit-store.ts';
import {
  DELETE_ATTEMPT,
  DELETE_SUCCEEDED_ATTEMPTS,
  SELECT_KNOWN_PAIR,
  SELECT_LIMITING_ATTEMPT,
  UPSERT_KNOWN_PAIR,
} from './sign-in-limit-sql.ts';

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
        if (unlessKnown !== undefined && get(SELECT_KNOWN_PAIR.sqlite, unlessKnown, at - knownForMs)) {
          continue;
        }
        // The limit-th newest attempt still counted: while it counts, the key is at its limit.
        const oldest = get(SELECT_LIMITING_ATTEMPT.sqlite, key, at - windowMs, limit - 1);
        if (oldest !== undefined) retryAfterMs = Math.max(retryAfterMs, Number(oldest.at) + windowMs - at);
      }
      if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
      for (const { key } of keys) run('INSERT INTO sign_in_attempts (key, at, attempt_id) VALUES (?, ?, ?)', key, at, id);
      return { allowed: true };
    }, 'bookkeeping');
  }

  function signInSucceeded(id: string, pairKey: string, at: number): void {
    transaction(() => {
      run(DELETE_SUCCEEDED_ATTEMPTS.sqlite, pairKey, id);
      run(UPSERT_KNOWN_PAIR.sqlite, pairKey, at);
    }, 'bookkeeping');
  }
  return {
    countSignInAttempt: ifOpen(countSignInAttempt),
    signInSucceeded: ifOpen(signInSucceeded),
    withdrawSignInAttempt: ifOpen((id: string) => {
      transaction(() => run(DELETE_ATTEMPT.sqlite, id), 'bookkeeping');
    }),
  };
}
