import type { PoolClient } from 'pg';
import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import { crmEventValues, INSERT_CRM_EVENT_SQL } from '../crm-events/crm-event-sql.ts';
import { INSERT_NOTIFICATION_SQL, inKeyOrder, notificationValues } from '../notifications/notification-sql.ts';
import {
  RECENT_LEAD_MS,
  type LeadSales,
  type NewActivity,
  type NewAssignmentRule,
  type NewCrmEvent,
  type Placement,
  type SalesStore,
} from './sales-store.ts';
import {
  activityValues,
  clocksStoppedBy,
  emailDomainOf,
  lostReasonFor,
  payloadText,
  phoneKeyOf,
  releaseActivity,
  releaseCrmEvent,
  toActivity,
  toAssignmentRule,
  toAvailability,
  toLeadSales,
  toLeadSalesSummary,
  toSpeedRow,
  toUnplacedLead,
  toUntouchedLead,
} from './sales-rows.ts';
import {
  DELETE_RULES,
  INSERT_ACTIVITY,
  INSERT_LEAD_SALES,
  INSERT_RULE,
  MOVE_TURN,
  REASSIGN_IF_OWNER,
  SELECT_ACTIVITIES,
  SELECT_AVAILABILITY,
  SELECT_DELIVERY_STATE,
  SELECT_DOMAIN_OWNER,
  SELECT_EARLIER_BY_EMAIL,
  SELECT_EARLIER_BY_PHONE,
  SELECT_JOINED,
  SELECT_LEAD_FOR_PLACING,
  SELECT_LEAD_SALES,
  SELECT_RULES,
  SELECT_SALES_OF,
  SELECT_SPEED_ROWS,
  SELECT_UNPLACED,
  SELECT_UNTOUCHED,
  SELECT_UNTOUCHED_OF_OWNER,
  SELECT_UNTOUCHED_UNASSIGNED,
  SET_OWNER,
  SET_STATUS,
  TAKE_STEP,
  TOUCH,
} from './sales-sql.ts';

// The sales queue in PostgreSQL, where several server processes share the database. Placing is an
// INSERT … ON CONFLICT DO NOTHING on the lead's own row: a second process placing the same lead waits
// for the first to commit and then inserts nothing, so it writes no activity, audit or turn either.
// An escalation step is an UPDATE conditional on the step before and on no touch: the row lock
// makes a racing process re-read it after the winner commits, and it finds the step taken.

/** Joins point at the first lead of a person; a longer chain is followed this far at most. */
const MAX_JOIN_HOPS = 10;

export function postgresSales(c: PostgresStoreContext): SalesStore {
  const { query, transaction, writeAudit } = c;

  const leadSalesOn = async (client: PoolClient, leadId: string): Promise<LeadSales | undefined> => {
    const { rows } = await client.query(SELECT_LEAD_SALES.postgres, [leadId]);
    return rows[0] === undefined ? undefined : toLeadSales(rows[0]);
  };
  const addActivity = async (client: PoolClient, activity: NewActivity): Promise<void> => {
    await client.query(INSERT_ACTIVITY.postgres, activityValues(activity));
  };
  const addCrmEvents = async (client: PoolClient, events: readonly NewCrmEvent[]): Promise<void> => {
    for (const event of events) {
      const { rows } = await client.query(SELECT_DELIVERY_STATE.postgres, [event.leadId]);
      await client.query(INSERT_CRM_EVENT_SQL.postgres, crmEventValues(event, rows[0]?.state === 'held'));
    }
  };
  const moveTurn = async (client: PoolClient, accountId: string, at: number): Promise<void> => {
    await client.query(MOVE_TURN.postgres, [at, at, accountId]);
  };

  async function findLeadSales(leadId: string): Promise<LeadSales | undefined> {
    const [row] = await query(SELECT_LEAD_SALES.postgres, [leadId]);
    return row === undefined ? undefined : toLeadSales(row);
  }

  async function place(placement: Placement): Promise<boolean> {
    return transaction(async (client) => {
      const { rows } = await client.query(SELECT_LEAD_FOR_PLACING.postgres, [placement.leadId]);
      const lead = rows[0];
      if (lead === undefined) return false;
      const inserted = await client.query(INSERT_LEAD_SALES.postgres, [
        placement.ownerId ?? null,
        placement.ownerId === undefined ? null : placement.at,
        placement.clockStartsAt,
        placement.joinedTo ?? null,
        phoneKeyOf(payloadText(lead.payload, 'phone')) ?? null,
        emailDomainOf(String(lead.email)),
        placement.at,
        placement.at,
        placement.leadId,
      ]);
      if (inserted.rowCount === 0) return false;
      if (placement.roundRobin && placement.ownerId !== undefined) await moveTurn(client, placement.ownerId, placement.at);
      if (placement.activity !== undefined) await addActivity(client, placement.activity);
      await addCrmEvents(client, placement.crmEvents ?? []);
      await writeAudit(client, placement.audit, placement.at);
      return true;
    });
  }

  async function findEarlierLead(match: {
    email: string;
    phone: string | undefined;
    since: number;
    before: string;
  }): Promise<LeadSales | undefined> {
    const { since, before } = match;
    const email = match.email.trim().toLowerCase();
    const phoneKey = phoneKeyOf(match.phone);
    const candidates = [
      ...(email === '' ? [] : await query(SELECT_EARLIER_BY_EMAIL.postgres, [since, before, before, email])),
      ...(phoneKey === undefined ? [] : await query(SELECT_EARLIER_BY_PHONE.postgres, [since, before, before, phoneKey])),
    ];
    const latest = candidates.sort(
      (a, b) => Number(b.received_at) - Number(a.received_at) || (String(b.lead_id) < String(a.lead_id) ? -1 : 1),
    )[0];
    if (latest === undefined) return undefined;
    let current = toLeadSales(latest);
    for (let hop = 0; hop < MAX_JOIN_HOPS && current.joinedTo !== undefined; hop += 1) {
      const parent = await findLeadSales(current.joinedTo);
      if (parent === undefined) break;
      current = parent;
    }
    return current;
  }

  return {
    listUnplaced: async (limit: number, receivedSince: number) =>
      (await query(SELECT_UNPLACED.postgres, [receivedSince, limit])).map(toUnplacedLead),
    place,
    findEarlierLead,
    findDomainOwner: async (domain: string) => {
      const [row] = await query(SELECT_DOMAIN_OWNER.postgres, [domain.trim().toLowerCase()]);
      return row === undefined ? undefined : String(row.owner_id);
    },
    findLeadSales,
    listSalesOf: async (leadIds: readonly string[]) =>
      leadIds.length === 0 ? [] : (await query(SELECT_SALES_OF.postgres, [[...leadIds]])).map(toLeadSalesSummary),

    reassign: (change) =>
      transaction(async (client) => {
        const owner = change.ownerId ?? null;
        const expected = change.expectedOwnerId ?? null;
        const moved = await client.query(REASSIGN_IF_OWNER.postgres, [
          owner,
          owner === null ? null : change.at,
          change.at,
          change.leadId,
          expected,
          expected,
        ]);
        if (moved.rowCount === 0) return false;
        if (change.roundRobin === true && change.ownerId !== undefined) await moveTurn(client, change.ownerId, change.at);
        await addActivity(client, change.activity);
        await addCrmEvents(client, change.crmEvents);
        await writeAudit(client, change.audit, change.at);
        return true;
      }),

    recordActivity: async (change) => {
      const { activity } = change;
      const lostReason = change.status === undefined ? undefined : lostReasonFor(change.status);
      return transaction(async (client) => {
        const sales = await leadSalesOn(client, activity.leadId);
        if (sales === undefined) return undefined;
        await addActivity(client, activity);
        if (change.status !== undefined) {
          await client.query(SET_STATUS.postgres, [change.status.to, lostReason ?? null, activity.at, activity.leadId]);
        }
        if (change.touch || (change.status !== undefined && change.status.to !== 'new')) {
          for (const leadId of clocksStoppedBy(sales)) await client.query(TOUCH.postgres, [activity.at, activity.at, leadId]);
        }
        await addCrmEvents(client, change.crmEvents);
        await writeAudit(client, change.audit, activity.at);
        return leadSalesOn(client, activity.leadId);
      });
    },

    listActivities: async (leadId: string) => (await query(SELECT_ACTIVITIES.postgres, [leadId])).map(toActivity),
    listJoined: async (leadId: string) => (await query(SELECT_JOINED.postgres, [leadId])).map((row) => String(row.lead_id)),
    listUntouched: async ({ ownerId, unassigned, limit }) => {
      const rows =
        ownerId !== undefined
          ? await query(SELECT_UNTOUCHED_OF_OWNER.postgres, [ownerId, limit])
          : unassigned === true
            ? await query(SELECT_UNTOUCHED_UNASSIGNED.postgres, [limit])
            : await query(SELECT_UNTOUCHED.postgres, [limit]);
      return rows.map(toUntouchedLead);
    },

    escalate: (change) =>
      transaction(async (client) => {
        const expected = change.expectedOwnerId ?? null;
        const taken = await client.query(TAKE_STEP.postgres, [change.step, change.at, change.leadId, change.step - 1, expected, expected]);
        if (taken.rowCount === 0) return false;
        for (const notification of inKeyOrder(change.notifications)) {
          await client.query(INSERT_NOTIFICATION_SQL.postgres, notificationValues(notification));
        }
        const { reassign: moveTo } = change;
        if (moveTo !== undefined) {
          await client.query(SET_OWNER.postgres, [
            moveTo.ownerId ?? null,
            moveTo.ownerId === undefined ? null : change.at,
            change.at,
            change.leadId,
          ]);
          if (moveTo.roundRobin === true && moveTo.ownerId !== undefined) await moveTurn(client, moveTo.ownerId, change.at);
          await addActivity(client, moveTo.activity);
          await addCrmEvents(client, moveTo.crmEvents);
        }
        await addActivity(client, change.activity);
        await writeAudit(client, change.audit, change.at);
        return true;
      }),

    releaseOwner: (accountId: string, at: number, audit: AuditEntryInput<'released-leads'> | undefined, ownerEmail?: string) =>
      transaction(async (client) => {
        const { rows } = await client.query(
          `UPDATE lead_sales SET owner_id = NULL, assigned_at = NULL, updated_at = $1
           WHERE owner_id = $2 AND status NOT IN ('won', 'lost') RETURNING lead_id, received_at`,
          [at, accountId],
        );
        const released = rows
          .sort((a, b) => Number(a.received_at) - Number(b.received_at) || (String(a.lead_id) < String(b.lead_id) ? -1 : 1))
          .map((row) => String(row.lead_id));
        for (const leadId of released) {
          await addActivity(client, releaseActivity(leadId, accountId, at, audit));
          await addCrmEvents(client, [releaseCrmEvent(leadId, at, ownerEmail)]);
        }
        if (released.length > 0) await writeAudit(client, audit, at, released);
        return released;
      }),

    listSpeedRows: async (receivedFrom: number, receivedBefore: number) =>
      (await query(SELECT_SPEED_ROWS.postgres, [receivedFrom, receivedBefore, RECENT_LEAD_MS])).map(toSpeedRow),

    listRules: async () => (await query(SELECT_RULES.postgres)).map(toAssignmentRule),
    replaceRules: (rules: readonly NewAssignmentRule[], audit: AuditEntryInput | undefined) =>
      transaction(async (client) => {
        // Two admins saving at once: the second waits and replaces the first's rules whole, never mixing the two lists.
        await client.query('LOCK TABLE assignment_rules IN SHARE ROW EXCLUSIVE MODE');
        await client.query(DELETE_RULES.postgres);
        for (const [position, rule] of rules.entries()) {
          await client.query(INSERT_RULE.postgres, [position, rule.kind, rule.value, rule.ownerId ?? null]);
        }
        await writeAudit(client, audit, Date.now());
        return (await client.query(SELECT_RULES.postgres)).rows.map(toAssignmentRule);
      }),

    listAvailability: async () => (await query(SELECT_AVAILABILITY.postgres)).map(toAvailability),
    setAvailability: async (availability, at, audit) => {
      await transaction(async (client) => {
        await client.query(
          `INSERT INTO sales_people (account_id, time_zone, windows, away, updated_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (account_id) DO UPDATE SET time_zone = excluded.time_zone, windows = excluded.windows, away = excluded.away,
             updated_at = excluded.updated_at`,
          [availability.accountId, availability.timeZone, JSON.stringify(availability.windows), availability.away, at],
        );
        await writeAudit(client, audit, at);
      });
    },
  };
}
