import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import type { ClaimOptions } from '../outbox/outbox-store.ts';
import type { NewCrmEvent } from '../sales/sales-store.ts';
import type { ClaimedCrmEvent, CrmEventKind, CrmEventResult, CrmEventStore } from './crm-event-store.ts';
import { crmEventRecordOf } from './crm-event-store.ts';
import {
  DUE_CRM_EVENTS,
  HOLD_PENDING_CRM_EVENTS,
  INSERT_CRM_EVENT_SQL,
  LIST_CRM_EVENTS,
  RECORD_CRM_EVENT_RESULT,
  RELEASE_HELD_CRM_EVENTS,
  crmEventValues,
} from './crm-event-sql.ts';

// The CRM's follow-up events in PostgreSQL: a claim locks its due rows FOR UPDATE SKIP LOCKED and
// stamps a lease, so two server processes never hold the same event at once.

export function postgresCrmEvents(c: PostgresStoreContext): CrmEventStore {
  const { query, transaction } = c;

  return {
    enqueueCrmEvents: async (events: readonly NewCrmEvent[], { held }: { held: boolean }) => {
      if (events.length === 0) return;
      await transaction(async (client) => {
        for (const event of events) await client.query(INSERT_CRM_EVENT_SQL.postgres, crmEventValues(event, held));
      });
    },

    claimDueCrmEvents: async ({ now, limit, owner, leaseMs }: ClaimOptions) => {
      if (limit <= 0) return [];
      return transaction<ClaimedCrmEvent[]>(async (client) => {
        // The lock is on the events only: the lead's delivery row is read, never held.
        const { rows } = await client.query(
          `WITH due AS (${DUE_CRM_EVENTS.postgres} FOR UPDATE OF e SKIP LOCKED)
           UPDATE crm_events c SET lease_owner = $4, lease_until = $5
           FROM due WHERE c.id = due.id
           RETURNING c.id, c.lead_id, c.kind, c.body, c.attempts, c.next_attempt_at`,
          [now, now, limit, owner, now + leaseMs],
        );
        return rows
          .sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || Number(a.id) - Number(b.id))
          .map((row) => ({
            id: Number(row.id),
            leadId: String(row.lead_id),
            kind: String(row.kind) as CrmEventKind,
            body: String(row.body),
            attempts: Number(row.attempts),
          }));
      });
    },

    recordCrmEventResults: async (results: readonly CrmEventResult[]) => {
      if (results.length === 0) return;
      await transaction(async (client) => {
        for (const result of results) {
          await client.query(RECORD_CRM_EVENT_RESULT.postgres, [
            result.nextState,
            result.nextAttemptAt ?? null,
            result.status ?? null,
            result.error ?? null,
            Math.round(result.finishedAt),
            result.id,
            result.owner,
          ]);
        }
      });
    },

    listCrmEvents: async (leadId: string) => (await query(LIST_CRM_EVENTS.postgres, [leadId])).map(crmEventRecordOf),

    releaseHeldCrmEvents: async (now: number) => (await c.pool.query(RELEASE_HELD_CRM_EVENTS.postgres, [now, now])).rowCount ?? 0,

    holdPendingCrmEvents: async (now: number) => (await c.pool.query(HOLD_PENDING_CRM_EVENTS.postgres, [now])).rowCount ?? 0,
  };
}
