import { giveBackSlots, parsePaceLog, takeSlots } from './pace-log.ts';
import { assertPaceLimit } from './crm-pace-store.ts';
import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
import type { CrmPaceStore } from './crm-pace-store.ts';
import { UPDATE_PACE } from './crm-pace-sql.ts';

// The CRM's pace in SQLite: the window is read and rewritten under BEGIN IMMEDIATE.

export function sqliteCrmPace(c: SqliteStoreContext): CrmPaceStore {
  const { get, run, transaction, ifOpen } = c;
  function readPace(): ReturnType<typeof parsePaceLog> {
    return parsePaceLog(get('SELECT grants FROM crm_pace WHERE id = 1')?.grants as string | undefined);
  }

  function takeCrmSlots(now: number, wanted: number, maxPer10s: number): number {
    assertPaceLimit(maxPer10s);
    if (wanted < 1) return 0;
    // Inside BEGIN IMMEDIATE: no other process reads the window between this read and its write.
    return transaction(() => {
      const { granted, log } = takeSlots(readPace(), now, wanted, maxPer10s);
      if (granted > 0) run(UPDATE_PACE.sqlite, JSON.stringify(log));
      return granted;
    }, 'bookkeeping');
  }

  function giveBackCrmSlots(now: number, count: number): void {
    if (count < 1) return;
    transaction(() => {
      run(UPDATE_PACE.sqlite, JSON.stringify(giveBackSlots(readPace(), now, count)));
    }, 'bookkeeping');
  }
  return {
    takeCrmSlots: ifOpen(takeCrmSlots),
    giveBackCrmSlots: ifOpen(giveBackCrmSlots),
  };
}
