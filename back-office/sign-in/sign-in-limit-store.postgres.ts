import type { SignInAttemptRequest, SignInAttemptResult } from './sign-in-limit-store.ts';
import { SIGN_IN_PURGE_BATCH } from './sign-in-limit-store.ts';
import type { PostgresStoreContext } from '../database/postgres-database.ts';
import type { SignInLimitStore } from './sign-in-limit-store.ts';
import {
  DELETE_ATTEMPT,
  DELETE_SUCCEEDED_ATTEMPTS,
  SELECT_KNOWN_PAIR,
  SELECT_LIMITING_ATTEMPT,
  UPSERT_KNOWN_PAIR,
} from './sign-in-limit-sql.ts';

// The sign-in limits in PostgreSQL: each attempt locks its keys, so every process counts together.

export function postgresSignInLimits(c: PostgresStoreContext): SignInLimitStore {
  const { query, transaction } = c;
  // The first half of the advisory locks a sign-in attempt takes on each of its keys (the second half is the key's hash).
  const SIGN_IN_LOCK_CLASS = 4_201_735;
  return {
    countSignInAttempt: async ({ id, at, windowMs, knownForMs, keys }: SignInAttemptRequest): Promise<SignInAttemptResult> =>
      transaction(async (client) => {
        // One lock per key, held until COMMIT and taken in the order of the lock ids (so two attempts
        // never deadlock): an attempt on any of the same keys, from any process, waits, then reads
        // this one's rows. (A volatile function in the select list runs after ORDER BY has sorted.)
        await client.query(
          `SELECT pg_advisory_xact_lock($1, lock_id)
           FROM (SELECT DISTINCT hashtext(key) AS lock_id FROM unnest($2::text[]) AS k(key)) AS ids ORDER BY lock_id`,
          [SIGN_IN_LOCK_CLASS, keys.map(({ key }) => key)],
        );
        // Expired rows go a batch at a time. Two attempts on different keys purge at once: each skips
        // the rows the other has locked, so neither waits for the other (two purges taking the same
        // rows in different orders would deadlock, and one sign-in would fail).
        await client.query(
          'DELETE FROM sign_in_attempts WHERE ctid IN (SELECT ctid FROM sign_in_attempts WHERE at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)',
          [at - windowMs, SIGN_IN_PURGE_BATCH],
        );
        await client.query(
          'DELETE FROM sign_in_known WHERE pair_key IN (SELECT pair_key FROM sign_in_known WHERE known_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)',
          [at - knownForMs, SIGN_IN_PURGE_BATCH],
        );
        let retryAfterMs = 0;
        for (const { key, limit, unlessKnown } of keys) {
          if (unlessKnown !== undefined) {
            const known = await client.query(SELECT_KNOWN_PAIR.postgres, [unlessKnown, at - knownForMs]);
            if (known.rows.length > 0) continue;
          }
          // The limit-th newest attempt still counted: while it counts, the key is at its limit.
          const { rows } = await client.query<{ at: string }>(SELECT_LIMITING_ATTEMPT.postgres, [key, at - windowMs, limit - 1]);
          if (rows[0] !== undefined) retryAfterMs = Math.max(retryAfterMs, Number(rows[0].at) + windowMs - at);
        }
        if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
        await client.query('INSERT INTO sign_in_attempts (key, at, attempt_id) SELECT key, $2, $3 FROM unnest($1::text[]) AS k(key)', [
          keys.map(({ key }) => key),
          at,
          id,
        ]);
        return { allowed: true };
      }),

    signInSucceeded: async (id: string, pairKey: string, at: number) => {
      await transaction(async (client) => {
        await client.query(DELETE_SUCCEEDED_ATTEMPTS.postgres, [pairKey, id]);
        await client.query(UPSERT_KNOWN_PAIR.postgres, [pairKey, at]);
      });
    },

    withdrawSignInAttempt: async (id: string) => {
      await query(DELETE_ATTEMPT.postgres, [id]);
    },
  };
}
