// The browser facts the pure lead domain needs (storage, clock, page, attribution), read only inside
// event handlers and effects, never while prerendering.
import { captureVisitAttribution } from '../ui/page/visit-attribution.ts';
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

export function createBrowserPayloadContext(): PayloadContext {
  return {
    now: new Date(),
    pageUrl: window.location.href,
    userAgent: navigator.userAgent,
    referrer: document.referrer,
    attribution: captureVisitAttribution(),
  };
}
