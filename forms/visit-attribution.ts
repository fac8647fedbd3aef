// The visit's attribution in the browser: captured on the first page view of a visit and attached to
// every lead of that visit. Kept in an injected storage (sessionStorage in the browser, so one visit
// is one tab session); what counts as attribution is decided in lead/attribution.ts.
import { extractAttribution, isAttribution, type Attribution } from '../lead/attribution.ts';
import type { StorageLike } from './rate-limit.ts';

export const ATTRIBUTION_STORAGE_KEY = 'lead_attribution';

export interface AttributionSource {
  /** The current page's full address. */
  readonly url: string;
  /** `document.referrer`: empty when the visitor typed the address or the referrer was withheld. */
  readonly referrer: string;
  readonly storage: Pick<StorageLike, 'getItem' | 'setItem'>;
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
