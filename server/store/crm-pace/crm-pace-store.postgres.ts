import { giveBackSlots, parsePaceLog, takeSlots } from './pace-log.ts';
import { assertPaceLimit } from './crm-pace-store.ts';
import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import type { CrmPaceStore } from './crm-pace-store.ts';
import { UPDATE_PACE } from './crm-pace-sql.ts';

// The CRM's pace in PostgreSQL: the window's row is locked while it is read and rewritten.

export function postgresCrmPace(c: PostgresStoreContext): CrmPaceStore {
  const { transaction } = c;

  return {
    takeCrmSlots: async (now, wanted, maxPer10s) => {
      assertPaceLimit(maxPer10s);
      if (wanted < 1) return 0;
      // The row lock makes every other process's grant wait until this one has committed.
      return transaction(async (client) => {
        const { rows } = await client.query<{ grants: string }>('SELECT grants FROM crm_pace WHERE id = 1 FOR UPDATE');
        const { granted, log } = takeSlots(parsePaceLog(rows[0]?.grants), now, wanted, maxPer10s);
        if (granted > 0) await client.query(UPDATE_PACE.postgres, [JSON.stringify(log)]);
        return granted;
      });
    },

    giveBackCrmSlots: async (now, count) => {
      if (count < 1) return;
      await transaction(async (client) => {
        const { rows } = await client.query<{ grants: string }>('SELECT grants FROM crm_pace WHERE id = 1 FOR UPDATE');
        const log = giveBackSlots(parsePaceLog(rows[0]?.grants), now, count);
        await client.query(UPDATE_PACE.postgres, [JSON.stringify(log)]);
      });
    },
  };
}
