// Meetings booked on the company's booking page (Cal.com or Calendly), as the page, the server and the
// console name them. Plain TypeScript with no Node or DOM types: the page's booking panel, the
// webhook routes and the console share these words, so they cannot drift apart.

/** The booking services whose page can open inside ours and whose webhooks the server takes. */
export const BOOKING_PROVIDERS = ['cal', 'calendly'] as const;
export type BookingProvider = (typeof BOOKING_PROVIDERS)[number];

/** The providers as people know them. */
export const BOOKING_PROVIDER_NAMES = { cal: 'Cal.com', calendly: 'Calendly' } as const satisfies Record<BookingProvider, string>;

/**
 * The provider of a booking page, chosen by its address: cal.com (and its subdomains) or
 * calendly.com. A page on the company's own domain names its provider in the site settings
 * (`declared`), since its address cannot say; without either, the page only opens in a new tab.
 */
export function bookingProviderOf(url: string, declared?: BookingProvider): BookingProvider | undefined {
  const host = /^https?:\/\/([^/?#:@]+)(?::\d+)?(?:[/?#]|$)/i.exec(url.trim())?.[1]?.toLowerCase();
  if (!host) return undefined;
  const on = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  if (on('cal.com')) return 'cal';
  if (on('calendly.com')) return 'calendly';
  return declared;
}

/** What a provider's webhook said happened to a meeting. */
export const BOOKING_CHANGES = ['created', 'rescheduled', 'cancelled'] as const;
export type BookingChange = (typeof BOOKING_CHANGES)[number];

/**
 * The query parameter that carries the lead's id into the provider's booking page and back in its
 * webhook: Cal.com returns `metadata[leadId]` as `payload.metadata.leadId`; Calendly returns its
 * tracking parameter `salesforce_uuid` (a free-form id field despite its name) as
 * `payload.tracking.salesforce_uuid`.
 */
export const LEAD_ID_PARAMETER = { cal: 'metadata[leadId]', calendly: 'salesforce_uuid' } as const satisfies Record<
  BookingProvider,
  string
>;

/**
 * GET /api/bookings/lead/:leadId (public, no session): the meeting the provider confirmed for a lead
 * the visitor just sent, so the page can confirm the booked time (Calendly's page events do not carry
 * it). Only the start time and state: nothing about the person. 404 while no webhook has arrived.
 */
export type BookingConfirmation = { startsAt: string; status: 'booked' | 'cancelled' };
