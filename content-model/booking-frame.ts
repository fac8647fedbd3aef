// Which pages can show the booking page inside themselves, and from which origin. The build writes
// the answer into the CSP manifest (the server names that origin in `frame-src` on those routes and
// nowhere else) and into the site settings the browser reads (a page first loaded on any other route
// cannot frame the booking page, so it offers only the new-tab link). One rule for both, so the
// header and the page never disagree.
import { bookingProviderOf, type BookingProvider } from '../lead/booking.ts';

/** Blocks after which a visitor can pick a time in the page: the lead forms and the thank-you page's booking block. */
export const BOOKING_FRAME_BLOCKS: readonly string[] = ['form', 'roi-calculator', 'booking'];

type PageLike = { readonly page: { readonly path: string; readonly blocks: readonly { readonly type: string }[] } };
/** The site settings' booking: its texts, and the service when the address cannot say. */
type SiteLike = {
  readonly bookingUrl: string;
  readonly booking?: (Readonly<Record<string, unknown>> & { readonly provider?: BookingProvider | undefined }) | undefined;
};

export type BookingFrame = {
  /** The booking page's origin, as `frame-src` names it. */
  readonly origin: string;
  /** Routes whose pages can show the booking page inside them, sorted. */
  readonly routes: readonly string[];
};

/**
 * The origin and routes, or null when no page can frame the booking page: the site settings have no
 * in-page booking, or the booking page's service is unknown (its address does not say and the
 * settings do not either), so it only ever opens in a new tab.
 */
export function bookingFrameOf(site: SiteLike, bookingUrl: string, pages: readonly PageLike[]): BookingFrame | null {
  if (site.booking === undefined || bookingProviderOf(bookingUrl, site.booking.provider) === undefined) return null;
  const origin = originOf(bookingUrl);
  if (origin === undefined) return null;
  const routes = pages
    .filter(({ page }) => !page.path.includes(':') && page.path !== '*')
    .filter(({ page }) => page.blocks.some((block) => BOOKING_FRAME_BLOCKS.includes(block.type)))
    .map(({ page }) => page.path)
    .sort();
  return routes.length === 0 ? null : { origin, routes };
}

/**
 * An http(s) address's origin as browsers write it (scheme and host in lower case, no default port),
 * which is how `frame-src` must name it and how a message's `origin` arrives. Parsed by hand: this
 * module runs where no URL parser is declared.
 */
export function originOf(url: string): string | undefined {
  const match = /^(https?):\/\/([^/?#:@\s]+)(?::(\d+))?(?:[/?#]|$)/i.exec(url.trim());
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  const port = match[3] === undefined || Number(match[3]) === (scheme === 'https' ? 443 : 80) ? '' : `:${Number(match[3])}`;
  return `${scheme}://${match[2]!.toLowerCase()}${port}`;
}
