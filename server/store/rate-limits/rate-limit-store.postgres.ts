import pg from 'pg';
import { inPostgresTransaction } from '../../../back-office/database/postgres-database.ts';
import { storeUnavailableError } from '../../../back-office/database/store-unavailable.ts';
import type { KeepValue, RateLimitStore, WindowHits } from './rate-limit-store.ts';

// PostgreSQL's rate-limit counts, on a pool of their own beside the lead store's: a burst of rate-limited
// requests can never take the connections a lead needs, and a lead never waits for a count.
//
// One statement per batch: the hits of every window in it are added by one INSERT … ON CONFLICT DO
// UPDATE over arrays, RETURNING each window's count after the addition, so the count a server reads is
// the total of every server's hits up to its own, in the order the row lock let them in. The rows are
// sent sorted by their key, so two servers' statements touching the same windows lock them in the
// same order and wait for each other instead of deadlocking.

/** Connections: one batch of hits in flight, one batch of values to keep, and the deletion of ended rows. */
export const RATE_LIMIT_POOL_SIZE = 3;
const CONNECT_TIMEOUT_MS = 5_000;
/** A statement the database has not answered by then is given up (the limiter has decided alone long before). */
const STATEMENT_TIMEOUT_MS = 5_000;

const ADD_HITS_SQL = `
  INSERT INTO rate_limit_hits AS counted (name, key, window_start, window_end, hits)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::integer[])
  ON CONFLICT (name, key, window_start) DO UPDATE SET hits = counted.hits + EXCLUDED.hits
  RETURNING name, key, window_start, hits`;

// Bounded: the oldest ended windows first, at most `limit` rows in one statement.
const DELETE_ENDED_SQL = `
  DELETE FROM rate_limit_hits WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM rate_limit_hits WHERE window_end <= $1 ORDER BY window_end LIMIT $2))`;

const DELETE_ENDED_VALUES_SQL = `
  DELETE FROM rate_limit_kept_values WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM rate_limit_kept_values WHERE period_end <= $1 ORDER BY period_end LIMIT $2))`;

// A bound's additions in a period are made one transaction at a time (this lock, named by the bound
// and period), so the count of kept values a server reads is the one it adds to: never over the bound.
const LOCK_BOUND_SQL = `SELECT pg_advisory_xact_lock(hashtextextended($1, 4201735003))`;
const KEPT_AMONG_SQL = `SELECT value FROM rate_limit_kept_values WHERE name = $1 AND period = $2 AND value = ANY ($3::text[])`;
const COUNTED_SQL = `SELECT count(*)::integer AS kept FROM rate_limit_kept_values WHERE name = $1 AND period = $2 AND by_lead = 0`;
const KEEP_SQL = `
  INSERT INTO rate_limit_kept_values (name, period, value, by_lead, period_end)
  SELECT $1, $2, value, by_lead, $3 FROM unnest($4::text[], $5::smallint[]) AS given (value, by_lead)
  ON CONFLICT (name, period, value) DO NOTHING`;

const windowId = (name: string, key: string, windowStart: number) => JSON.stringify([name, key, windowStart]);
const byWindow = (a: WindowHits, b: WindowHits) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStart - b.windowStart;

export function openPostgresRateLimitStore(url: string, poolSize = RATE_LIMIT_POOL_SIZE): RateLimitStore {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    // Kept open while idle: opening a connection (and its password exchange) takes longer than a
    // request may wait for its count, so a cold pool would make every server decide alone.
    idleTimeoutMillis: 0,
  });
  // An idle client losing its connection (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let closed = false;

  async function query<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    if (closed) throw new Error('The rate-limit store is closed');
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw storeUnavailableError(error);
    }
    try {
      return (await client.query<R>(sql, params)).rows;
    } finally {
      client.release();
    }
  }

  return {
    async connect() {
      await Promise.all(Array.from({ length: poolSize }, () => query('SELECT 1', [])));
    },
    async addHits(hits) {
      if (hits.length === 0) return [];
      const sorted = [...hits].sort(byWindow);
      const rows = await query<{ name: string; key: string; window_start: string; hits: number }>(ADD_HITS_SQL, [
        sorted.map((hit) => hit.name),
        sorted.map((hit) => hit.key),
        sorted.map((hit) => hit.windowStart),
        sorted.map((hit) => hit.windowEnd),
        sorted.map((hit) => hit.hits),
      ]);
      const counts = new Map(rows.map((row) => [windowId(row.name, row.key, Number(row.window_start)), row.hits]));
      return hits.map((hit) => {
        const count = counts.get(windowId(hit.name, hit.key, hit.windowStart));
        if (count === undefined) throw new Error('The rate-limit store did not count a window it was given');
        return count;
      });
    },
    async keepValues(values) {
      if (values.length === 0) return [];
      if (closed) throw new Error('The rate-limit store is closed');
      const bounds = new Map<string, KeepValue[]>();
      for (const value of values) {
        const id = JSON.stringify([value.name, value.period]);
        bounds.set(id, [...(bounds.get(id) ?? []), value]);
      }
      const kept = new Set<string>();
      // Bounds in one order on every server, so two transactions never wait for each other's locks in turn.
      for (const id of [...bounds.keys()].sort()) {
        const group = bounds.get(id)!;
        const { name, period, periodEnd, max } = group[0]!;
        await inPostgresTransaction(pool, async (client) => {
          await client.query(LOCK_BOUND_SQL, [id]);
          const asked = [...new Set(group.map((value) => value.value))];
          const already = new Set(
            (await client.query<{ value: string }>(KEPT_AMONG_SQL, [name, period, asked])).rows.map((row) => row.value),
          );
          let room = max - ((await client.query<{ kept: number }>(COUNTED_SQL, [name, period])).rows[0]?.kept ?? 0);
          const added = new Map<string, number>();
          for (const value of group) {
            // A value kept already stays as it was kept.
            if (already.has(value.value) || added.has(value.value)) continue;
            if (value.always === true) added.set(value.value, 1);
            else if (room > 0) {
              added.set(value.value, 0);
              room -= 1;
            }
          }
          if (added.size > 0) {
            await client.query(KEEP_SQL, [name, period, periodEnd, [...added.keys()], [...added.values()]]);
          }
          for (const value of [...already, ...added.keys()]) kept.add(JSON.stringify([id, value]));
        });
      }
      return values.map((value) => kept.has(JSON.stringify([JSON.stringify([value.name, value.period]), value.value])));
    },
    async deleteEndedWindows(now, limit) {
      const windows = await query(`${DELETE_ENDED_SQL} RETURNING 1`, [now, limit]);
      const values = await query(`${DELETE_ENDED_VALUES_SQL} RETURNING 1`, [now, limit]);
      return Math.max(windows.length, values.length);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
