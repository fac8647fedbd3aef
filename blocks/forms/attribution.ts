// Marketing attribution (issue 3): captured on the first page view of a visit and attached to every
// lead of that visit. Kept in an injected storage (sessionStorage in the browser, so one visit = one tab session).
import type { StorageLike } from './rate-limit.ts';

export const ATTRIBUTION_QUERY_PARAMS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
  'fbclid',
] as const;
export type AttributionQueryParam = (typeof ATTRIBUTION_QUERY_PARAMS)[number];
export type AttributionField = AttributionQueryParam | 'landing_page' | 'first_referrer';

/** Flat wire fields merged into every lead payload; only what was present is set. */
export type Attribution = Partial<Record<AttributionField, string>>;

export const ATTRIBUTION_STORAGE_KEY = 'lead_attribution';
// Keeps hand-crafted query strings from bloating a lead past the relay's body limit.
export const ATTRIBUTION_VALUE_MAX_LENGTH = 500;

const ATTRIBUTION_FIELDS: readonly AttributionField[] = [...ATTRIBUTION_QUERY_PARAMS, 'landing_page', 'first_referrer'];

export interface AttributionSource {
  /** The current page's full address. */
  readonly url: string;
  /** `document.referrer`: empty when the visitor typed the address or the referrer was withheld. */
  readonly referrer: string;
  readonly storage: Pick<StorageLike, 'getItem' | 'setItem'>;
}

function parseUrl(address: string): URL | undefined {
  try {
    return new URL(address);
  } catch {
    return undefined;
  }
}

function limitLength(value: string): string {
  return value.slice(0, ATTRIBUTION_VALUE_MAX_LENGTH);
}

/** What this page view says about where the visitor came from; no storage involved. */
export function extractAttribution(url: string, referrer: string): Attribution {
  const page = parseUrl(url);
  if (page === undefined) return {};
  const attribution: Attribution = { landing_page: limitLength(page.href) };
  for (const param of ATTRIBUTION_QUERY_PARAMS) {
    const value = page.searchParams.get(param)?.trim();
    if (value) attribution[param] = limitLength(value);
  }
  // Only an external referrer says where the visit came from; our own pages do not.
  const referrerUrl = parseUrl(referrer);
  if (referrerUrl !== undefined && referrerUrl.origin !== page.origin) {
    attribution.first_referrer = limitLength(referrerUrl.href);
  }
  return attribution;
}

function isAttribution(value: unknown): value is Attribution {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([key, field]) => (ATTRIBUTION_FIELDS as readonly string[]).includes(key) && typeof field === 'string',
  );
}

/** The visit's stored attribution, or undefined when none (or only corrupt data) is stored. */
export function readStoredAttribution(storage: Pick<StorageLike, 'getItem'>): Attribution | undefined {
  try {
    const stored = storage.getItem(ATTRIBUTION_STORAGE_KEY);
    if (stored === null) return undefined;
    const parsed: unknown = JSON.parse(stored);
    return isAttribution(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Call on every page view: the first view of a visit stores its attribution, later views reuse it. */
export function captureAttribution({ url, referrer, storage }: AttributionSource): Attribution {
  const stored = readStoredAttribution(storage);
  if (stored !== undefined) return stored;
  const attribution = extractAttribution(url, referrer);
  try {
    storage.setItem(ATTRIBUTION_STORAGE_KEY, JSON.stringify(attribution));
  } catch {
    // Blocked storage: this page's leads still carry the attribution; later pages capture their own.
  }
  return attribution;
}
