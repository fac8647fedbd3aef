import type { ClaimOptions, DeliveryState } from '../outbox/outbox-store.ts';
import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type { Role } from '../../../back-office/roles.ts';
import { STUDIO_NOTICE_KINDS } from '../../../back-office/studio-notices.ts';

// The notifier's own outbox, how far it has looked for events, the open delivery incident and each
// form's new-lead e-mail switch.

export const NOTIFICATION_CHANNELS = ['email', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * new-lead: e-mail only; the others are alerts, to every configured channel (spam-daily: the count of
 * one day's spam). The escalation ladder's (lead-waiting: the owner is told; lead-waiting-team: the
 * whole sales team; lead-reassigned: the new owner) e-mail the people named in their detail's `to`
 * (addresses separated by commas) instead of NOTIFY_TO. weekly-summary: e-mail only, to the one
 * account its detail names (`accountId`), read when it is sent. The content studio's (studio-review-asked,
 * -sent-back, -approved, studio-schedule-failed): e-mail only, stored by the studio, to the one
 * account its detail names, read when it is sent (back-office/studio-notices.ts).
 */
export const NOTIFICATION_KINDS = [
  'new-lead',
  'lead-failed',
  'lead-test',
  'incident-opened',
  'incident-recovered',
  'spam-daily',
  'lead-waiting',
  'lead-waiting-team',
  'lead-reassigned',
  'weekly-summary',
  ...STUDIO_NOTICE_KINDS,
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** pending: due at nextAttemptAt; sent; given-up: out of tries; skipped: nothing to send any more (lead erased, channel gone). */
export type NotificationState = 'pending' | 'sent' | 'given-up' | 'skipped';

/** Facts about an event that are not personal data (an incident's start, its last error). */
export type NotificationDetail = Readonly<Record<string, string | number>>;

export type NewNotification = {
  /** One per event and channel: storing the same key twice (a rescan, a second process) stores it once. */
  readonly key: string;
  readonly channel: NotificationChannel;
  readonly kind: NotificationKind;
  /** The lead it is about. Its details are read when sending, so an erased lead's are never sent. */
  readonly leadId: string | undefined;
  /** When the event happened: the lead received or settled, the incident started or recovered. */
  readonly eventAt: number;
  readonly detail: NotificationDetail;
  /** Stored at, and first due at. */
  readonly createdAt: number;
};

export type ClaimedNotification = Omit<NewNotification, 'createdAt'> & {
  readonly id: number;
  readonly createdAt: number;
  /** Tries already made before this one. */
  readonly attempts: number;
};

export type NotificationRecord = ClaimedNotification & {
  readonly state: NotificationState;
  readonly lastError: string | undefined;
  readonly updatedAt: number;
};

export type NotificationResult = {
  readonly id: number;
  readonly owner: string;
  readonly at: number;
  readonly nextState: NotificationState;
  readonly error: string | undefined;
  /** When to try again (pending only). */
  readonly nextAttemptAt: number | undefined;
};

export type ReadNotifyEventsOptions = { readonly since: number; readonly limit: number; readonly newLeads: boolean };

export type NotifyLeadEvent = {
  readonly leadId: string;
  readonly source: string;
  readonly state: DeliveryState;
  /** Received (new leads) or moved to its state (settled leads). */
  readonly at: number;
};

/** The CRM's delivery record as incidents read it. */
export type DeliveryHealth = {
  /** The last attempt the CRM answered with a 2xx. */
  readonly lastSuccessAt: number | undefined;
  /** The first failed attempt after the last success. */
  readonly firstFailureAt: number | undefined;
  /** The last failed attempt: when, and what went wrong ("HTTP 503", "timeout after 10000 ms"). */
  readonly lastFailureAt: number | undefined;
  readonly lastFailure: string | undefined;
};

export type NotifyEvents = {
  readonly newLeads: NotifyLeadEvent[];
  readonly settledLeads: NotifyLeadEvent[];
  readonly health: DeliveryHealth;
};

export type NewIncident = { readonly since: number; readonly lastError: string | undefined; readonly openedAt: number };
export type IncidentRecord = NewIncident & { readonly closedAt: number | undefined };

export type FormNotifySetting = { readonly form: string; readonly newLeadEmail: boolean };

/** Delivery outcomes that mean the CRM took the lead (a 2xx). */
export const SUCCESS_OUTCOMES: readonly DeliveryState[] = ['delivered', 'delivered-test'];
/** Delivery outcomes of an attempt that did not reach the CRM or was refused. */
export const FAILURE_OUTCOMES: readonly DeliveryState[] = ['pending', 'failed'];

/** One attempt's failure in a few words: the CRM's status, or what kept it from answering. */
export function describeAttemptFailure(status: number | undefined, error: string | undefined): string {
  return status === undefined ? (error ?? 'no answer') : `HTTP ${status}`;
}

/** Combines per-outcome maxima and minima (each store reads them one outcome at a time, through an index). */
export function combineDeliveryHealth(parts: {
  readonly successTimes: readonly (number | undefined)[];
  readonly firstFailureTimes: readonly (number | undefined)[];
  readonly lastFailures: readonly ({ at: number; status: number | undefined; error: string | undefined } | undefined)[];
}): DeliveryHealth {
  const defined = (values: readonly (number | undefined)[]) => values.filter((value): value is number => value !== undefined);
  const successes = defined(parts.successTimes);
  const firstFailures = defined(parts.firstFailureTimes);
  const last = parts.lastFailures
    .filter((failure) => failure !== undefined)
    .reduce<{ at: number; status: number | undefined; error: string | undefined } | undefined>(
      (latest, failure) => (latest === undefined || failure.at > latest.at ? failure : latest),
      undefined,
    );
  return {
    lastSuccessAt: successes.length > 0 ? Math.max(...successes) : undefined,
    firstFailureAt: firstFailures.length > 0 ? Math.min(...firstFailures) : undefined,
    lastFailureAt: last?.at,
    lastFailure: last === undefined ? undefined : describeAttemptFailure(last.status, last.error),
  };
}

/** An account that asked for the weekly summary by e-mail. */
export type WeeklySummaryRecipient = {
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
  /** When the account last switched it on. */
  readonly chosenAt: number;
};

/** What setting one account's weekly-summary choice did: stored a change, found it already so, or found no such account. */
export type WeeklySummaryChoiceResult = 'changed' | 'unchanged' | 'no-account';

/** Who asked for the weekly summary by e-mail: one choice per account, gone with the account. */
export interface WeeklySummaryChoices {
  /** Whether the account asked for it; false for an account that never chose (it is opt-in). */
  weeklySummaryChoice(accountId: string): Promise<boolean>;
  /**
   * Stores the account's choice; the audit entry is written in the same transaction, only when the
   * choice changed. Nothing is stored for an account that does not exist.
   */
  setWeeklySummaryChoice(accountId: string, enabled: boolean, now: number, audit?: AuditEntryInput): Promise<WeeklySummaryChoiceResult>;
  /**
   * The accounts that asked for it, by e-mail address; with `chosenBefore`, only those whose choice
   * was made at or before that moment (an account that switched it on after a week's summary was
   * due waits for the next one).
   */
  listWeeklySummaryRecipients(chosenBefore?: number): Promise<WeeklySummaryRecipient[]>;
}

/** What the notifier (server/notify/) stores and reads. */
export interface NotificationStore extends WeeklySummaryChoices {
  /** The time up to which the notifier has looked for events; undefined before its first look. */
  notifyWatermark(): Promise<number | undefined>;
  /**
   * What may need a notification since `since`, oldest first, up to `limit` of each kind: real (not
   * spam) leads received, from forms whose new-lead e-mail is on, that have no new-lead notification
   * yet (none when `newLeads` is false); leads that became failed or delivered-test with no
   * notification for that change yet; and the CRM's delivery record, for incidents.
   */
  readNotifyEvents(options: ReadNotifyEventsOptions): Promise<NotifyEvents>;
  /**
   * Stores the notifications whose key is new (a key already stored, by this process or another,
   * is skipped) and moves the watermark forward to `watermark` (never back), in one transaction.
   * Returns how many were stored.
   */
  enqueueNotifications(notifications: readonly NewNotification[], watermark?: number): Promise<number>;
  /**
   * Opens an incident unless one is open, and stores its notifications in the same transaction.
   * False: an incident was already open (another process opened it first), nothing was stored.
   */
  startIncident(incident: NewIncident, notifications: readonly NewNotification[]): Promise<boolean>;
  /** Closes the open incident that started at `since` and stores its notifications. False: it was not open. */
  endIncident(since: number, closedAt: number, notifications: readonly NewNotification[]): Promise<boolean>;
  findOpenIncident(): Promise<IncidentRecord | undefined>;
  /** Claims up to `limit` notifications that are due and not leased by a live notifier. */
  claimNotifications(options: ClaimOptions): Promise<ClaimedNotification[]>;
  /** Records each try; a result from a notifier whose lease was taken over changes nothing. */
  recordNotificationResults(results: readonly NotificationResult[]): Promise<void>;
  /** Every notification, oldest first (for operators and tests). */
  listNotifications(): Promise<NotificationRecord[]>;
  /** The forms whose new-lead e-mail switch was ever set; a form not listed has it on. */
  listNotifyForms(): Promise<FormNotifySetting[]>;
  setNotifyForm(form: string, newLeadEmail: boolean, now: number): Promise<void>;
}
