import { describe, expect, it } from 'vitest';
import { createVisitAttribution } from './visit-attribution.ts';

const CAMPAIGN_URL =
  'https://example.com/ai-transformation?utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=ai+consulting&utm_content=ad-1&gclid=G123&fbclid=F456&other=ignored';

describe('the visit attribution', () => {
  it('is what the first page view captures', () => {
    const first = createVisitAttribution().capture({ url: CAMPAIGN_URL, referrer: 'https://www.google.com/' });
    expect(first).toMatchObject({ utm_source: 'google', gclid: 'G123', first_referrer: 'https://www.google.com/' });
  });

  it("keeps the first view's attribution on later pages of the same page load", () => {
    const visit = createVisitAttribution();
    const first = visit.capture({ url: CAMPAIGN_URL, referrer: 'https://www.google.com/' });
    const later = visit.capture({ url: 'https://example.com/contact?utm_source=newsletter', referrer: 'https://other.example.org/' });
    expect(later).toEqual(first);
  });

  it('keeps a direct first visit direct even if a later page has campaign parameters', () => {
    const visit = createVisitAttribution();
    visit.capture({ url: 'https://example.com/', referrer: '' });
    expect(visit.capture({ url: 'https://example.com/?utm_source=x', referrer: '' })).toEqual({ landing_page: 'https://example.com/' });
  });

  it('is captured afresh by another page load', () => {
    createVisitAttribution().capture({ url: CAMPAIGN_URL, referrer: '' });
    expect(createVisitAttribution().capture({ url: 'https://example.com/?utm_source=bing', referrer: '' }).utm_source).toBe('bing');
  });
});
