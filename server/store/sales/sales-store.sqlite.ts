import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
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
  SELECT_OPEN_OF_OWNER,
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

// The sales queue in SQLite. Every change is one BEGIN IMMEDIATE transaction, which takes SQLite's one
// write lock: two processes placing or escalating the same lead run one after the other, and the
// second finds the row already written (or the step already taken) and writes nothing.

/** Joins point at the first lead of a person; a longer chain is followed this far at most. */
const MAX_JOIN_HOPS = 10;

export function sqliteSales(c: SqliteStoreContext): SalesStore {
  const { all, get, run, transaction, writeAudit, ifOpen } = c;

  const leadSales = (leadId: string): LeadSales | undefined => {
    const row = get(SELECT_LEAD_SALES.sqlite, leadId);
    return row === undefined ? undefined : toLeadSales(row);
  };
  const addActivity = (activity: NewActivity): void => {
    run(INSERT_ACTIVITY.sqlite, ...activityValues(activity));
  };
  const addCrmEvents = (events: readonly NewCrmEvent[]): void => {
    for (const event of events) {
      const held = get(SELECT_DELIVERY_STATE.sqlite, event.leadId)?.state === 'held';
      run(INSERT_CRM_EVENT_SQL.sqlite, ...(crmEventValues(event, held) as (string | number | null)[]));
    }
  };
  const moveTurn = (accountId: string, at: number): void => {
    run(MOVE_TURN.sqlite, at, at, accountId);
  };
  const rootOf = (found: LeadSales): LeadSales => {
    let current = found;
    for (let hop = 0; hop < MAX_JOIN_HOPS && current.joinedTo !== undefined; hop += 1) {
      const parent = leadSales(current.joinedTo);
      if (parent === undefined) break;
      current = parent;
    }
    return current;
  };

  function place(placement: Placement): boolean {
    return transaction(() => {
      const lead = get(SELECT_LEAD_FOR_PLACING.sqlite, placement.leadId);
      if (lead === undefined) return false;
      const inserted = run(
        INSERT_LEAD_SALES.sqlite,
        placement.ownerId ?? null,
        placement.ownerId === undefined ? null : placement.at,
        placement.clockStartsAt,
        placement.joinedTo ?? null,
        phoneKeyOf(payloadText(lead.payload, 'phone')) ?? null,
        emailDomainOf(String(lead.email)),
        placement.at,
        placement.at,
        placement.leadId,
      );
      if (inserted === 0) return false;
      if (placement.roundRobin && placement.ownerId !== undefined) moveTurn(placement.ownerId, placement.at);
      if (placement.activity !== undefined) addActivity(placement.activity);
      addCrmEvents(placement.crmEvents ?? []);
      writeAudit(placement.audit, placement.at);
      return true;
    });
  }

  function findEarlierLead(match: { email: string; phone: string | undefined; since: number; before: string }): LeadSales | undefined {
    const { since, before } = match;
    const email = match.email.trim().toLowerCase();
    const phoneKey = phoneKeyOf(match.phone);
    const candidates = [
      email === '' ? undefined : get(SELECT_EARLIER_BY_EMAIL.sqlite, since, before, before, email),
      phoneKey === undefined ? undefined : get(SELECT_EARLIER_BY_PHONE.sqlite, since, before, before, phoneKey),
    ].filter((row) => row !== undefined);
    const latest = candidates.sort(
      (a, b) => Number(b.received_at) - Number(a.received_at) || (String(b.lead_id) < String(a.lead_id) ? -1 : 1),
    )[0];
    return latest === undefined ? undefined : rootOf(toLeadSales(latest));
  }

  function reassign(change: Parameters<SalesStore['reassign']>[0]): boolean {
    return transaction(() => {
      const owner = change.ownerId ?? null;
      const expected = change.expectedOwnerId ?? null;
      const moved = run(REASSIGN_IF_OWNER.sqlite, owner, owner === null ? null : change.at, change.at, change.leadId, expected, expected);
      if (moved === 0) return false;
      if (change.roundRobin === true && change.ownerId !== undefined) moveTurn(change.ownerId, change.at);
      addActivity(change.activity);
      addCrmEvents(change.crmEvents);
      writeAudit(change.audit, change.at);
      return true;
    });
  }

  function recordActivity(change: Parameters<SalesStore['recordActivity']>[0]): LeadSales | undefined {
    const { activity } = change;
    const lostReason = change.status === undefined ? undefined : lostReasonFor(change.status);
    return transaction(() => {
      const sales = leadSales(activity.leadId);
      if (sales === undefined) return undefined;
      addActivity(activity);
      if (change.status !== undefined) run(SET_STATUS.sqlite, change.status.to, lostReason ?? null, activity.at, activity.leadId);
      if (change.touch || (change.status !== undefined && change.status.to !== 'new')) {
        for (const leadId of clocksStoppedBy(sales)) run(TOUCH.sqlite, activity.at, activity.at, leadId);
      }
      addCrmEvents(change.crmEvents);
      writeAudit(change.audit, activity.at);
      return leadSales(activity.leadId);
    });
  }

  function escalate(change: Parameters<SalesStore['escalate']>[0]): boolean {
    return transaction(() => {
      const expected = change.expectedOwnerId ?? null;
      if (run(TAKE_STEP.sqlite, change.step, change.at, change.leadId, change.step - 1, expected, expected) === 0) return false;
      for (const notification of inKeyOrder(change.notifications)) run(INSERT_NOTIFICATION_SQL.sqlite, ...notificationValues(notification));
      const { reassign: moveTo } = change;
      if (moveTo !== undefined) {
        run(SET_OWNER.sqlite, moveTo.ownerId ?? null, moveTo.ownerId === undefined ? null : change.at, change.at, change.leadId);
        if (moveTo.roundRobin === true && moveTo.ownerId !== undefined) moveTurn(moveTo.ownerId, change.at);
        addActivity(moveTo.activity);
        addCrmEvents(moveTo.crmEvents);
      }
      addActivity(change.activity);
      writeAudit(change.audit, change.at);
      return true;
    });
  }

  function releaseOwner(
    accountId: string,
    at: number,
    audit: AuditEntryInput<'released-leads'> | undefined,
    ownerEmail?: string,
  ): string[] {
    return transaction(() => {
      const released = all(SELECT_OPEN_OF_OWNER.sqlite, accountId).map((row) => String(row.lead_id));
      for (const leadId of released) {
        run(SET_OWNER.sqlite, null, null, at, leadId);
        addActivity(releaseActivity(leadId, accountId, at, audit));
        addCrmEvents([releaseCrmEvent(leadId, at, ownerEmail)]);
      }
      if (released.length > 0) writeAudit(audit, at, released);
      return released;
    });
  }

  function replaceRules(rules: readonly NewAssignmentRule[], audit: AuditEntryInput | undefined) {
    return transaction(() => {
      run(DELETE_RULES.sqlite);
      for (const [position, rule] of rules.entries()) run(INSERT_RULE.sqlite, position, rule.kind, rule.value, rule.ownerId ?? null);
      writeAudit(audit, Date.now());
      return all(SELECT_RULES.sqlite).map(toAssignmentRule);
    });
  }

  function setAvailability(
    availability: Parameters<SalesStore['setAvailability']>[0],
    at: number,
    audit: AuditEntryInput | undefined,
  ): void {
    transaction(() => {
      run(
        `INSERT INTO sales_people (account_id, time_zone, windows, away, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (account_id) DO UPDATE SET time_zone = excluded.time_zone, windows = excluded.windows, away = excluded.away,
           updated_at = excluded.updated_at`,
        availability.accountId,
        availability.timeZone,
        JSON.stringify(availability.windows),
        availability.away ? 1 : 0,
        at,
      );
      writeAudit(audit, at);
    });
  }

  return {
    listUnplaced: ifOpen((limit: number, receivedSince: number) => all(SELECT_UNPLACED.sqlite, receivedSince, limit).map(toUnplacedLead)),
    place: ifOpen(place),
    findEarlierLead: ifOpen(findEarlierLead),
    findDomainOwner: ifOpen((domain: string) => {
      const row = get(SELECT_DOMAIN_OWNER.sqlite, domain.trim().toLowerCase());
      return row === undefined ? undefined : String(row.owner_id);
    }),
    findLeadSales: ifOpen(leadSales),
    listSalesOf: ifOpen((leadIds: readonly string[]) =>
      leadIds.length === 0 ? [] : all(SELECT_SALES_OF.sqlite, JSON.stringify(leadIds)).map(toLeadSalesSummary),
    ),
    reassign: ifOpen(reassign),
    recordActivity: ifOpen(recordActivity),
    listActivities: ifOpen((leadId: string) => all(SELECT_ACTIVITIES.sqlite, leadId).map(toActivity)),
    listJoined: ifOpen((leadId: string) => all(SELECT_JOINED.sqlite, leadId).map((row) => String(row.lead_id))),
    listUntouched: ifOpen(({ ownerId, unassigned, limit }: Parameters<SalesStore['listUntouched']>[0]) => {
      const rows =
        ownerId !== undefined
          ? all(SELECT_UNTOUCHED_OF_OWNER.sqlite, ownerId, limit)
          : unassigned === true
            ? all(SELECT_UNTOUCHED_UNASSIGNED.sqlite, limit)
            : all(SELECT_UNTOUCHED.sqlite, limit);
      return rows.map(toUntouchedLead);
    }),
    escalate: ifOpen(escalate),
    releaseOwner: ifOpen(releaseOwner),
    listSpeedRows: ifOpen((receivedFrom: number, receivedBefore: number) =>
      all(SELECT_SPEED_ROWS.sqlite, receivedFrom, receivedBefore, RECENT_LEAD_MS).map(toSpeedRow),
    ),
    listRules: ifOpen(() => all(SELECT_RULES.sqlite).map(toAssignmentRule)),
    replaceRules: ifOpen(replaceRules),
    listAvailability: ifOpen(() => all(SELECT_AVAILABILITY.sqlite).map(toAvailability)),
    setAvailability: ifOpen(setAvailability),
  };
}
