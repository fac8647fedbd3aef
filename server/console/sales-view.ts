// What the console shows of a lead's sales side: its owner, status and clock, the "Call now" rows,
// and one timeline of what people, the system and the CRM did, each entry a sentence a salesperson
// reads at a glance. Pure functions from the store's records to the API's shapes. The CRM's delivery
// is named as such ("Sent to the CRM", "still trying", "gave up") so nobody reads it as a sale.
import type { LeadSalesView, QueueLead, TimelineEntry, TouchOutcome } from '../../console/api-types.ts';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';
import type { AttemptRecord } from '../store/outbox/outbox-store.ts';
import type { CrmEventRecord } from '../store/crm-events/crm-event-store.ts';
import type { AccountId, Activity, LeadSales, UntouchedLead } from '../store/sales/sales-store.ts';
import { isOpenAt, nextOpening, workingMsBetween, type WeeklyHours } from '../sales/working-time.ts';
import { callbackOf } from './lead-view.ts';
import { BOOKING_PROVIDER_NAMES } from '../../lead/booking.ts';

const MINUTE_MS = 60_000;

/** A person as the console names them: their id and address, or null when the account is gone or there is none. */
export type PeopleIndex = ReadonlyMap<AccountId, string>;

function iso(time: number): string {
  return new Date(time).toISOString();
}

function personRef(people: PeopleIndex, id: AccountId | undefined) {
  if (id === undefined) return null;
  const email = people.get(id);
  return email === undefined ? null : { id, email };
}

/**
 * The sales side of a lead. A lead the assigner has not placed yet (a moment after it arrived) shows
 * as new and unassigned, its clock started at its arrival or the next opening, as it will be.
 */
export function toSalesView(
  lead: Pick<LeadRecord, 'receivedAt'>,
  sales: Pick<LeadSales, 'ownerId' | 'status' | 'lostReason' | 'clockStartsAt' | 'firstTouchAt' | 'joinedTo'> | undefined,
  people: PeopleIndex,
  hours: WeeklyHours,
  now: number,
): LeadSalesView {
  const clockStartsAt = sales?.clockStartsAt ?? nextOpening(hours, lead.receivedAt);
  const firstTouchAt = sales?.firstTouchAt;
  const end = firstTouchAt ?? now;
  return {
    owner: personRef(people, sales?.ownerId),
    status: sales?.status ?? 'new',
    lostReason: sales?.lostReason ?? null,
    clockStartsAt: iso(clockStartsAt),
    firstTouchAt: firstTouchAt === undefined ? null : iso(firstTouchAt),
    clockMinutes: end <= clockStartsAt ? 0 : Math.floor(workingMsBetween(hours, clockStartsAt, end) / MINUTE_MS),
    clockRunning: firstTouchAt === undefined && now >= clockStartsAt && isOpenAt(hours, now),
    joinedTo: sales?.joinedTo ?? null,
  };
}

function payloadText(lead: LeadRecord, key: string): string {
  const value = Object.hasOwn(lead.payload, key) ? lead.payload[key] : undefined;
  return typeof value === 'string' ? value : '';
}

/** What the visitor asked, in their words: the message, else the biggest challenge, else the service they are interested in. */
export function askedOf(lead: LeadRecord): string {
  for (const key of ['message', 'challenge', 'service_interest']) {
    const text = payloadText(lead, key).trim();
    if (text !== '') return text;
  }
  return '';
}

/** One row of "Call now": an untouched lead, with what the caller needs on one screen. */
export function toQueueLead(lead: LeadRecord, untouched: UntouchedLead, people: PeopleIndex, hours: WeeklyHours, now: number): QueueLead {
  return {
    id: lead.id,
    receivedAt: iso(lead.receivedAt),
    form: lead.source,
    name: payloadText(lead, 'name'),
    company: payloadText(lead, 'company'),
    email: lead.email || payloadText(lead, 'email'),
    phone: payloadText(lead, 'phone'),
    asked: askedOf(lead),
    callbackRequested: callbackOf(lead).requested,
    sales: toSalesView(
      lead,
      {
        ownerId: untouched.ownerId,
        status: 'new',
        lostReason: undefined,
        clockStartsAt: untouched.clockStartsAt,
        firstTouchAt: undefined,
        joinedTo: undefined,
      },
      people,
      hours,
      now,
    ),
  };
}

const OUTCOME_WORDS: Readonly<Record<TouchOutcome, string>> = {
  reached: 'reached them',
  'left-voicemail': 'left a voicemail',
  'no-answer': 'no answer',
  'wrong-number': 'wrong number',
  sent: 'sent',
};

const STATUS_WORDS: Readonly<Record<string, string>> = {
  new: 'new',
  contacted: 'contacted',
  qualified: 'qualified',
  won: 'won',
  lost: 'lost',
};

function detailText(activity: Activity, key: string): string | undefined {
  const value = activity.detail[key];
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/** The zone meetings are told in when the site's hours name none (or one this runtime does not know). */
const FALLBACK_ZONE = 'UTC';

/** "Tue 1 Dec, 3:00 PM": a meeting's time as a salesperson says it, in the site's business zone. */
export function meetingTimeText(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timeZone || FALLBACK_ZONE,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    });
  } catch {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: FALLBACK_ZONE,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    });
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => format.formatToParts(at).find((entry) => entry.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')}, ${part('hour')}:${part('minute')} ${part('dayPeriod')}`;
}

const PROVIDER_WORDS: Readonly<Record<string, string>> = BOOKING_PROVIDER_NAMES;

/**
 * A meeting from the booking page, as the timeline says it; a meeting without those facts is just
 * "Meeting booked". One matched only by the invitee's e-mail address says so: anyone can book with
 * any address, so the salesperson knows it is the address, not the lead's own booking page, that
 * ties it to this lead. The booking page is named only when the entry's author is not already that
 * page: the timeline shows the author beside each entry, and "(Cal.com) (Cal.com)" reads as a mistake.
 */
function meetingText(activity: Activity, timeZone: string): string {
  const startsAt = detailText(activity, 'startsAt');
  const provider = detailText(activity, 'provider');
  if (startsAt === undefined) return 'Meeting booked';
  const when = meetingTimeText(startsAt, timeZone);
  const providerName = provider === undefined ? undefined : (PROVIDER_WORDS[provider] ?? provider);
  const remarks = [
    ...(providerName === undefined || providerName === activity.actor ? [] : [providerName]),
    ...(detailText(activity, 'matchedBy') === 'email' ? ['matched by e-mail address'] : []),
  ];
  const where = remarks.length === 0 ? '' : ` (${remarks.join(', ')})`;
  switch (detailText(activity, 'change')) {
    case 'rescheduled':
      return `Meeting moved to ${when}${where}`;
    case 'cancelled':
      return `Meeting cancelled: it was for ${when}${where}`;
    default:
      return `Meeting booked for ${when}${where}`;
  }
}

/** One activity as the timeline says it; times of meetings in `timeZone`, the site's business zone. */
export function activityText(activity: Activity, timeZone: string = FALLBACK_ZONE): string {
  const owner = detailText(activity, 'owner');
  const reason = detailText(activity, 'reason');
  switch (activity.kind) {
    case 'assigned':
      // The store's own entry when a person is removed or leaves sales (see releaseOwner).
      if (reason === 'owner-released') return 'Back to unassigned: its owner was removed or is no longer in sales';
      if (owner === undefined) return `Not assigned${reason === undefined ? '' : `: ${reason}`}`;
      return `Assigned to ${owner}${reason === undefined ? '' : ` (${reason})`}`;
    case 'joined':
      return `The same person sent another form: joined their earlier lead${owner === undefined ? '' : `, owner ${owner}`}`;
    case 'call':
      return `Called: ${OUTCOME_WORDS[detailText(activity, 'outcome') as TouchOutcome] ?? detailText(activity, 'outcome') ?? 'logged'}`;
    case 'email':
      return `E-mailed: ${OUTCOME_WORDS[detailText(activity, 'outcome') as TouchOutcome] ?? detailText(activity, 'outcome') ?? 'logged'}`;
    case 'meeting':
      return meetingText(activity, timeZone);
    case 'status': {
      const from = STATUS_WORDS[detailText(activity, 'from') ?? ''] ?? detailText(activity, 'from') ?? 'new';
      const to = STATUS_WORDS[detailText(activity, 'to') ?? ''] ?? detailText(activity, 'to') ?? '';
      const lost = detailText(activity, 'lostReason');
      return `Status: ${from} → ${to}${lost === undefined ? '' : ` (${lost})`}`;
    }
    case 'note':
      return 'Note';
    case 'escalated': {
      const minutes = detailText(activity, 'minutes') ?? '?';
      const told = detailText(activity, 'told');
      const whom =
        told === 'owner'
          ? `${owner ?? 'the owner'} was told`
          : told === 'new-owner'
            ? 'it went to the next available person'
            : told === 'team-already'
              ? 'the whole sales team had been told already'
              : 'the whole sales team was told';
      return `Nobody had called after ${minutes} minutes of business hours: ${whom}`;
    }
  }
}

export function toTimelineEntry(activity: Activity, timeZone: string = FALLBACK_ZONE): TimelineEntry {
  return {
    at: iso(activity.at),
    kind: activity.kind,
    actor: activity.actor,
    text: activityText(activity, timeZone),
    note: activity.kind === 'note' ? (detailText(activity, 'text') ?? '') : null,
  };
}

function answerOf(status: number | undefined, error: string | undefined): string {
  return status === undefined ? (error ?? 'no answer') : `HTTP ${status}`;
}

/** One delivery attempt of the lead to the CRM, named as a delivery, never as a sale. */
export function attemptText(attempt: Pick<AttemptRecord, 'status' | 'error' | 'outcome'>): string {
  switch (attempt.outcome) {
    case 'delivered':
      return 'Sent to the CRM';
    case 'delivered-test':
      return 'The CRM took it only as a test (its workflow is in draft): it reached nobody';
    case 'failed':
      return `The CRM did not take it (${answerOf(attempt.status, attempt.error)}); gave up`;
    default:
      return `The CRM did not take it (${answerOf(attempt.status, attempt.error)}); still trying`;
  }
}

export function attemptEntry(attempt: AttemptRecord): TimelineEntry {
  return { at: iso(attempt.attemptedAt), kind: 'crm', actor: 'system', text: attemptText(attempt), note: null };
}

/** Every entry, oldest first; entries at the same moment keep the order they were given in. */
export function mergeTimeline(...lists: readonly TimelineEntry[][]): TimelineEntry[] {
  return lists
    .flat()
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => (a.entry.at < b.entry.at ? -1 : a.entry.at > b.entry.at ? 1 : a.index - b.index))
    .map(({ entry }) => entry);
}

const CRM_EVENT_WHAT: Readonly<Record<CrmEventRecord['kind'], string>> = {
  owner: 'The new owner',
  status: 'The status change',
  booking: 'The booked meeting',
};

/** A follow-up the CRM is told (owner, status, meeting), named by what became of its delivery. */
export function crmEventText(event: Pick<CrmEventRecord, 'kind' | 'state' | 'attempts' | 'lastStatus' | 'lastError'>): string {
  const what = CRM_EVENT_WHAT[event.kind];
  switch (event.state) {
    case 'sent':
      return `${what} was sent to the CRM`;
    case 'sent-test':
      return `${what} reached the CRM only as a test (its workflow is in draft)`;
    case 'held':
      return `${what} waits for the CRM: none is set up yet`;
    case 'failed':
      return `${what}: the CRM did not take it (${answerOf(event.lastStatus, event.lastError)}); gave up`;
    case 'pending':
      return event.attempts === 0
        ? `${what} is waiting to be sent to the CRM`
        : `${what}: the CRM did not take it (${answerOf(event.lastStatus, event.lastError)}); still trying`;
  }
}

export function crmEventEntry(event: CrmEventRecord): TimelineEntry {
  return { at: iso(event.createdAt), kind: 'crm', actor: 'system', text: crmEventText(event), note: null };
}
