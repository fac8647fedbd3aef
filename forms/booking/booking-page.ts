// The company's booking page (Cal.com or Calendly) as our page opens it after a lead form is sent:
// the addresses that open it prefilled (inside the page, or in a new tab), the provider's message
// that says a meeting was booked, and the words that confirm it. Pure, so each rule is a plain test.
import { bookingProviderOf, LEAD_ID_PARAMETER, type BookingConfirmation, type BookingProvider } from '../../lead/booking.ts';
import { originOf } from '../../content-model/booking-frame.ts';
import type { SiteContent } from '../../generated/content-types.ts';

/** The in-page booking's texts, from the site settings. */
export type BookingTexts = NonNullable<SiteContent['booking']>;

/** The visitor who just sent a lead form: what the booking page is prefilled with. */
export type BookingLead = {
  /** The relay's id of the lead; absent in demo mode or when a CRM was posted to directly. */
  readonly leadId?: string | undefined;
  readonly name: string;
  readonly email: string;
};

/** The booking page as the site settings name it. */
export type BookingPage = {
  readonly url: string;
  /** Unknown when neither the address nor the settings say: the page then only opens in a new tab. */
  readonly provider: BookingProvider | undefined;
  readonly origin: string;
};

export function bookingPageOf(url: string, declared: BookingProvider | undefined): BookingPage | undefined {
  const origin = originOf(url);
  return origin === undefined ? undefined : { url, provider: bookingProviderOf(url, declared), origin };
}

function withPrefill(url: URL, provider: BookingProvider | undefined, lead: BookingLead | undefined): URL {
  if (!lead) return url;
  // Both services read `name` and `email` from the address to fill in their booking form.
  if (lead.name) url.searchParams.set('name', lead.name);
  if (lead.email) url.searchParams.set('email', lead.email);
  // The lead id comes back in the provider's webhook, so the booking is linked to this lead.
  if (provider && lead.leadId) url.searchParams.set(LEAD_ID_PARAMETER[provider], lead.leadId);
  return url;
}

/** The booking page in a new tab, prefilled: always offered, and the only way when the page cannot be shown inside ours. */
export function newTabAddress(page: BookingPage, lead: BookingLead | undefined): string {
  return withPrefill(new URL(page.url), page.provider, lead).toString();
}

/**
 * The booking page inside ours. Cal.com serves its embeddable page at the event's address plus
 * `/embed`, told so by `embed` (the embed's namespace; empty is the default one) and `embedType`;
 * Calendly's inline embed is its page with `embed_domain` (our host) and `embed_type=Inline`.
 * Undefined when the service is unknown.
 */
export function embedAddress(page: BookingPage, lead: BookingLead | undefined, embedDomain: string): string | undefined {
  if (page.provider === undefined) return undefined;
  const url = new URL(page.url);
  switch (page.provider) {
    case 'cal':
      if (!url.pathname.endsWith('/embed')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/embed`;
      url.searchParams.set('embed', '');
      url.searchParams.set('embedType', 'inline');
      url.searchParams.set('layout', 'month_view');
      break;
    case 'calendly':
      url.searchParams.set('embed_domain', embedDomain);
      url.searchParams.set('embed_type', 'Inline');
      break;
  }
  return withPrefill(url, page.provider, lead).toString();
}

/** A message the window received: who sent it and what it says. */
export type ReceivedMessage = { readonly origin: string; readonly data: unknown };

/** What a booked-meeting message told us: the start time when the service sends it (Cal.com does, Calendly does not). */
export type BookedMessage = { readonly startsAt: string | undefined };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isTime = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/**
 * The service's "meeting booked" message, or undefined for anything else. Only a message from the
 * booking page's own origin counts: any other frame or window could post the same words.
 * Cal.com posts `{ originator: 'CAL', type: 'bookingSuccessfulV2', data: { startTime, … } }` (and
 * the older `bookingSuccessful`, whose data holds `date` and `booking.startTime`); Calendly posts
 * `{ event: 'calendly.event_scheduled', payload: { event: { uri }, invitee: { uri } } }`.
 */
export function readBookedMessage(page: BookingPage, message: ReceivedMessage): BookedMessage | undefined {
  if (message.origin !== page.origin || !isRecord(message.data)) return undefined;
  const data = message.data;
  switch (page.provider) {
    case 'cal': {
      if (data.originator !== 'CAL') return undefined;
      const details = isRecord(data.data) ? data.data : {};
      if (data.type === 'bookingSuccessfulV2') return { startsAt: isTime(details.startTime) ? details.startTime : undefined };
      if (data.type === 'bookingSuccessful') {
        const booking = isRecord(details.booking) ? details.booking : {};
        const startsAt = isTime(booking.startTime) ? booking.startTime : isTime(details.date) ? details.date : undefined;
        return { startsAt };
      }
      return undefined;
    }
    case 'calendly':
      return data.event === 'calendly.event_scheduled' ? { startsAt: undefined } : undefined;
    default:
      return undefined;
  }
}

/** The server's confirmation of a lead's meeting, when the answer is one. */
export function readConfirmation(body: unknown): BookingConfirmation | undefined {
  if (!isRecord(body) || !isTime(body.startsAt) || (body.status !== 'booked' && body.status !== 'cancelled')) return undefined;
  return { startsAt: body.startsAt, status: body.status };
}

/** How often, and how far apart, the page asks the server for the time of a meeting Calendly booked. */
export const CONFIRMATION_ATTEMPTS = 5;
export const CONFIRMATION_INTERVAL_MS = 1_500;

export type ConfirmationDeps = {
  readonly signal: AbortSignal;
  readonly fetch?: (url: string, init: RequestInit) => Promise<Pick<Response, 'ok' | 'json'>>;
  readonly sleep?: (ms: number) => Promise<void>;
};

/**
 * The meeting's start time as our server confirmed it (it learns it from the provider's webhook,
 * which may arrive a moment after the visitor booked), or undefined once the attempts are used up.
 */
export async function askServerForTime(leadId: string, deps: ConfirmationDeps): Promise<string | undefined> {
  const { signal, fetch: get = (url, init) => globalThis.fetch(url, init), sleep = (ms) => new Promise((r) => setTimeout(r, ms)) } = deps;
  for (let attempt = 0; attempt < CONFIRMATION_ATTEMPTS && !signal.aborted; attempt += 1) {
    if (attempt > 0) await sleep(CONFIRMATION_INTERVAL_MS);
    try {
      const response = await get(confirmationPath(leadId), { headers: { accept: 'application/json' }, signal });
      if (response.ok) {
        const confirmation = readConfirmation(await response.json());
        if (confirmation?.status === 'booked') return confirmation.startsAt;
      }
    } catch {
      // A failed request is one attempt used; the visitor still hears that the meeting is booked.
    }
  }
  return undefined;
}

/** "Tue 1 Dec at 3:00 PM", in the visitor's own time zone unless `timeZone` says otherwise. */
export function formatMeetingTime(startsAt: string, timeZone?: string): string {
  const at = new Date(startsAt);
  const zone = timeZone === undefined ? {} : { timeZone };
  const parts = new Intl.DateTimeFormat('en-US', { weekday: 'short', day: 'numeric', month: 'short', ...zone }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true, ...zone }).format(at);
  return `${part('weekday')} ${part('day')} ${part('month')} at ${time}`;
}

/** The confirmation the visitor reads: the booked time when known, else that the meeting is booked. */
export function bookedText(texts: Pick<BookingTexts, 'booked' | 'bookedNoTime'>, startsAt: string | undefined, timeZone?: string): string {
  return startsAt === undefined ? texts.bookedNoTime : texts.booked.replaceAll('{time}', formatMeetingTime(startsAt, timeZone));
}

/** Where the page asks the server for a lead's confirmed meeting (Calendly's message has no time). */
export function confirmationPath(leadId: string): string {
  return `/api/bookings/lead/${encodeURIComponent(leadId)}`;
}

/**
 * Whether this document may show the booking page inside itself: the server names the booking
 * page's origin in `frame-src` only on the routes that can show it, and a document keeps the policy
 * of the route it was first loaded on, however far the visitor then navigates inside the site.
 */
export function canFrameIn(firstLoadedPath: string, frameRoutes: readonly string[] | undefined): boolean {
  const path = firstLoadedPath.length > 1 ? firstLoadedPath.replace(/\/+$/, '') : firstLoadedPath;
  return frameRoutes?.includes(path) ?? false;
}
