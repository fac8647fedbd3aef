// Marketing attribution: where a visit came from (campaign parameters, click ids, the landing page
// and an external referrer), attached flat to every lead of that visit so the CRM can tell which
// campaign brought it. How the browser keeps it for a visit is ui/page/visit-attribution.ts.
import { CAMPAIGN_PARAMETERS, CLICK_ID_KINDS, type CampaignParameter, type ClickIdKind } from './beacon-event.ts';
import { cutText } from './storable-text.ts';

/**
 * The campaign's `utm_*` parameters and the ad networks' click ids, the same lists the analytics
 * beacon reads (beacon-event.ts): every click id the analytics count reaches the CRM too.
 */
export const ATTRIBUTION_QUERY_PARAMS: readonly AttributionQueryParam[] = [
  ...(Object.keys(CAMPAIGN_PARAMETERS) as CampaignParameter[]),
  ...CLICK_ID_KINDS,
];
export type AttributionQueryParam = CampaignParameter | ClickIdKind;
export type AttributionField = AttributionQueryParam | 'landing_page' | 'first_referrer';

/** Flat wire fields merged into every lead payload; only what was present is set. */
export type Attribution = Partial<Record<AttributionField, string>>;

// Keeps hand-crafted query strings from bloating a lead past the relay's body limit.
export const ATTRIBUTION_VALUE_MAX_LENGTH = 500;

export const ATTRIBUTION_FIELDS: readonly AttributionField[] = [...ATTRIBUTION_QUERY_PARAMS, 'landing_page', 'first_referrer'];

function parseUrl(address: string): URL | undefined {
  try {
    return new URL(address);
  } catch {
    return undefined;
  }
}

function limitLength(value: string): string {
  return cutText(value, ATTRIBUTION_VALUE_MAX_LENGTH);
}

// Line breaks and tabs inside one value stand for a space.
const LINE_BREAKS = /\r\n|[\t\n\v\f\r\u0085\u2028\u2029]/g;
// Control characters (U+0000–U+001F, U+007F–U+009F), format characters (the bidirectional controls
// U+202A–U+202E and U+2066–U+2069, zero-width spaces and joiners, the byte order mark, …) and halves
// of a surrogate pair standing alone.
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/**
 * A campaign word or other attribution value as a person reads it: without control characters,
 * without invisible format characters (a bidirectional control would make "q4-ior" show as "roi-4q"
 * in a report or the CRM, and two look-alike words count apart), line breaks as spaces, trimmed.
 * The beacon's campaign words and the lead's attribution fields both pass through it, so the
 * analytics and the inbox hold the same words.
 */
export function cleanAttributionValue(value: string): string {
  return value.replace(LINE_BREAKS, ' ').replace(INVISIBLE_OR_CONTROL, '').trim();
}

/** What this page view says about where the visitor came from; no storage involved. */
export function extractAttribution(url: string, referrer: string): Attribution {
  const page = parseUrl(url);
  if (page === undefined) return {};
  const attribution: Attribution = { landing_page: limitLength(page.href) };
  for (const param of ATTRIBUTION_QUERY_PARAMS) {
    const value = cleanAttributionValue(page.searchParams.get(param) ?? '');
    if (value) attribution[param] = limitLength(value);
  }
  // Only an external referrer says where the visit came from; our own pages do not.
  const referrerUrl = parseUrl(referrer);
  if (referrerUrl !== undefined && referrerUrl.origin !== page.origin) {
    attribution.first_referrer = limitLength(referrerUrl.href);
  }
  return attribution;
}

/** Whether a value read back from anywhere (storage, a request) is attribution and nothing else. */
export function isAttribution(value: unknown): value is Attribution {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([key, field]) => (ATTRIBUTION_FIELDS as readonly string[]).includes(key) && typeof field === 'string',
  );
}
