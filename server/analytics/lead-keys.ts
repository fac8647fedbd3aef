// What a lead says about where it came from, read from the payload the inbox stores: the keys its
// "accepted" and "delivered" steps are counted under, so the funnel split by campaign or source
// agrees with the inbox filtered the same way. A lead's words are its own (the page that sent it
// knew how the visitor arrived), not its visit's first campaign of the day, which may be another.
import type { LeadKeys } from './analytics-store.ts';

/** A key is cut to this many characters, as an attribution value is (lead/attribution.ts). */
const MAX_KEY_LENGTH = 500;

/** The lead's keys: '' for what it does not say. */
export function leadKeysOf(payload: Readonly<Record<string, unknown>>): LeadKeys {
  const text = (field: string) => (typeof payload[field] === 'string' ? payload[field].slice(0, MAX_KEY_LENGTH) : '');
  return {
    campaign: text('utm_campaign'),
    source: text('utm_source') || siteOf(text('first_referrer')),
    entryPath: pathOf(text('landing_page')),
  };
}

/** "news.example.org" for an http(s) address, as the analytics name a referring site; '' otherwise. */
function siteOf(address: string): string {
  const url = parseWebAddress(address);
  return url === undefined ? '' : url.hostname.toLowerCase().replace(/^www\./, '');
}

/** "/roi" for "https://example.com/roi?utm_source=x"; '' for anything that is not an http(s) address. */
function pathOf(address: string): string {
  return parseWebAddress(address)?.pathname ?? '';
}

function parseWebAddress(address: string): URL | undefined {
  if (address === '') return undefined;
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}
