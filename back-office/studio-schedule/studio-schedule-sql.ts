import { sharedSql } from '../database/shared-sql.ts';
import type { StudioScheduleRow } from './studio-schedule-store.ts';

// The studio schedule's statements both engines run alike (placeholders aside).

export const SELECT_SCHEDULE = sharedSql(
  'SELECT id, run_at, status, scheduled_by, scheduled_at, started_at, record FROM studio_schedule ORDER BY seq',
);

/** Values: `scheduleValues(row)`. */
export const UPSERT_SCHEDULE = sharedSql(
  `INSERT INTO studio_schedule (id, run_at, status, scheduled_by, scheduled_at, started_at, record) VALUES (?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (id) DO UPDATE SET run_at = excluded.run_at, status = excluded.status, scheduled_by = excluded.scheduled_by,
     scheduled_at = excluded.scheduled_at, started_at = excluded.started_at, record = excluded.record`,
);

/** Values: `scheduleValues(row)`. */
export const IMPORT_SCHEDULE = sharedSql(
  `INSERT INTO studio_schedule (id, run_at, status, scheduled_by, scheduled_at, started_at, record) VALUES (?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (id) DO NOTHING`,
);

export const DELETE_SCHEDULED = sharedSql('DELETE FROM studio_schedule WHERE id = ?');

export function scheduleValues(row: StudioScheduleRow): [string, string, string, string, string, string | null, string] {
  return [row.id, row.runAt, row.status, row.scheduledBy, row.scheduledAt, row.startedAt, row.record];
}

export function scheduleRow(row: Record<string, unknown>): StudioScheduleRow {
  return {
    id: String(row.id),
    runAt: String(row.run_at),
    status: String(row.status),
    scheduledBy: String(row.scheduled_by),
    scheduledAt: String(row.scheduled_at),
    startedAt: row.started_at === null || row.started_at === undefined ? null : String(row.started_at),
    record: String(row.record),
  };
}
