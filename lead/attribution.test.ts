import { describe, expect, it } from 'vitest';
import { ATTRIBUTION_VALUE_MAX_LENGTH, cleanAttributionValue, extractAttribution, isAttribution } from './attribution.ts';

const CAMPAIGN_URL =
  'https://example.com/ai-transformation?utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=ai+consulting&utm_content=ad-1&gclid=G123&fbclid=F456&msclkid=M789&other=ignored';

describe('extractAttribution', () => {
  it('captures every campaign parameter, the landing page and an external referrer', () => {
    expect(extractAttribution(CAMPAIGN_URL, 'https://www.google.com/')).toEqual({
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      utm_term: 'ai consulting',
      utm_content: 'ad-1',
      gclid: 'G123',
      fbclid: 'F456',
      msclkid: 'M789',
      landing_page: CAMPAIGN_URL,
      first_referrer: 'https://www.google.com/',
    });
  });

  it('captures only the landing page when the visit has no campaign and no referrer', () => {
    expect(extractAttribution('https://example.com/', '')).toEqual({ landing_page: 'https://example.com/' });
  });

  it.each([
    ['a page of this site', 'https://example.com/blog'],
    ['a page of this site with a query', 'https://example.com/?utm_source=self'],
  ])('ignores a referrer that is %s', (_kind, referrer) => {
    expect(extractAttribution('https://example.com/contact', referrer)).not.toHaveProperty('first_referrer');
  });

  it.each([
    ['another site', 'https://news.example.org/article', 'https://news.example.org/article'],
    ['a subdomain of this site', 'https://blog.example.com/post', 'https://blog.example.com/post'],
    ['this host over plain http', 'http://example.com/', 'http://example.com/'],
  ])('keeps a referrer from %s', (_kind, referrer, expected) => {
    expect(extractAttribution('https://example.com/', referrer).first_referrer).toBe(expected);
  });

  it('ignores a referrer that is not an address', () => {
    expect(extractAttribution('https://example.com/', 'not a url')).not.toHaveProperty('first_referrer');
  });

  it('skips empty campaign parameters', () => {
    expect(extractAttribution('https://example.com/?utm_source=&utm_medium=%20', '')).toEqual({
      landing_page: 'https://example.com/?utm_source=&utm_medium=%20',
    });
  });

  it('cuts very long values', () => {
    const long = 'x'.repeat(ATTRIBUTION_VALUE_MAX_LENGTH + 100);
    const attribution = extractAttribution(`https://example.com/?utm_campaign=${long}`, '');
    expect(attribution.utm_campaign).toHaveLength(ATTRIBUTION_VALUE_MAX_LENGTH);
    expect(attribution.landing_page).toHaveLength(ATTRIBUTION_VALUE_MAX_LENGTH);
  });

  it('captures nothing from an address it cannot read', () => {
    expect(extractAttribution('not a url', 'https://www.google.com/')).toEqual({});
  });
});

describe('isAttribution', () => {
  it.each([[{}], [{ utm_source: 'google', landing_page: 'https://example.com/' }]])('accepts %j', (value) => {
    expect(isAttribution(value)).toBe(true);
  });

  it.each([[null], [[]], ['x'], [{ evil_field: 'x' }], [{ utm_source: 5 }]])('refuses %j', (value) => {
    expect(isAttribution(value)).toBe(false);
  });
});

describe('cleanAttributionValue', () => {
  it.each([
    ['a right-to-left override', 'roi\u202E4q-', 'roi4q-'],
    ['left-to-right and right-to-left embeddings and their end', '\u202Aspring\u202B-sale\u202C', 'spring-sale'],
    ['a left-to-right override', '\u202Dautumn', 'autumn'],
    ['isolates (U+2066 to U+2069)', '\u2066news\u2067letter\u2068!\u2069', 'newsletter!'],
    ['marks and zero-width characters', '\u200Ewin\u200Bter\u200D\u200F\uFEFF', 'winter'],
    ['control characters', 'a\u0000b\u001Bc\u007Fd\u009Fe', 'abcde'],
    ['halves of a surrogate pair standing alone', 'q\uDFFF4\uD800', 'q4'],
    ['line breaks and tabs, as spaces', ' ai\tconsulting\r\nnow\u2028 ', 'ai consulting now'],
  ])('removes %s', (_kind, value, cleaned) => {
    expect(cleanAttributionValue(value)).toBe(cleaned);
  });

  it.each([['roi-q4'], ['Frühjahr 2026'], ['حملة الربيع'], ['春のセール'], ['launch 🚀'], ['50% off']])('keeps %s as written', (value) => {
    expect(cleanAttributionValue(value)).toBe(value);
  });

  it('is applied to the campaign words a landing page carries', () => {
    const url = 'https://example.com/?utm_campaign=roi%E2%80%AEq4&utm_source=%E2%81%A6news%E2%81%A9&utm_term=%E2%80%8B';
    expect(extractAttribution(url, '')).toEqual({ utm_campaign: 'roiq4', utm_source: 'news', landing_page: url });
  });
});
