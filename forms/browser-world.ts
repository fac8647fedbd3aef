// The browser facts the pure lead domain needs (storage, clock, page, attribution), read only inside
// event handlers and effects, never while prerendering.
import type { Attribution } from '../lead/attribution.ts';
import { createVisitAttribution } from './visit-attribution.ts';
import type { PayloadContext } from '../lead/crm-payload.ts';
import type { StorageLike } from './rate-limit.ts';

/** An in-memory stand-in when the browser refuses storage (privacy modes, blocked cookies). */
export function createMemoryStorage(): StorageLike {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const fallbackStorages = new Map<string, StorageLike>();

/** localStorage or sessionStorage; merely touching them throws when storage is blocked. */
export function readBrowserStorage(kind: 'localStorage' | 'sessionStorage'): StorageLike {
  try {
    const storage = window[kind];
    if (storage) return storage;
  } catch {
    // Fall through to memory.
  }
  let fallback = fallbackStorages.get(kind);
  if (!fallback) {
    fallback = createMemoryStorage();
    fallbackStorages.set(kind, fallback);
  }
  return fallback;
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

export function createBrowserPayloadContext(): PayloadContext {
  return {
    now: new Date(),
    pageUrl: window.location.href,
    userAgent: navigator.userAgent,
    referrer: document.referrer,
    attribution: captureVisitAttribution(),
  };
}
