// Where the booking page points decides who receives every new lead's name and e-mail address: the
// site opens that page, prefilled, once a visitor asks to pick a time. So in a studio with team
// accounts a change of `bookingUrl` or `booking.provider` in the site settings goes live only through
// someone whose role may read the leads anyway (an admin); the booking texts stay open to editors.
// The studio's parsed site settings before and after are compared, so a change of layout, comments or
// quoting is no change of the booking page. Without accounts (one person's studio) nothing is held.
import { parse } from 'yaml';
import { CONTENT_KINDS } from '../../content-model/kinds.ts';

/** How each way of making a change live says what it did not do. */
export type BookingPageAction = 'publish' | 'schedule' | 'restore' | 'undo';

const REASON = 'Only an admin can change the booking page: it receives each visitor’s name and e-mail address.';

/** The sentence a person who may not change the booking page reads, for what they tried. */
export function bookingPageRefused(action: BookingPageAction): string {
  switch (action) {
    case 'publish':
      return `${REASON} Nothing was published: ask an admin to publish this change, or put the booking page in Site settings back as it was to publish the rest.`;
    case 'schedule':
      return `${REASON} Nothing was scheduled: ask an admin to publish this change, or put the booking page in Site settings back as it was to schedule the rest.`;
    case 'restore':
      return `${REASON} This version has another booking page, so it was not restored: ask an admin to restore it.`;
    case 'undo':
      return `${REASON} Undoing the last publish would change it, so nothing was undone: ask an admin to undo it.`;
  }
}

/** The booking page a site settings text names (its address and its service), or why it names none readable. */
function bookingPageOf(text: string | null): string {
  if (text === null) return JSON.stringify(null);
  let data: unknown;
  try {
    data = parse(text);
  } catch {
    // A text that cannot be read is never taken as "the same page".
    return JSON.stringify({ unreadable: text });
  }
  const settings = (data ?? {}) as { bookingUrl?: unknown; booking?: { provider?: unknown } | null };
  return JSON.stringify({ url: settings.bookingUrl ?? null, provider: settings.booking?.provider ?? null });
}

/** Whether writing `after` over `before` (null: no file) in content file `path` changes where the booking page points. */
export function changesBookingPage(file: { path: string; before: string | null; after: string | null }): boolean {
  return file.path === CONTENT_KINDS.site.file && bookingPageOf(file.before) !== bookingPageOf(file.after);
}
