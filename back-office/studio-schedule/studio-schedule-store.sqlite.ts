import { DatabaseSync } from 'node:sqlite';
import { isBusy, type SqliteStoreContext } from '../database/sqlite-database.ts';
import type { StudioScheduleRow, StudioScheduleStore } from './studio-schedule-store.ts';
import { DELETE_SCHEDULED, IMPORT_SCHEDULE, SELECT_SCHEDULE, scheduleRow, scheduleValues, UPSERT_SCHEDULE } from './studio-schedule-sql.ts';

// The studio schedule in SQLite. The one-studio lock is an exclusive lock on a small database file of
// its own beside the lead database (`<file>.studio-lock`), taken in SQLite's exclusive locking mode so
// it is held until that connection closes: the system drops it when the process ends, however it
// ends, so a studio can start again at once after a crash. It is a file of its own because an
// exclusive lock on the lead database would stop the site's server writing leads.

export function sqliteStudioSchedule(c: SqliteStoreContext): StudioScheduleStore {
  const { all, run, transaction, ifOpen, onClose, file } = c;
  let lock: DatabaseSync | undefined;
  let heldInMemory = false;
  onClose(() => {
    lock?.close();
    lock = undefined;
  });

  function holdStudioLock(): boolean {
    if (lock !== undefined || heldInMemory) return true;
    // A database in memory (tests) is this connection's alone: nobody else can open it.
    if (file === ':memory:') return (heldInMemory = true);
    const candidate = new DatabaseSync(`${file}.studio-lock`, { timeout: 0 });
    try {
      candidate.exec('PRAGMA locking_mode = EXCLUSIVE');
      candidate.exec('BEGIN EXCLUSIVE');
      candidate.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
      candidate.exec('DELETE FROM holder');
      candidate.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
      candidate.exec('COMMIT');
    } catch (error) {
      candidate.close();
      if (isBusy(error)) return false;
      throw error;
    }
    lock = candidate;
    return true;
  }

  return {
    listStudioSchedule: ifOpen(() => all(SELECT_SCHEDULE.sqlite).map(scheduleRow)),
    saveStudioSchedule: ifOpen((rows: readonly StudioScheduleRow[], dropped: readonly string[]) => {
      transaction(() => {
        for (const row of rows) run(UPSERT_SCHEDULE.sqlite, ...scheduleValues(row));
        for (const id of dropped) run(DELETE_SCHEDULED.sqlite, id);
      });
    }),
    importStudioSchedule: ifOpen((rows: readonly StudioScheduleRow[]) =>
      transaction(() => rows.reduce((inserted, row) => inserted + run(IMPORT_SCHEDULE.sqlite, ...scheduleValues(row)), 0)),
    ),
    holdStudioLock: ifOpen(holdStudioLock),
    studioLockHeld: ifOpen(() => lock !== undefined || heldInMemory),
  };
}
