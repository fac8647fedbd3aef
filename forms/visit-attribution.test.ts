import { describe, expect, it } from 'vitest';
import type { StorageLike } from './rate-limit.ts';
import { ATTRIBUTION_STORAGE_KEY, captureAttribution, readStoredAttribution } from './visit-attribution.ts';

function createMemoryStorage(initial: Record<string, string> = {}): StorageLike & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const CAMPAIGN_URL =
  'https://example.com/ai-transformation?utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=ai+consulting&utm_content=ad-1&gclid=G123&fbclid=F456&other=ignored';

describe('captureAttribution', () => {
  it('stores what the first page view of a visit captures', () => {
    const storage = createMemoryStorage();
    const first = captureAttribution({ url: CAMPAIGN_URL, referrer: 'https://www.google.com/', storage });
    expect(first.utm_source).toBe('google');
    expect(readStoredAttribution(storage)).toEqual(first);
  });

  it("keeps the first view's attribution on later pages of the same visit", () => {
    const storage = createMemoryStorage();
    const first = captureAttribution({ url: CAMPAIGN_URL, referrer: 'https://www.google.com/', storage });
    const later = captureAttribution({
      url: 'https://example.com/contact?utm_source=newsletter',
      referrer: 'https://other.example.org/',
      storage,
    });
    expect(later).toEqual(first);
  });

  it('keeps a direct first visit direct even if a later page has campaign parameters', () => {
    const storage = createMemoryStorage();
    captureAttribution({ url: 'https://example.com/', referrer: '', storage });
    expect(captureAttribution({ url: 'https://example.com/?utm_source=x', referrer: '', storage })).toEqual({
      landing_page: 'https://example.com/',
    });
  });

  it('captures afresh when the stored value is corrupt', () => {
    const storage = createMemoryStorage({ [ATTRIBUTION_STORAGE_KEY]: '{"utm_source": 5}' });
    expect(captureAttribution({ url: 'https://example.com/?utm_source=bing', referrer: '', storage }).utm_source).toBe('bing');
  });

  it.each([['{oops'], ['[]'], ['null'], ['{"evil_field":"x"}']])('reads corrupt stored value %j as nothing', (stored) => {
    expect(readStoredAttribution(createMemoryStorage({ [ATTRIBUTION_STORAGE_KEY]: stored }))).toBeUndefined();
  });

  it('still returns the attribution when storage is blocked', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(captureAttribution({ url: 'https://example.com/?gclid=G1', referrer: '', storage: blocked })).toEqual({
      gclid: 'G1',
      landing_page: 'https://example.com/?gclid=G1',
    });
  });
});
