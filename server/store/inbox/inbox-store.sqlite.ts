import type { SQLInputValue } from 'node:sqlite';
import { ERASE_BOOKINGS, PURGE_ORPHANED_BOOKINGS, PURGE_UNMATCHED_BOOKINGS } from '../bookings/booking-sql.ts';
import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import { buildLeadPageQuery } from '../lead-page-query.ts';
import type { DeliveryState } from '../outbox/outbox-store.ts';
import type {
  LeadCursor,
  LeadExport,
  LeadHealthRecord,
  LeadPageResult,
  LeadQuery,
  LeadRecord,
  ListOptions,
  PurgeCutoffs,
  RebuiltLead,
  RetriedLead,
  StateCounts,
} from './inbox-store.ts';
import {
  DAY_MS,
  PURGEABLE_STATES,
  PURGE_BATCH_SIZE,
  RETRYABLE_STATES,
  SEND_AGAIN_STATES,
  SPAM_MARKABLE_STATES,
  healthDays,
  summarizeWeek,
  keysetExport,
} from './inbox-store.ts';
import { assertPageLimit } from '../../../back-office/database/page-limit.ts';
import { leadColumnsOf } from '../outbox/outbox-store.ts';
import { LEAD_COLUMNS, toAttemptRecord, toLeadPage, toLeadRecord } from '../row-mapping.ts';
import { exportOf, openSqliteLeadExportSync } from '../sqlite-lead-export.ts';
import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
import type { InboxStore } from './inbox-store.ts';
import {
  COUNT_BY_STATE,
  COUNT_DELIVERED_BETWEEN,
  COUNT_FAILED,
  COUNT_LEADS_BY_EMAIL,
  COUNT_PENDING,
  COUNT_RETRYING,
  COUNT_SPAM_RECEIVED,
  SELECT_ATTEMPTS,
  SELECT_LEAD,
  SELECT_OLDEST_UNDELIVERED,
} from './inbox-sql.ts';
import { placeholders } from '../../../back-office/database/sqlite-database.ts';

// The inbox in SQLite: pages, downloads (on connections of their own), health, retries, spam marks,
// erasure and the retention purge.

export function sqliteInbox(c: SqliteStoreContext): InboxStore {
  const { all, get, run, transaction, writeAudit, ifOpen, isClosed, file } = c;
  function makeDue(id: string, now: number): void {
    run(
      `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, lease_owner = NULL,
         lease_until = NULL, updated_at = ? WHERE lead_id = ?`,
      now,
      now,
      id,
    );
  }

  function retry(
    target: { readonly id: string } | { readonly state: 'failed' },
    now: number,
    audit?: AuditEntryInput<'every-failed-retry'>,
  ): RetriedLead[] {
    return transaction(() => {
      const rows =
        'id' in target
          ? all(
              `SELECT lead_id, state, attempts FROM deliveries WHERE lead_id = ? AND state IN (${placeholders(RETRYABLE_STATES.length)})
               AND (lease_until IS NULL OR lease_until <= ?)`,
              target.id,
              ...RETRYABLE_STATES,
              now,
            )
          : all(`SELECT lead_id, state, attempts FROM deliveries WHERE state = 'failed'`);
      for (const row of rows) makeDue(String(row.lead_id), now);
      const moved = rows.map((row) => ({ id: String(row.lead_id), from: row.state as DeliveryState, attempts: Number(row.attempts) }));
      writeAudit(audit, now, moved);
      return moved;
    });
  }

  function sendAgain(id: string, now: number, audit?: AuditEntryInput): boolean {
    return transaction(() => {
      const row = get(
        `SELECT lead_id FROM deliveries WHERE lead_id = ? AND state IN (${placeholders(SEND_AGAIN_STATES.length)})
         AND (lease_until IS NULL OR lease_until <= ?)`,
        id,
        ...SEND_AGAIN_STATES,
        now,
      );
      if (row !== undefined) {
        makeDue(id, now);
        writeAudit(audit, now);
      }
      return row !== undefined;
    });
  }

  function eraseByEmail(email: string, audit?: AuditEntryInput<'erased-count'>): string[] {
    return transaction(() => {
      const address = email.trim().toLowerCase();
      // The person's meetings first, while their leads still say which are theirs.
      run(ERASE_BOOKINGS.sqlite, Date.now(), address, address);
      const ids = all('SELECT id FROM leads WHERE email = ?', address).map((row) => String(row.id));
      for (const id of ids) {
        run('DELETE FROM delivery_attempts WHERE lead_id = ?', id);
        run('DELETE FROM deliveries WHERE lead_id = ?', id);
        run('DELETE FROM leads WHERE id = ?', id);
      }
      writeAudit(audit, Date.now(), ids);
      return ids;
    });
  }

  function listLeads({ state, limit }: ListOptions = {}): LeadRecord[] {
    const where = state === undefined ? '' : 'WHERE d.state = ?';
    const params: SQLInputValue[] = state === undefined ? [] : [state];
    const rows = all(
      `SELECT ${LEAD_COLUMNS} FROM leads l JOIN deliveries d ON d.lead_id = l.id ${where}
       ORDER BY l.received_at, l.id LIMIT ?`,
      ...params,
      limit ?? -1,
    );
    return rows.map(toLeadRecord);
  }

  function listLeadPage(query: LeadQuery, after: LeadCursor | undefined, limit: number): LeadPageResult {
    assertPageLimit(limit);
    const { sql, params } = buildLeadPageQuery('sqlite', query, after, limit);
    return toLeadPage(all(sql, ...params), limit);
  }

  function markSpam(id: string, reason: string, now: number, audit?: AuditEntryInput): boolean {
    return transaction(() => {
      const changed = run(
        `UPDATE deliveries SET state = 'spam', next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL, updated_at = ?
         WHERE lead_id = ? AND state IN (${placeholders(SPAM_MARKABLE_STATES.length)}) AND (lease_until IS NULL OR lease_until <= ?)`,
        now,
        id,
        ...SPAM_MARKABLE_STATES,
        now,
      );
      if (changed > 0) {
        run('UPDATE leads SET spam_reason = ? WHERE id = ?', reason, id);
        writeAudit(audit, now);
      }
      return changed > 0;
    });
  }

  function markNotSpam(id: string, now: number, rebuilt: RebuiltLead, audit?: AuditEntryInput): boolean {
    return transaction(() => {
      const changed = run(
        `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,
           updated_at = ? WHERE lead_id = ? AND state = 'spam'`,
        now,
        now,
        id,
      );
      if (changed > 0) {
        const columns = leadColumnsOf(rebuilt.payload);
        run(
          `UPDATE leads SET spam_reason = NULL, source = ?, email = ?, payload = ?, name = ?, company = ?, utm_campaign = ?, utm_source = ?
           WHERE id = ?`,
          rebuilt.source,
          rebuilt.email.toLowerCase(),
          JSON.stringify(rebuilt.payload),
          columns.name,
          columns.company,
          columns.utmCampaign,
          columns.utmSource,
          id,
        );
        writeAudit(audit, now);
      }
      return changed > 0;
    });
  }
  function leadHealth(now: number): LeadHealthRecord {
    const { weekStart, end } = healthDays(now);
    const week = all(
      `SELECT l.source, CAST((l.received_at - ?) / ? AS INTEGER) AS day_index, COUNT(*) AS leads
       FROM leads l CROSS JOIN deliveries d WHERE d.lead_id = l.id AND l.received_at >= ? AND l.received_at < ? AND d.state <> 'spam'
       GROUP BY l.source, day_index`,
      weekStart,
      DAY_MS,
      weekStart,
      end,
    ).map((row) => ({ source: String(row.source), dayIndex: Number(row.day_index), leads: Number(row.leads) }));
    const count = (sql: string, ...params: SQLInputValue[]): number => Number(get(sql, ...params)?.count ?? 0);
    const oldest = get(SELECT_OLDEST_UNDELIVERED.sqlite);
    const lastDelivered = get(
      `SELECT MAX(latest) AS latest FROM (
         SELECT MAX(attempted_at) AS latest FROM delivery_attempts WHERE outcome = 'delivered'
         UNION ALL SELECT MAX(attempted_at) AS latest FROM delivery_attempts WHERE outcome = 'delivered-test')`,
    )?.latest;
    const lastFailed = get(
      `SELECT MAX(latest) AS latest FROM (
         SELECT MAX(attempted_at) AS latest FROM delivery_attempts WHERE outcome = 'pending'
         UNION ALL SELECT MAX(attempted_at) AS latest FROM delivery_attempts WHERE outcome = 'failed')`,
    )?.latest;
    return {
      ...summarizeWeek(weekStart, week),
      deliveredLast24h: count(COUNT_DELIVERED_BETWEEN.sqlite, now - DAY_MS, now),
      failed: count(COUNT_FAILED.sqlite),
      retrying: count(COUNT_RETRYING.sqlite),
      spamWeek: count(COUNT_SPAM_RECEIVED.sqlite, weekStart, end),
      oldestUndelivered: oldest === undefined ? undefined : { id: String(oldest.lead_id), receivedAt: Number(oldest.received_at) },
      lastDeliveredAt: lastDelivered === null || lastDelivered === undefined ? undefined : Number(lastDelivered),
      lastFailedAt: lastFailed === null || lastFailed === undefined ? undefined : Number(lastFailed),
      pending: count(COUNT_PENDING.sqlite),
    };
  }

  // Each batch is its own transaction, and the thread turns to other calls between batches, so a
  // large first purge never holds the write lock (or this store) for long.
  // The audit entry goes with the purge's last transaction: the last batch of the last cutoff given.
  async function purgeExpired(
    { leadsReceivedBefore, spamReceivedBefore }: PurgeCutoffs,
    audit?: AuditEntryInput<'purge-counts'>,
  ): Promise<{ leads: number; spam: number }> {
    // `last` writes the entry in the last batch's transaction, given the cutoff's total with that batch.
    const purge = async (states: readonly DeliveryState[], before: number | undefined, last?: (count: number) => void): Promise<number> => {
      if (before === undefined) return 0;
      let total = 0;
      for (;;) {
        if (isClosed()) throw new Error('The lead store is closed');
        const deleted = transaction(() => {
          // Deliveries and attempts go with their lead (ON DELETE CASCADE; foreign keys are on).
          const count = run(
            `DELETE FROM leads WHERE id IN (
               SELECT lead_id FROM deliveries WHERE state IN (${placeholders(states.length)}) AND received_at < ? AND lease_until IS NULL
               LIMIT ?)`,
            ...states,
            before,
            PURGE_BATCH_SIZE,
          );
          if (count < PURGE_BATCH_SIZE) last?.(total + count);
          return count;
        });
        total += deleted;
        if (deleted < PURGE_BATCH_SIZE) return total;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const write = (counts: { leads: number; spam: number }): void => writeAudit(audit, Date.now(), counts);
    const leads = await purge(
      PURGEABLE_STATES,
      leadsReceivedBefore,
      spamReceivedBefore === undefined && audit !== undefined ? (count) => write({ leads: count, spam: 0 }) : undefined,
    );
    const spam = await purge(['spam'], spamReceivedBefore, audit === undefined ? undefined : (count) => write({ leads, spam: count }));
    // Every run, whatever it deleted: a meeting left by a lead erased or purged earlier goes too, and
    // one that matched no lead is kept no longer than a lead.
    transaction(() => {
      run(PURGE_ORPHANED_BOOKINGS.sqlite);
      if (leadsReceivedBefore !== undefined) run(PURGE_UNMATCHED_BOOKINGS.sqlite, leadsReceivedBefore);
    });
    if (leadsReceivedBefore === undefined && spamReceivedBefore === undefined && audit !== undefined) {
      transaction(() => write({ leads: 0, spam: 0 }));
    }
    return { leads, spam };
  }
  // Downloads read on connections of their own (a database in memory has only this one), closed with the store.
  const openExports = new Set<LeadExport>();
  function openLeadExport(query: LeadQuery): LeadExport {
    if (file === ':memory:')
      return keysetExport(
        async (after, limit) => listLeadPage(query, after, limit),
        async () => {},
      );
    const reader = openSqliteLeadExportSync(file, query);
    const opened = exportOf(
      async (limit) => reader.readPage(limit),
      async () => {
        openExports.delete(opened);
        reader.close();
      },
    );
    openExports.add(opened);
    return opened;
  }
  c.onClose(async () => {
    await Promise.all([...openExports].map((opened) => opened.close()));
  });
  return {
    openLeadExport: ifOpen(openLeadExport),
    retry: ifOpen(retry),
    sendAgain: ifOpen(sendAgain),
    eraseByEmail: ifOpen(eraseByEmail),
    listLeads: ifOpen(listLeads),
    getLead: ifOpen((id: string) => {
      const row = get(SELECT_LEAD.sqlite, id);
      return row === undefined ? undefined : toLeadRecord(row);
    }),
    listAttempts: ifOpen((leadId: string) => all(SELECT_ATTEMPTS.sqlite, leadId).map(toAttemptRecord)),
    countByState: ifOpen(() => {
      const counts: Partial<Record<DeliveryState, number>> = {};
      for (const row of all(COUNT_BY_STATE.sqlite)) {
        counts[row.state as DeliveryState] = Number(row.count);
      }
      return counts as StateCounts;
    }),
    countSpam: ifOpen((receivedFrom: number, receivedBefore: number) =>
      Number(get(COUNT_SPAM_RECEIVED.sqlite, receivedFrom, receivedBefore)?.count ?? 0),
    ),
    listLeadPage: ifOpen(listLeadPage),
    markSpam: ifOpen(markSpam),
    markNotSpam: ifOpen(markNotSpam),
    countLeadsByEmail: ifOpen((email: string) => Number(get(COUNT_LEADS_BY_EMAIL.sqlite, email.trim().toLowerCase())?.count ?? 0)),
    leadHealth: ifOpen(leadHealth),
    purgeExpired: ifOpen(purgeExpired),
  };
}
