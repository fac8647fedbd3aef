// What a beacon may carry: a known event on a page of this site, where the visit came from reduced
// to a site's name and campaign words; anything else, larger, or about a page the site does not have,
// is refused whole with a plain reason.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CAMPAIGN_WORD_MAX_LENGTH, CLICK_ID_KINDS, type BeaconEvent } from '../../lead/beacon-event.ts';
import { arrival, encodeBeacon } from '../../renderer/shell/beacon.ts';
import { MAX_EVENT_BYTES, readEvent, type ArrivingBeacon } from './event-shape.ts';

const PAGES = new Set(['/', '/about', '/contact', '/blog/what-is-ai-consulting']);
const options = { isSitePath: (path: string) => PAGES.has(path), siteHost: 'www.example.com' };
const read = (data: unknown) => readEvent(typeof data === 'string' ? data : JSON.stringify(data), options);

describe('a beacon', () => {
  it('is a page view with where the visit came from: the referring site by name, campaign words, the kind of ad click', () => {
    expect(
      read({
        type: 'pageview',
        path: '/about',
        referrer: 'https://news.example.org/story?id=42&email=someone@example.com',
        campaign: { source: ' newsletter ', medium: 'email', name: 'spring-sale' },
        click: 'gclid',
      }),
    ).toEqual({
      ok: true,
      event: {
        type: 'pageview',
        path: '/about',
        referrerHost: 'news.example.org',
        campaign: { source: 'newsletter', medium: 'email', name: 'spring-sale' },
        click: 'gclid',
      },
    });
  });

  it('does not count the site itself, or a referrer that is no web address, as where a visit came from', () => {
    for (const referrer of ['https://www.example.com/', 'https://example.com/contact', 'javascript:alert(1)', 'not an address']) {
      expect(read({ type: 'pageview', path: '/', referrer })).toEqual({ ok: true, event: { type: 'pageview', path: '/' } });
    }
  });

  it('is a form event only with its form, and names one of the four lead forms', () => {
    expect(read({ type: 'form_start', path: '/contact', form: 'contact' })).toMatchObject({ ok: true });
    expect(read({ type: 'form_submit', path: '/contact' })).toEqual({
      ok: false,
      problem: 'A form event names its form, and only a form event does.',
    });
    expect(read({ type: 'pageview', path: '/contact', form: 'contact' })).toMatchObject({ ok: false });
    expect(read({ type: 'form_start', path: '/contact', form: 'newsletter' })).toMatchObject({ ok: false });
  });

  it.each([
    ['not JSON', 'type=pageview', 'An event is a JSON object.'],
    ['a list', [], 'Invalid input: expected object, received array'],
    ['an unknown event', { type: 'purchase', path: '/' }, undefined],
    ['a field it does not expect', { type: 'pageview', path: '/', email: 'someone@example.com' }, undefined],
    ['a page the site does not have', { type: 'pageview', path: '/admin' }, 'The path is not a page of this site.'],
    ['a path with a query', { type: 'pageview', path: '/about?x=1' }, 'The path is a page of this site, such as "/about".'],
    ['a dot segment', { type: 'pageview', path: '/blog/../about' }, 'The path is a page of this site, such as "/about".'],
    ['an ad click id itself', { type: 'pageview', path: '/', click: 'EAIaIQobChMI' }, undefined],
    [
      'too many bytes',
      { type: 'pageview', path: '/', referrer: `https://a.example/${'x'.repeat(MAX_EVENT_BYTES)}` },
      `An event is at most ${MAX_EVENT_BYTES} bytes.`,
    ],
  ])('is refused with %s', (_, data, problem) => {
    const result = read(data);
    expect(result.ok).toBe(false);
    if (problem && !result.ok) expect(result.problem).toBe(problem);
  });
});

describe('the forms a page view lists', () => {
  it('are the lead forms on the page, each once', () => {
    expect(read({ type: 'pageview', path: '/', forms: ['home', 'home'] })).toEqual({
      ok: true,
      event: { type: 'pageview', path: '/', forms: ['home'] },
    });
  });
  it('are refused on any other event and when unknown', () => {
    expect(read({ type: 'booking_click', path: '/', forms: ['home'] }).ok).toBe(false);
    expect(read({ type: 'pageview', path: '/', forms: ['newsletter'] }).ok).toBe(false);
  });
});

describe('campaign words', () => {
  it('leave out any that hold an e-mail address, which would name the reader, and empty ones', () => {
    expect(read({ type: 'pageview', path: '/', campaign: { source: 'newsletter', term: 'dana@reyes.example', content: ' ' } })).toEqual({
      ok: true,
      event: { type: 'pageview', path: '/', campaign: { source: 'newsletter' } },
    });
    expect(read({ type: 'pageview', path: '/', campaign: { content: 'someone%40example.com@x' } })).toEqual({
      ok: true,
      event: { type: 'pageview', path: '/' },
    });
  });
});

describe('campaign words', () => {
  it('lose control characters, bidirectional controls and other invisible characters, and count as the word shown', () => {
    const result = read({
      type: 'pageview',
      path: '/',
      campaign: { source: 'a\u0000b', medium: '\u202Ecpc', name: 'roi\u2066-q4\u2069', term: 'ai\u200Bagents', content: '\u061C\u2067' },
    });
    expect(result).toEqual({
      ok: true,
      event: { type: 'pageview', path: '/', campaign: { source: 'ab', medium: 'cpc', name: 'roi-q4', term: 'aiagents' } },
    });
  });
});

// The browser's beacon and this reader take the event's shape from one module (lead/beacon-event.ts):
// whatever a page builds from the address it was opened with, the server reads.
describe('what the browser’s beacon builds', () => {
  it('is an event the server reads, for every click id and campaign word the beacon knows', () => {
    expectTypeOf<BeaconEvent>().toExtend<ArrivingBeacon>();
    const longWord = 'w'.repeat(CAMPAIGN_WORD_MAX_LENGTH + 20);
    for (const click of CLICK_ID_KINDS) {
      const url = new URL(
        `https://www.example.com/about?utm_source=${longWord}&utm_medium=cpc&utm_campaign=spring&utm_term=ai&utm_content=top&${click}=ID-1`,
      );
      const event = { type: 'pageview' as const, path: '/about', ...arrival(url, 'https://news.example.org/story') };
      expect(event.click).toBe(click);
      expect(readEvent(encodeBeacon(event), options)).toEqual({
        ok: true,
        event: {
          type: 'pageview',
          path: '/about',
          referrerHost: 'news.example.org',
          campaign: { source: 'w'.repeat(CAMPAIGN_WORD_MAX_LENGTH), medium: 'cpc', name: 'spring', term: 'ai', content: 'top' },
          click,
        },
      });
    }
  });
});
