// The visit's attribution in the browser: captured on the first page view of a page load and attached
// to every lead sent from it. It lives in memory for the life of the page, which the shell's
// client-side navigations keep, and is never written to the visitor's device: browsing the site
// stores nothing. After a full page load a lead carries what that load's address held: the relay
// never adds words from the analytics, whose visit is only a guess. What counts as attribution is
// decided in lead/attribution.ts. The page shell captures it on every page view, with or without a
// form on the page, and the lead forms read it back.
import { extractAttribution, type Attribution } from '../../lead/attribution.ts';

export interface AttributionSource {
  /** The address this document was loaded from. */
  readonly url: string;
  /** `document.referrer`: empty when the visitor typed the address or the referrer was withheld. */
  readonly referrer: string;
}

export type VisitAttribution = {
  /** Call on every page view: the first one captures the attribution, later ones return it. */
  capture(source: AttributionSource): Attribution;
};

export function createVisitAttribution(): VisitAttribution {
  let captured: Attribution | undefined;
  return {
    capture({ url, referrer }) {
      captured ??= extractAttribution(url, referrer);
      return captured;
    },
  };
}

/**
 * The address this document was loaded from. Client-side navigation changes `location` but not the
 * navigation entry, so a visitor who landed on /about?utm_source=… and then opened /contact in the
 * app is still attributed to the address they landed on.
 */
export function readDocumentUrl(): string {
  const [navigation] = performance.getEntriesByType?.('navigation') ?? [];
  return navigation?.name || window.location.href;
}

// One per page load, in memory only: the shell's client-side navigations keep it.
const visitAttribution = createVisitAttribution();

/** Called on every page view (the shell does): the page load's first capture wins; later calls read it back. */
export function captureVisitAttribution(): Attribution {
  return visitAttribution.capture({ url: readDocumentUrl(), referrer: document.referrer });
}
