import type { BookingChange } from '../../lead/booking.ts';
import type { SalesStatus } from '../../lead/sales.ts';
import type { CrmEventKind, CrmEventRecord } from '../store/crm-events/crm-event-store.ts';
import type { NewCrmEvent } from '../store/sales/sales-store.ts';

// The CRM's follow-up events: what the CRM is told when a lead's owner or sales status changes, or a
// meeting is booked, so a CRM workflow can update the contact it made from the lead. Each body names
// the event and the lead (`lead_id`, the same id the lead itself was sent with) and when it happened
// (`at`, ISO 8601 in UTC); the request carries the lead's signature headers and `X-Lead-Event` with
// the event's name, which a lead never carries, so the CRM can route the two apart.

/** The header that tells an event from a lead. */
export const LEAD_EVENT_HEADER = 'x-lead-event';

/** The name the CRM sees, in the body's `event` and the X-Lead-Event header, for each stored kind. */
export const CRM_EVENT_NAMES: Readonly<Record<CrmEventKind, 'owner_changed' | 'status_changed' | 'booking'>> = {
  owner: 'owner_changed',
  status: 'status_changed',
  booking: 'booking',
};

/** The lead has a new owner (or none: `ownerEmail` null means it went back to the unassigned queue). */
export function ownerChangedEvent(change: {
  leadId: string;
  at: number;
  ownerEmail: string | undefined;
  previousOwnerEmail: string | undefined;
}): NewCrmEvent {
  return {
    leadId: change.leadId,
    kind: 'owner',
    at: change.at,
    body: {
      event: CRM_EVENT_NAMES.owner,
      lead_id: change.leadId,
      at: new Date(change.at).toISOString(),
      owner_email: change.ownerEmail ?? null,
      previous_owner_email: change.previousOwnerEmail ?? null,
    },
  };
}

/** The sale moved to another status; `lostReason` is sent with `lost` only. */
export function statusChangedEvent(change: {
  leadId: string;
  at: number;
  status: SalesStatus;
  previousStatus: SalesStatus;
  lostReason: string | undefined;
}): NewCrmEvent {
  return {
    leadId: change.leadId,
    kind: 'status',
    at: change.at,
    body: {
      event: CRM_EVENT_NAMES.status,
      lead_id: change.leadId,
      at: new Date(change.at).toISOString(),
      status: change.status,
      previous_status: change.previousStatus,
      lost_reason: change.status === 'lost' ? (change.lostReason ?? null) : null,
    },
  };
}

/**
 * A meeting with the lead was booked, moved or cancelled on the booking page (`change`, default
 * `created`); `starts_at` is when it takes place (for a cancelled one: when it would have), `ends_at`
 * when it ends (null when the provider did not say).
 */
export function bookingEvent(booking: {
  leadId: string;
  at: number;
  startsAt: number;
  bookedByEmail: string | undefined;
  change?: BookingChange;
  endsAt?: number;
}): NewCrmEvent {
  return {
    leadId: booking.leadId,
    kind: 'booking',
    at: booking.at,
    body: {
      event: CRM_EVENT_NAMES.booking,
      lead_id: booking.leadId,
      at: new Date(booking.at).toISOString(),
      starts_at: new Date(booking.startsAt).toISOString(),
      booked_by_email: booking.bookedByEmail ?? null,
      change: booking.change ?? 'created',
      ends_at: booking.endsAt === undefined ? null : new Date(booking.endsAt).toISOString(),
    },
  };
}

/**
 * The message id an event is signed and sent with (`webhook-id` and Idempotency-Key): unique per
 * event and never the lead's own id, so a CRM that drops repeats by id never drops an event as a
 * repeat of its lead.
 */
export function crmEventMessageId(event: { id: number; leadId: string }): string {
  return `${event.leadId}.event-${event.id}`;
}

const WHAT: Readonly<Record<CrmEventKind, string>> = { owner: 'Owner change', status: 'Status change', booking: 'Booked meeting' };
// 410 Gone: the CRM's webhook no longer exists.
const GONE = 410;

/**
 * A follow-up event as a lead's timeline says it, in the console's words for the CRM delivery
 * ("sent to the CRM", "still trying", "gave up"), so nobody reads a sent event as a sale.
 */
export function crmEventTimelineText(event: Pick<CrmEventRecord, 'kind' | 'state' | 'attempts' | 'lastStatus' | 'lastError'>): string {
  const what = WHAT[event.kind];
  const tries = event.attempts === 1 ? '1 try' : `${event.attempts} tries`;
  const lastAnswer =
    event.lastStatus !== undefined ? `the CRM last answered with code ${event.lastStatus}` : 'the CRM did not answer the last try';
  switch (event.state) {
    case 'held':
      return `${what}: waiting until the CRM's address is set up`;
    case 'pending':
      return event.attempts === 0
        ? `${what}: waiting to be sent to the CRM`
        : `${what}: still trying to send it to the CRM (${tries}; ${lastAnswer})`;
    case 'sent':
      return `${what} sent to the CRM`;
    case 'sent-test':
      return `${what} sent to the CRM, which answered that it was only a test: its workflow is not live`;
    case 'failed':
      return event.lastStatus === GONE
        ? `${what}: gave up, the CRM said its address no longer exists`
        : `${what}: gave up sending it to the CRM after ${tries} (${lastAnswer})`;
  }
}
