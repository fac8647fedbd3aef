import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The CRM's follow-up events (a lead's owner or sales status changed, a meeting was booked): each
// engine's steps, tagged with the lead database's schema version they came in. They wait here,
// signed and retried by the outbox worker at the CRM's pace like the leads themselves; an event is
// written in the same transaction as the change it tells of, so the CRM hears of every change once.
// Never edit a released step: a change is a new step under the next version.

const TABLE = (id: string, time: string) => `
    CREATE TABLE crm_events (
      id ${id},
      lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at ${time} NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at ${time},
      lease_owner TEXT,
      lease_until ${time},
      last_status INTEGER,
      last_error TEXT,
      updated_at ${time} NOT NULL
    );
    CREATE INDEX crm_events_due ON crm_events (state, next_attempt_at);
    CREATE INDEX crm_events_lead ON crm_events (lead_id, id);
`;

export const CRM_EVENT_MIGRATIONS: ConcernMigrations = {
  sqlite: [{ version: 9, sql: TABLE('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER') }],
  postgres: [{ version: 9, sql: TABLE('BIGSERIAL PRIMARY KEY', 'BIGINT') }],
};
