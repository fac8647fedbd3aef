import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type {
  Activity,
  AssignmentRule,
  Availability,
  LeadSales,
  LeadSalesSummary,
  NewActivity,
  NewCrmEvent,
  SalesStatus,
  SpeedRow,
  UnplacedLead,
  UntouchedLead,
} from './sales-store.ts';
import type { ActivityKind, RuleKind, WorkingWindow } from '../../../lead/sales.ts';
import { ownerChangedEvent } from '../../outbox/crm-events.ts';

// What both engines share about the sales queue's rows: turning them into the store's records, and
// the facts read from a lead when it is placed. One mapping serves SQLite and PostgreSQL.

type Row = Readonly<Record<string, unknown>>;

const optionalNumber = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));
const optionalString = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));

/** Fewer digits than this cannot tell two people apart (an extension, a typo), so they match nobody. */
const PHONE_KEY_MIN_DIGITS = 7;

/** A phone number's digits, formatting aside, for matching the same person; undefined when too short to match. */
export function phoneKeyOf(phone: string | undefined): string | undefined {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.length >= PHONE_KEY_MIN_DIGITS ? digits : undefined;
}

/** The part of an e-mail address after its last `@`, lower-cased. */
export function emailDomainOf(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

/** A text answer of the stored payload, or undefined. */
export function payloadText(payload: unknown, key: string): string | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const value = (JSON.parse(payload) as Record<string, unknown> | null)?.[key];
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A lost sale needs its reason; any other status keeps none. Refused here so no engine stores a lost lead without one. */
export function lostReasonFor(status: { to: SalesStatus; lostReason: string | undefined }): string | null {
  if (status.to !== 'lost') return null;
  const reason = status.lostReason?.trim() ?? '';
  if (reason === '') throw new Error('A lost lead needs a reason');
  return reason;
}

export function toUnplacedLead(row: Row): UnplacedLead {
  return {
    leadId: String(row.id),
    receivedAt: Number(row.received_at),
    source: String(row.source),
    email: String(row.email),
    phone: payloadText(row.payload, 'phone'),
    campaign: optionalString(row.utm_campaign),
    serviceInterest: payloadText(row.payload, 'service_interest'),
  };
}

export function toLeadSales(row: Row): LeadSales {
  return {
    leadId: String(row.lead_id),
    ownerId: optionalString(row.owner_id),
    assignedAt: optionalNumber(row.assigned_at),
    status: String(row.status) as SalesStatus,
    lostReason: optionalString(row.lost_reason),
    clockStartsAt: Number(row.clock_starts_at),
    firstTouchAt: optionalNumber(row.first_touch_at),
    joinedTo: optionalString(row.joined_to),
    escalationStep: Number(row.escalation_step),
  };
}

export function toActivity(row: Row): Activity {
  return {
    id: Number(row.id),
    leadId: String(row.lead_id),
    at: Number(row.at),
    kind: String(row.kind) as ActivityKind,
    actorId: optionalString(row.actor_id),
    actor: String(row.actor),
    detail: JSON.parse(String(row.detail)) as Activity['detail'],
  };
}

/** The activity insert's values. */
export function activityValues(activity: NewActivity): (string | number | null)[] {
  return [activity.leadId, activity.at, activity.kind, activity.actorId ?? null, activity.actor, JSON.stringify(activity.detail)];
}

export function toUntouchedLead(row: Row): UntouchedLead {
  return {
    leadId: String(row.lead_id),
    receivedAt: Number(row.received_at),
    ownerId: optionalString(row.owner_id),
    clockStartsAt: Number(row.clock_starts_at),
    escalationStep: Number(row.escalation_step),
  };
}

export function toSpeedRow(row: Row): SpeedRow {
  return {
    leadId: String(row.lead_id),
    receivedAt: Number(row.received_at),
    source: String(row.source),
    campaign: optionalString(row.utm_campaign),
    ownerId: optionalString(row.owner_id),
    clockStartsAt: Number(row.clock_starts_at),
    firstTouchAt: optionalNumber(row.first_touch_at),
  };
}

export function toAssignmentRule(row: Row): AssignmentRule {
  return { id: Number(row.id), kind: String(row.kind) as RuleKind, value: String(row.value), ownerId: optionalString(row.owner_id) };
}

export function toAvailability(row: Row): Availability {
  const defaultHours = row.time_zone === null || row.time_zone === undefined;
  return {
    accountId: String(row.account_id),
    timeZone: defaultHours ? '' : String(row.time_zone),
    windows: defaultHours || row.windows === null ? [] : (JSON.parse(String(row.windows)) as WorkingWindow[]),
    away: Boolean(row.away),
    lastAssignedAt: optionalNumber(row.last_assigned_at),
    defaultHours,
  };
}

/** The lead a clock belongs to: a joined lead's root carries it. */
export function clockLeadOf(sales: LeadSales): string {
  return sales.joinedTo ?? sales.leadId;
}

/**
 * The leads whose first-touch clock a human touch of this lead stops: its own, and the earlier lead
 * it joined, which carries the person's clock (a repeat's call is the person's first answer). Every
 * touch (a logged call or e-mail, a status change, a booked meeting) stops clocks through this.
 */
export function clocksStoppedBy(sales: LeadSales): string[] {
  const clockLead = clockLeadOf(sales);
  return clockLead === sales.leadId ? [sales.leadId] : [sales.leadId, clockLead];
}

/** The timeline's entry for a lead its owner no longer has: from them to nobody, by whoever removed or demoted them. */
export function releaseActivity(
  leadId: string,
  accountId: string,
  at: number,
  audit: AuditEntryInput<'released-leads'> | undefined,
): NewActivity {
  return {
    leadId,
    at,
    kind: 'assigned',
    actorId: undefined,
    actor: audit?.actor ?? 'system',
    detail: { fromOwnerId: accountId, toOwnerId: null, reason: 'owner-released' },
  };
}

/** What the CRM hears of a released lead: it has no owner now (the hand-out that may follow sends its own event). */
export function releaseCrmEvent(leadId: string, at: number, ownerEmail: string | undefined): NewCrmEvent {
  return ownerChangedEvent({ leadId, at, ownerEmail: undefined, previousOwnerEmail: ownerEmail });
}

export function toLeadSalesSummary(row: Row): LeadSalesSummary {
  return {
    leadId: String(row.lead_id),
    ownerId: row.owner_id === null || row.owner_id === undefined ? undefined : String(row.owner_id),
    status: String(row.status) as SalesStatus,
  };
}
