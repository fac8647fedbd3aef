import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type { NewNotification } from '../notifications/notification-store.ts';
import type { ActivityKind, RuleKind, SalesStatus, WorkingWindow } from '../../../lead/sales.ts';

export { ACTIVITY_KINDS, RULE_KINDS, SALES_STATUSES, TOUCH_OUTCOMES } from '../../../lead/sales.ts';
export type { ActivityKind, RuleKind, SalesStatus, TouchOutcome, WorkingWindow } from '../../../lead/sales.ts';

// The sales queue: who owns each lead, where the sale stands, what people did about it, and the
// clock until the first human touch. Kept apart from the lead's delivery record (the outbox) because
// "the CRM took it" and "somebody called" are different facts, changed by different people.
// Times are milliseconds since the epoch and always passed in, so clocks are testable without waiting.

/** A back-office account's id, as the accounts table keeps it (a UUID). */
export type AccountId = string;

/** A rule as the admin saved it, in the order they are tried. `domain` rules have no value and no person: the owner is whoever owns the domain. */
export type AssignmentRule = {
  readonly id: number;
  readonly kind: RuleKind;
  /** The form's source name, the service interest, the campaign; '' for `domain`. */
  readonly value: string;
  /** The account the rule hands leads to; undefined for `domain`. */
  readonly ownerId: AccountId | undefined;
};
export type NewAssignmentRule = Omit<AssignmentRule, 'id'>;

/** A sales person's availability. A person with no row yet works Mon-Fri 09:00-17:00 in the site's zone and is not away. */
export type Availability = {
  readonly accountId: AccountId;
  /** IANA zone, e.g. America/Chicago. */
  readonly timeZone: string;
  readonly windows: readonly WorkingWindow[];
  readonly away: boolean;
  /** When this person was last given a lead by round-robin (the next lead goes to the one waiting longest). */
  readonly lastAssignedAt: number | undefined;
  /**
   * True when the person never set their hours: the row only keeps their round-robin turn, `timeZone`
   * is '' and `windows` is empty, and they work the default hours (Mon-Fri 09:00-17:00, the site's zone).
   */
  readonly defaultHours: boolean;
};

/** The sales side of one lead. A lead stored before the queue existed has none until the assigner looks at it. */
export type LeadSales = {
  readonly leadId: string;
  readonly ownerId: AccountId | undefined;
  readonly assignedAt: number | undefined;
  readonly status: SalesStatus;
  readonly lostReason: string | undefined;
  /** When the clock started: the lead's arrival, or the next business opening after it. */
  readonly clockStartsAt: number;
  /** The first human touch; undefined while nobody has touched it. */
  readonly firstTouchAt: number | undefined;
  /** The earlier lead of the same person (same e-mail or phone within 30 days) this one joined; it has no clock of its own. */
  readonly joinedTo: string | undefined;
  /** Escalation steps already taken (0 = none; 1 = owner told, 2 = team told, 3 = reassigned). */
  readonly escalationStep: number;
};

export type Activity = {
  readonly id: number;
  readonly leadId: string;
  readonly at: number;
  readonly kind: ActivityKind;
  /** The account that acted; undefined for the system (round-robin, escalation). */
  readonly actorId: AccountId | undefined;
  /** Who acted, as shown: the person's address, or `system`. */
  readonly actor: string;
  /** Kind-specific facts: owner ids and addresses, outcome, from/to status, reason, note text. */
  readonly detail: Readonly<Record<string, string | number | null>>;
};
export type NewActivity = Omit<Activity, 'id'>;

/**
 * The assigner places only leads received this recently. A lead older than that with no sales row
 * (stored before the queue existed) is never handed out, queued or escalated on its own: a person
 * may give it an owner from its page, and then its clock starts at that moment and the speed figures
 * leave it out, since nobody was timing it when the visitor wrote. This also bounds the assigner's
 * poll, which otherwise reads every real lead ever stored.
 */
export const RECENT_LEAD_MS = 24 * 60 * 60 * 1000;

/** What the inbox shows of a placed lead's sales side. */
export type LeadSalesSummary = { readonly leadId: string; readonly ownerId: AccountId | undefined; readonly status: SalesStatus };

/** A lead the assigner still has to place: stored, not spam, no sales row yet. */
export type UnplacedLead = {
  readonly leadId: string;
  readonly receivedAt: number;
  readonly source: string;
  readonly email: string;
  readonly phone: string | undefined;
  readonly campaign: string | undefined;
  readonly serviceInterest: string | undefined;
};

/** The assigner's decision for one lead, written in one transaction with its activity, audit entry and CRM event. */
export type Placement = {
  readonly leadId: string;
  readonly at: number;
  /** Undefined: nobody is available now; the lead waits unassigned with its clock running. */
  readonly ownerId: AccountId | undefined;
  readonly clockStartsAt: number;
  /** Set when the lead joins an earlier lead of the same person. */
  readonly joinedTo: string | undefined;
  /** Round-robin picked the owner: their lastAssignedAt becomes `at`. */
  readonly roundRobin: boolean;
  readonly activity: NewActivity | undefined;
  readonly audit: AuditEntryInput | undefined;
  /** The CRM's owner event for the first assignment, written in the same transaction. */
  readonly crmEvents?: readonly NewCrmEvent[];
};

/** A lead that has not been touched, as the queue and the escalation ladder read it. */
export type UntouchedLead = {
  readonly leadId: string;
  readonly receivedAt: number;
  readonly ownerId: AccountId | undefined;
  readonly clockStartsAt: number;
  readonly escalationStep: number;
};

/** One lead's row in the speed-to-lead figures. */
export type SpeedRow = {
  readonly leadId: string;
  readonly receivedAt: number;
  readonly source: string;
  readonly campaign: string | undefined;
  readonly ownerId: AccountId | undefined;
  readonly clockStartsAt: number;
  readonly firstTouchAt: number | undefined;
};

export interface SalesStore {
  /**
   * Real (not spam), not erased leads with no sales row yet, received at or after `receivedSince`,
   * oldest first. Older leads (stored before the queue existed) are never placed by the assigner.
   */
  listUnplaced(limit: number, receivedSince: number): Promise<UnplacedLead[]>;
  /**
   * Writes the placement unless the lead already has a sales row (another process placed it first):
   * false then, and nothing was written. Exactly one process places each lead.
   */
  place(placement: Placement): Promise<boolean>;
  /** The most recent earlier lead (root of its joins) of the same e-mail or phone received since `since`, that has a sales row. */
  findEarlierLead(match: { email: string; phone: string | undefined; since: number; before: string }): Promise<LeadSales | undefined>;
  /** The owner of the most recently placed lead whose e-mail ends in `@domain` (domain rules). */
  findDomainOwner(domain: string): Promise<AccountId | undefined>;
  findLeadSales(leadId: string): Promise<LeadSales | undefined>;
  /** The owner and status of each of these leads that has a sales row (an inbox page's), in one read; leads without a row are left out. */
  listSalesOf(leadIds: readonly string[]): Promise<LeadSalesSummary[]>;
  /**
   * Moves the lead to `ownerId` (undefined: unassigned) when its owner is still `expectedOwnerId`;
   * false otherwise. Writes the activity, the audit entry and the CRM events in the same transaction.
   */
  reassign(change: {
    leadId: string;
    expectedOwnerId: AccountId | undefined;
    ownerId: AccountId | undefined;
    at: number;
    activity: NewActivity;
    audit: AuditEntryInput | undefined;
    crmEvents: readonly NewCrmEvent[];
    /** The new owner was round-robin's pick (a waiting lead handed out): their turn moves to `at`, as in `place`. */
    roundRobin?: boolean;
  }): Promise<boolean>;
  /**
   * Records what a person did. A touch (call, e-mail, meeting, or a status beyond new) stops the clock
   * when it is the first. Writes the activity, audit and CRM events in one transaction.
   * A touch on a lead that joined an earlier one stops that earlier lead's clock too (it carries the
   * person's clock). A `lost` status without a reason is refused before anything is written.
   * Undefined, and nothing written, when the lead has no sales row.
   */
  recordActivity(change: {
    activity: NewActivity;
    /** Set for a status change. */
    status?: { to: SalesStatus; lostReason: string | undefined };
    /** True when the activity is a human touch. */
    touch: boolean;
    audit: AuditEntryInput | undefined;
    crmEvents: readonly NewCrmEvent[];
  }): Promise<LeadSales | undefined>;
  /** The lead's timeline, oldest first. */
  listActivities(leadId: string): Promise<Activity[]>;
  /** Leads joined to this one (the same person again), oldest first. */
  listJoined(leadId: string): Promise<string[]>;
  /** Untouched, not joined, not spam leads, oldest first; with `ownerId` only theirs, with `unassigned` only those without an owner. */
  listUntouched(filter: { ownerId?: AccountId; unassigned?: boolean; limit: number }): Promise<UntouchedLead[]>;
  /**
   * Takes escalation step `step` for the lead if it is still untouched, at step `step - 1` and owned by
   * `expectedOwnerId` (the owner the ladder read), and stores its notifications in the same transaction
   * (their keys make a repeat store nothing). With `reassign` the owner changes too. False, and nothing
   * written: another process took it, the lead was touched, or someone changed its owner meanwhile.
   */
  escalate(change: {
    leadId: string;
    step: number;
    /** The owner when the ladder read the lead (undefined: none); a different owner now refuses the step. */
    expectedOwnerId: AccountId | undefined;
    at: number;
    notifications: readonly NewNotification[];
    /** `roundRobin`: the new owner was round-robin's pick, so their turn moves to `at` as in `place`. */
    reassign?: { ownerId: AccountId | undefined; activity: NewActivity; crmEvents: readonly NewCrmEvent[]; roundRobin?: boolean };
    activity: NewActivity;
    audit: AuditEntryInput | undefined;
  }): Promise<boolean>;
  /**
   * Every open lead (not won or lost) of an account (removed or no longer sales) goes back to
   * unassigned, each with an activity and an owner_changed event for the CRM (previous owner
   * `ownerEmail`), and one audit entry for all, in one transaction; returns them.
   */
  releaseOwner(
    accountId: AccountId,
    at: number,
    audit: AuditEntryInput<'released-leads'> | undefined,
    ownerEmail?: string,
  ): Promise<string[]>;
  /**
   * The rows of the figures: placed, not joined, not spam leads received in [from, before), placed
   * within RECENT_LEAD_MS of their arrival (a lead given its first owner later, by hand, was never
   * timed from the visitor's send).
   */
  listSpeedRows(receivedFrom: number, receivedBefore: number): Promise<SpeedRow[]>;

  listRules(): Promise<AssignmentRule[]>;
  /** Replaces every rule, in order, with the audit entry in the same transaction. */
  replaceRules(rules: readonly NewAssignmentRule[], audit: AuditEntryInput | undefined): Promise<AssignmentRule[]>;

  listAvailability(): Promise<Availability[]>;
  setAvailability(
    availability: Omit<Availability, 'lastAssignedAt' | 'defaultHours'>,
    at: number,
    audit: AuditEntryInput | undefined,
  ): Promise<void>;
}

/** A follow-up event for the CRM (owner or status changed, meeting booked), sent signed through the outbox like a lead. */
export type NewCrmEvent = {
  readonly leadId: string;
  readonly kind: 'owner' | 'status' | 'booking';
  readonly at: number;
  /** The JSON body, with `lead_id` and `event`. */
  readonly body: Readonly<Record<string, unknown>>;
};
