import type { ClaimOptions, ClaimedDelivery, DeliveryResult, InsertLeadResult, NewLead } from './outbox-store.ts';
import { judgeRepeatedKey, leadColumnsOf, truncateResponseBody } from './outbox-store.ts';
import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
import type { OutboxStore } from './outbox-store.ts';
import {
  HOLD_PENDING,
  INSERT_ATTEMPT,
  INSERT_DELIVERY,
  RECORD_RESULT,
  RELEASE_HELD,
  SELECT_LEAD_BY_IDEMPOTENCY_KEY,
} from './outbox-sql.ts';

// The outbox in SQLite: inserts share a group commit, claims and results commit as bookkeeping.

export function sqliteOutbox(c: SqliteStoreContext): OutboxStore {
  const { all, get, run, transaction, ifOpen, db } = c;
  // Group commit: inserts requested in the same event-loop turn share one transaction, so one WAL
  // fsync acknowledges them all. Each caller's promise settles only after that COMMIT has returned.
  // A savepoint per lead keeps one bad insert from taking the others with it.
  let insertQueue: Array<{ lead: NewLead; resolve: (result: InsertLeadResult) => void; reject: (error: unknown) => void }> = [];

  function queueInsert(lead: NewLead): Promise<InsertLeadResult> {
    return new Promise((resolve, reject) => {
      if (insertQueue.length === 0) setImmediate(commitQueuedInserts);
      insertQueue.push({ lead, resolve, reject });
    });
  }

  function commitQueuedInserts(): void {
    const batch = insertQueue;
    insertQueue = [];
    const outcomes: Array<{ ok: true; result: InsertLeadResult } | { ok: false; error: unknown }> = [];
    try {
      transaction(() => {
        for (const { lead } of batch) {
          db.exec('SAVEPOINT lead');
          try {
            outcomes.push({ ok: true, result: insertOneLead(lead) });
            db.exec('RELEASE lead');
          } catch (error) {
            db.exec('ROLLBACK TO lead');
            db.exec('RELEASE lead');
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    batch.forEach(({ resolve, reject }, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) resolve(outcome.result);
      else reject(outcome?.error);
    });
  }

  function insertOneLead(lead: NewLead): InsertLeadResult {
    if (lead.idempotency !== undefined) {
      const existing = get(SELECT_LEAD_BY_IDEMPOTENCY_KEY.sqlite, lead.idempotency.keyHash);
      if (existing !== undefined) {
        const storedBodyHash = existing.idempotency_body_hash;
        return judgeRepeatedKey(String(existing.id), typeof storedBodyHash === 'string' ? storedBodyHash : null, lead.idempotency.bodyHash);
      }
    }
    const columns = leadColumnsOf(lead.payload);
    run(
      `INSERT INTO leads (id, received_at, source, email, payload, spam_reason, idempotency_key_hash, idempotency_body_hash,
         name, company, utm_campaign, utm_source)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      lead.id,
      lead.receivedAt,
      lead.source,
      lead.email.toLowerCase(),
      JSON.stringify(lead.payload),
      lead.spamReason ?? null,
      lead.idempotency?.keyHash ?? null,
      lead.idempotency?.bodyHash ?? null,
      columns.name,
      columns.company,
      columns.utmCampaign,
      columns.utmSource,
    );
    run(
      INSERT_DELIVERY.sqlite,
      lead.id,
      lead.initialState,
      lead.initialState === 'pending' ? lead.receivedAt : null,
      lead.receivedAt,
      lead.receivedAt,
    );
    return { kind: 'created', id: lead.id };
  }

  function claimDue({ now, limit, owner, leaseMs }: ClaimOptions): ClaimedDelivery[] {
    return transaction(() => {
      const rows = all(
        `SELECT d.lead_id, d.attempts, l.payload FROM deliveries d JOIN leads l ON l.id = d.lead_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)
         ORDER BY d.next_attempt_at LIMIT ?`,
        now,
        now,
        limit,
      );
      for (const row of rows) {
        run('UPDATE deliveries SET lease_owner = ?, lease_until = ? WHERE lead_id = ?', owner, now + leaseMs, row.lead_id as string);
      }
      return rows.map((row) => ({
        leadId: String(row.lead_id),
        attempts: Number(row.attempts),
        body: String(row.payload),
      }));
    }, 'bookkeeping');
  }

  function recordResults(results: readonly DeliveryResult[]): void {
    if (results.length === 0) return;
    transaction(() => {
      for (const result of results) {
        const { attempt } = result;
        run(
          INSERT_ATTEMPT.sqlite,
          result.leadId,
          attempt.attemptedAt,
          attempt.durationMs,
          attempt.status ?? null,
          truncateResponseBody(attempt.responseBody) ?? null,
          attempt.error ?? null,
          result.nextState,
          result.leadId,
        );
        run(
          RECORD_RESULT.sqlite,
          result.nextState,
          result.nextAttemptAt ?? null,
          attempt.status ?? null,
          attempt.error ?? null,
          attempt.attemptedAt + attempt.durationMs,
          result.leadId,
          result.owner,
        );
      }
    }, 'bookkeeping');
  }
  c.onClose(() => {
    if (insertQueue.length > 0) commitQueuedInserts();
  });
  return {
    insertLead: ifOpen(queueInsert),
    claimDue: ifOpen(claimDue),
    recordResults: ifOpen(recordResults),
    releaseHeld: ifOpen((now: number) => run(RELEASE_HELD.sqlite, now, now)),
    holdPending: ifOpen((now: number) => run(HOLD_PENDING.sqlite, now)),
  };
}
