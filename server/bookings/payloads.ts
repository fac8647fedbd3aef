import type { BookingChange, BookingProvider } from '../../lead/booking.ts';

// What a booking provider's webhook says happened, read from its documented payload into one shape
// both providers share. Pure. A payload the provider documents but that is not about a meeting
// being booked, moved or cancelled (a test ping, a no-show, a routing form) is "ignored", answered
// 200 so the provider does not retry it; a payload about a meeting that lacks what we need is
// "invalid", answered 400 with the sentence below.
//
// Cal.com (`triggerEvent`, the booking in `payload`): BOOKING_CREATED, BOOKING_RESCHEDULED (the new
// `uid`, the old one in `rescheduleUid`, or `fromReschedule` on some versions), BOOKING_CANCELLED;
// `startTime`, `endTime` (ISO 8601), `attendees[0].email` and `.name`, and `metadata.leadId`, the
// booking page's `metadata[leadId]` parameter.
//
// Calendly (`event`, the invitee in `payload`): invitee.created (with `old_invitee`, the previous
// invitee's URI, when it is a reschedule) and invitee.canceled (`rescheduled: true` when it is the
// cancelled half of a reschedule, whose new half arrives as invitee.created). The invitee's `uri` is
// its id; `email`, `name`, `scheduled_event.start_time` / `end_time`, and
// `tracking.salesforce_uuid`, the booking page's `salesforce_uuid` parameter.

/** A meeting booked, moved or cancelled, as both providers' payloads say it. */
export type BookingNotice = {
  readonly provider: BookingProvider;
  readonly change: BookingChange;
  /** The provider's id of the meeting: Cal.com's booking uid, Calendly's invitee URI. */
  readonly uid: string;
  /** For a reschedule: the id the meeting had before it moved. */
  readonly previousUid: string | undefined;
  /** The lead id the booking page carried back, when it looks like one of ours. */
  readonly leadIdHint: string | undefined;
  readonly name: string;
  /** Trimmed and lower-cased, as leads' addresses are kept. */
  readonly email: string;
  readonly startsAt: number;
  readonly endsAt: number | undefined;
};

export type ReadPayload =
  | { readonly kind: 'notice'; readonly notice: BookingNotice }
  | { readonly kind: 'ignored'; readonly event: string; readonly why: string }
  | { readonly kind: 'invalid'; readonly field: string; readonly message: string };

/** Lead ids are v4 UUIDs (randomUUID); anything else in the metadata names no lead of ours. */
const LEAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_UID_CHARS = 500;
const MAX_NAME_CHARS = 200;
const MAX_EMAIL_CHARS = 320;
// Control characters have no place in a name, and PostgreSQL refuses U+0000 in text.
const CONTROL = /\p{Cc}/gu;

type Json = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

function invalid(field: string, message: string): ReadPayload {
  return { kind: 'invalid', field, message };
}

function time(value: unknown): number | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? at : undefined;
}

function leadIdOf(value: unknown): string | undefined {
  const raw = text(value);
  return raw !== undefined && LEAD_ID.test(raw) ? raw.toLowerCase() : undefined;
}

type Common = { uid: unknown; email: unknown; name: unknown; startsAt: unknown; endsAt: unknown };

/** The fields both providers need, checked with the provider's own field names in the messages. */
function readCommon(
  provider: BookingProvider,
  change: BookingChange,
  fields: Common,
  names: Record<keyof Common, string>,
  extra: { previousUid: unknown; leadId: unknown },
): ReadPayload {
  const uid = text(fields.uid);
  if (uid === undefined || uid.length > MAX_UID_CHARS)
    return invalid(names.uid, `The booking's id (${names.uid}) is missing, so the meeting cannot be recorded.`);
  const email = text(fields.email)?.toLowerCase();
  if (email === undefined || email.length > MAX_EMAIL_CHARS || !email.includes('@'))
    return invalid(names.email, `The invitee's e-mail address (${names.email}) is missing or is not an address.`);
  const startsAt = time(fields.startsAt);
  if (startsAt === undefined)
    return invalid(names.startsAt, `The meeting's start time (${names.startsAt}) is missing or is not a date and time.`);
  const endsAt = time(fields.endsAt);
  const previousUid = text(extra.previousUid);
  return {
    kind: 'notice',
    notice: {
      provider,
      change,
      uid,
      previousUid: previousUid !== undefined && previousUid !== uid && previousUid.length <= MAX_UID_CHARS ? previousUid : undefined,
      leadIdHint: leadIdOf(extra.leadId),
      name: (text(fields.name) ?? '').replace(CONTROL, ' ').slice(0, MAX_NAME_CHARS),
      email,
      startsAt,
      endsAt: endsAt !== undefined && endsAt >= startsAt ? endsAt : undefined,
    },
  };
}

const CAL_CHANGES: Readonly<Record<string, BookingChange>> = {
  BOOKING_CREATED: 'created',
  BOOKING_RESCHEDULED: 'rescheduled',
  BOOKING_CANCELLED: 'cancelled',
};

/** A Cal.com webhook body (parsed JSON). */
export function readCalPayload(body: unknown): ReadPayload {
  if (!isObject(body)) return invalid('body', 'The webhook body is not a JSON object.');
  const event = text(body.triggerEvent);
  if (event === undefined) return invalid('triggerEvent', 'The webhook does not say what happened (triggerEvent is missing).');
  const named = CAL_CHANGES[event];
  if (named === undefined) return { kind: 'ignored', event, why: 'not about a meeting being booked, moved or cancelled' };
  const booking = body.payload;
  if (!isObject(booking)) return invalid('payload', 'The webhook carries no booking (payload is missing).');
  const previousUid = booking.rescheduleUid ?? booking.fromReschedule;
  // A booking made by moving another one is a reschedule, whichever trigger announced it.
  const change: BookingChange = named === 'created' && text(previousUid) !== undefined ? 'rescheduled' : named;
  const attendee = Array.isArray(booking.attendees) && isObject(booking.attendees[0]) ? booking.attendees[0] : {};
  const metadata = isObject(booking.metadata) ? booking.metadata : {};
  return readCommon(
    'cal',
    change,
    { uid: booking.uid, email: attendee.email, name: attendee.name, startsAt: booking.startTime, endsAt: booking.endTime },
    {
      uid: 'payload.uid',
      email: 'payload.attendees[0].email',
      name: 'payload.attendees[0].name',
      startsAt: 'payload.startTime',
      endsAt: 'payload.endTime',
    },
    { previousUid, leadId: metadata.leadId },
  );
}

/** A Calendly webhook body (parsed JSON). */
export function readCalendlyPayload(body: unknown): ReadPayload {
  if (!isObject(body)) return invalid('body', 'The webhook body is not a JSON object.');
  const event = text(body.event);
  if (event === undefined) return invalid('event', 'The webhook does not say what happened (event is missing).');
  if (event !== 'invitee.created' && event !== 'invitee.canceled')
    return { kind: 'ignored', event, why: 'not about a meeting being booked, moved or cancelled' };
  const invitee = body.payload;
  if (!isObject(invitee)) return invalid('payload', 'The webhook carries no invitee (payload is missing).');
  // The cancelled half of a reschedule: the new half (invitee.created with old_invitee) moves the
  // meeting, in whichever order the two arrive, so this one must not cancel it.
  if (event === 'invitee.canceled' && invitee.rescheduled === true)
    return { kind: 'ignored', event, why: 'the cancelled half of a reschedule (the new time arrives as its own booking)' };
  const previousUid = event === 'invitee.created' ? invitee.old_invitee : undefined;
  const change: BookingChange = event === 'invitee.canceled' ? 'cancelled' : text(previousUid) !== undefined ? 'rescheduled' : 'created';
  const scheduled = isObject(invitee.scheduled_event) ? invitee.scheduled_event : {};
  const tracking = isObject(invitee.tracking) ? invitee.tracking : {};
  return readCommon(
    'calendly',
    change,
    { uid: invitee.uri, email: invitee.email, name: invitee.name, startsAt: scheduled.start_time, endsAt: scheduled.end_time },
    {
      uid: 'payload.uri',
      email: 'payload.email',
      name: 'payload.name',
      startsAt: 'payload.scheduled_event.start_time',
      endsAt: 'payload.scheduled_event.end_time',
    },
    { previousUid, leadId: tracking.salesforce_uuid },
  );
}
