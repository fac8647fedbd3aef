import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
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

// The CRM's follow-up events in SQLite: a claim is one write transaction (SQLite's one write lock
// makes it exclusive across processes); claims and results commit as bookkeeping, as the leads' do.

export function sqliteCrmEvents(c: SqliteStoreContext): CrmEventStore {
  const { all, run, transaction, ifOpen } = c;

  function enqueue(events: readonly NewCrmEvent[], { held }: { held: boolean }): void {
    if (events.length === 0) return;
    transaction(() => {
      for (const event of events) run(INSERT_CRM_EVENT_SQL.sqlite, ...(crmEventValues(event, held) as Array<string | number | null>));
    });
  }

  function claim({ now, limit, owner, leaseMs }: ClaimOptions): ClaimedCrmEvent[] {
    if (limit <= 0) return [];
    // A read first, outside the write lock: most claims find nothing due, and then take no lock at
    // all, so looking for events never slows the leads' inserts.
    if (all(DUE_CRM_EVENTS.sqlite, now, now, 1).length === 0) return [];
    return transaction(() => {
      const due = all(DUE_CRM_EVENTS.sqlite, now, now, limit);
      const claimed: ClaimedCrmEvent[] = [];
      for (const { id } of due) {
        run('UPDATE crm_events SET lease_owner = ?, lease_until = ? WHERE id = ?', owner, now + leaseMs, Number(id));
        const [row] = all('SELECT id, lead_id, kind, body, attempts FROM crm_events WHERE id = ?', Number(id));
        if (row !== undefined) {
          claimed.push({
            id: Number(row.id),
            leadId: String(row.lead_id),
            kind: String(row.kind) as CrmEventKind,
            body: String(row.body),
            attempts: Number(row.attempts),
          });
        }
      }
      return claimed;
    }, 'bookkeeping');
  }

  function record(results: readonly CrmEventResult[]): void {
    if (results.length === 0) return;
    transaction(() => {
      for (const result of results) {
        run(
          RECORD_CRM_EVENT_RESULT.sqlite,
          result.nextState,
          result.nextAttemptAt ?? null,
          result.status ?? null,
          result.error ?? null,
          result.finishedAt,
          result.id,
          result.owner,
        );
      }
    }, 'bookkeeping');
  }

  return {
    enqueueCrmEvents: ifOpen(enqueue),
    claimDueCrmEvents: ifOpen(claim),
    recordCrmEventResults: ifOpen(record),
    listCrmEvents: ifOpen((leadId: string) => all(LIST_CRM_EVENTS.sqlite, leadId).map(crmEventRecordOf)),
    releaseHeldCrmEvents: ifOpen((now: number) => run(RELEASE_HELD_CRM_EVENTS.sqlite, now, now)),
    holdPendingCrmEvents: ifOpen((now: number) => run(HOLD_PENDING_CRM_EVENTS.sqlite, now)),
  };
}
