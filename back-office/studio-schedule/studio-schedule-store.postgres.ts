import pg from 'pg';
import type { PostgresStoreContext } from '../database/postgres-database.ts';
import type { StudioScheduleRow, StudioScheduleStore } from './studio-schedule-store.ts';
import { DELETE_SCHEDULED, IMPORT_SCHEDULE, SELECT_SCHEDULE, scheduleRow, scheduleValues, UPSERT_SCHEDULE } from './studio-schedule-sql.ts';

// The studio schedule in PostgreSQL. The one-studio lock is a session advisory lock held on a
// connection of its own, outside the pool, for the studio's life: PostgreSQL drops it the moment that
// connection ends, so a studio that crashed (or whose host went away) frees it at once for the next.
// Its key is the lock class below and the schema the tables are in, so two sites whose tables share
// one database in different schemas each have their studio.

/** The first half of the one-studio lock's key (the second is the hash of the schema's name). */
const STUDIO_LOCK_CLASS = 4_201_740;

// How long the lock's connection may take to answer the watch's question before it counts as lost.
const LOCK_CHECK_TIMEOUT_MS = 10_000;

export function postgresStudioSchedule(c: PostgresStoreContext): StudioScheduleStore {
  const { query, transaction, onClose, url, connectTimeoutMs } = c;
  let holder: pg.Client | undefined;
  let lost = false;
  onClose(async () => {
    const client = holder;
    holder = undefined;
    // Ending the session releases the lock.
    await client?.end().catch(() => {});
  });

  async function holdStudioLock(): Promise<boolean> {
    if (holder !== undefined && !lost) return true;
    // TCP keepalive: a connection that died without a word (a host or a network gone) is found within
    // about a minute instead of the system's two hours, and the lock watch below then sees it lost.
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // A connection lost later (the database restarted) gives the lock up: studioLockHeld says so.
    client.on('error', () => (lost = true));
    client.on('end', () => (lost = true));
    await client.connect();
    try {
      const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, hashtext(current_schema())) AS held', [
        STUDIO_LOCK_CLASS,
      ]);
      if (rows[0]?.held !== true) {
        await client.end();
        return false;
      }
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    lost = false;
    holder = client;
    return true;
  }

  return {
    listStudioSchedule: async () => (await query(SELECT_SCHEDULE.postgres)).map(scheduleRow),
    saveStudioSchedule: async (rows: readonly StudioScheduleRow[], dropped: readonly string[]) => {
      await transaction(async (client) => {
        for (const row of rows) await client.query(UPSERT_SCHEDULE.postgres, scheduleValues(row));
        for (const id of dropped) await client.query(DELETE_SCHEDULED.postgres, [id]);
      });
    },
    importStudioSchedule: async (rows: readonly StudioScheduleRow[]) =>
      transaction(async (client) => {
        let inserted = 0;
        for (const row of rows) inserted += (await client.query(IMPORT_SCHEDULE.postgres, scheduleValues(row))).rowCount ?? 0;
        return inserted;
      }),
    holdStudioLock,
    // Asked on the lock's own connection, so a session the database ended (or a connection that no
    // longer answers) is found now, not when the next publish needs the database.
    studioLockHeld: async () => {
      if (holder === undefined || lost) return false;
      try {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the lock connection did not answer')), LOCK_CHECK_TIMEOUT_MS);
        });
        await Promise.race([holder.query('SELECT 1'), timeout]).finally(() => clearTimeout(timer));
        return !lost;
      } catch {
        lost = true;
        return false;
      }
    },
  };
}
