import { describe, expect, it } from 'vitest';
import { leadKeysOf } from './lead-keys.ts';

describe('the keys a lead is counted under', () => {
  it.each([
    [
      'its own campaign and source, and the path of its landing page',
      {
        utm_campaign: 'roi-q4',
        utm_source: 'linkedin',
        first_referrer: 'https://www.google.com/',
        landing_page: 'https://example.com/roi?utm_campaign=roi-q4',
      },
      { campaign: 'roi-q4', source: 'linkedin', entryPath: '/roi' },
    ],
    [
      'the referring site when it names no source',
      { first_referrer: 'https://WWW.News.Example.org/story?id=1', landing_page: 'https://example.com/' },
      { campaign: '', source: 'news.example.org', entryPath: '/' },
    ],
    ['nothing when it says nothing', {}, { campaign: '', source: '', entryPath: '' }],
    [
      'nothing from addresses that are not web addresses',
      { first_referrer: 'javascript:alert(1)', landing_page: 'not an address', utm_campaign: 5 },
      { campaign: '', source: '', entryPath: '' },
    ],
  ])('are %s', (_kind, payload, keys) => {
    expect(leadKeysOf(payload)).toEqual(keys);
  });

  it('cut a campaign longer than an attribution value may be', () => {
    expect(leadKeysOf({ utm_campaign: 'x'.repeat(600) }).campaign).toHaveLength(500);
  });
});
