import type { ClaimOptions, ClaimedDelivery, DeliveryResult, InsertLeadResult, NewLead } from './outbox-store.ts';
import { judgeRepeatedKey, leadColumnsOf, truncateResponseBody } from './outbox-store.ts';
import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import type { OutboxStore } from './outbox-store.ts';
import {
  HOLD_PENDING,
  INSERT_ATTEMPT,
  INSERT_DELIVERY,
  RECORD_RESULT,
  RELEASE_HELD,
  SELECT_LEAD_BY_IDEMPOTENCY_KEY,
} from './outbox-sql.ts';

// The outbox in PostgreSQL: claims take due rows FOR UPDATE SKIP LOCKED and stamp a lease.

export function postgresOutbox(c: PostgresStoreContext): OutboxStore {
  const { pool, transaction } = c;

  return {
    insertLead: (lead: NewLead) =>
      transaction<InsertLeadResult>(async (client) => {
        const columns = leadColumnsOf(lead.payload);
        const inserted = await client.query(
          `INSERT INTO leads (id, received_at, source, email, payload, spam_reason, idempotency_key_hash, idempotency_body_hash,
             name, company, utm_campaign, utm_source)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (idempotency_key_hash) DO NOTHING RETURNING id`,
          [
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
          ],
        );
        if (inserted.rowCount === 0 && lead.idempotency !== undefined) {
          // The conflicting insert has committed (PostgreSQL waited for it), so its row is visible now.
          const existing = await client.query<{ id: string; idempotency_body_hash: string | null }>(
            SELECT_LEAD_BY_IDEMPOTENCY_KEY.postgres,
            [lead.idempotency.keyHash],
          );
          const row = existing.rows[0];
          return judgeRepeatedKey(String(row?.id), row?.idempotency_body_hash ?? null, lead.idempotency.bodyHash);
        }
        await client.query(INSERT_DELIVERY.postgres, [
          lead.id,
          lead.initialState,
          lead.initialState === 'pending' ? lead.receivedAt : null,
          lead.receivedAt,
          lead.receivedAt,
        ]);
        return { kind: 'created', id: lead.id };
      }),

    claimDue: ({ now, limit, owner, leaseMs }: ClaimOptions) =>
      transaction<ClaimedDelivery[]>(async (client) => {
        const { rows } = await client.query(
          `WITH due AS (
             SELECT lead_id FROM deliveries
             WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
             ORDER BY next_attempt_at LIMIT $2
             FOR UPDATE SKIP LOCKED
           )
           UPDATE deliveries d SET lease_owner = $3, lease_until = $4
           FROM due, leads l
           WHERE d.lead_id = due.lead_id AND l.id = d.lead_id
           RETURNING d.lead_id, d.attempts, l.payload, d.next_attempt_at`,
          [now, limit, owner, now + leaseMs],
        );
        return rows
          .sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at))
          .map((row) => ({
            leadId: String(row.lead_id),
            attempts: Number(row.attempts),
            body: String(row.payload),
          }));
      }),

    recordResults: async (results: readonly DeliveryResult[]) => {
      if (results.length === 0) return;
      await transaction(async (client) => {
        for (const result of results) {
          const { attempt } = result;
          await client.query(INSERT_ATTEMPT.postgres, [
            result.leadId,
            attempt.attemptedAt,
            Math.round(attempt.durationMs),
            attempt.status ?? null,
            truncateResponseBody(attempt.responseBody) ?? null,
            attempt.error ?? null,
            result.nextState,
            result.leadId,
          ]);
          await client.query(RECORD_RESULT.postgres, [
            result.nextState,
            result.nextAttemptAt ?? null,
            attempt.status ?? null,
            attempt.error ?? null,
            Math.round(attempt.attemptedAt + attempt.durationMs),
            result.leadId,
            result.owner,
          ]);
        }
      });
    },

    releaseHeld: async (now: number) => (await pool.query(RELEASE_HELD.postgres, [now, now])).rowCount ?? 0,

    holdPending: async (now: number) => (await pool.query(HOLD_PENDING.postgres, [now])).rowCount ?? 0,
  };
}
