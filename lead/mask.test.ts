import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskUrl } from './mask.ts';
import { timeAgainstBudget } from './testing/machine-speed.ts';

describe('maskUrl', () => {
  it.each([
    ['/console/api/erasures?email=ana.lopez%40example.com', '/console/api/erasures?email=a***@example.com'],
    ['/console/api/accounts/ana%40example.com', '/console/api/accounts/a***@example.com'],
    ['/console/api/leads?p=ana@example.com&state=failed', '/console/api/leads?p=a***@example.com&state=failed'],
    ['/console/api/leads?p=%2B1%20(555)%20123-4567', '/console/api/leads?p=***67'],
    ['/console/api/leads?p=+1+555+123+4567', '/console/api/leads?p=***67'],
    ['/console/api/leads/7f1d2c3b-0000-4000-8000-000000000001', '/console/api/leads/7f1d2c3b-0000-4000-8000-000000000001'],
    ['/console/api/leads?limit=50&p=Acme', '/console/api/leads?limit=50&p=Acme'],
    ['/about', '/about'],
  ])('%s → %s', (url, masked) => expect(maskUrl(url)).toBe(masked));

  it.each([
    // What a person searched for (a name, a company) is personal too: only that there was a search shows.
    ['/console/api/leads?q=Se%C3%A1n%20O%27Brien&state=failed', '/console/api/leads?q=(search)&state=failed'],
    ['/console/api/leads/export?format=csv&%71=Acme', '/console/api/leads/export?format=csv&%71=(search)'],
    ['/console/api/leads?q=', '/console/api/leads?q='],
  ])('a search: %s → %s', (url, masked) => expect(maskUrl(url)).toBe(masked));

  it.each([
    // A console filter of typed text may name a person: only its use shows, or one of the site's forms.
    ['/console/api/leads?campaign=Ana+Maria+Lopez&source=John+Smith', '/console/api/leads?campaign=(filter)&source=(filter)'],
    [
      '/console/api/leads/export?format=csv&form=Maria%20Silva&state=failed',
      '/console/api/leads/export?format=csv&form=(filter)&state=failed',
    ],
    ['/console/api/leads?form=Contact+Page+Form', '/console/api/leads?form=Contact+Page+Form'],
    ['/console/spam?%63ampaign=Ana', '/console/spam?%63ampaign=(filter)'],
    ['/console?source=', '/console?source='],
    ['/about?source=newsletter', '/about?source=newsletter'],
  ])('a console filter: %s → %s', (url, masked) => expect(maskUrl(url)).toBe(masked));

  it.each([
    // A number or an address inside other words, not only a value that is nothing else.
    ['/console/api/leads?p=call+555-222-3333+please', '/console/api/leads?p=call***33+please'],
    ['/console/api/leads?p=Victim+5552223333x', '/console/api/leads?p=Victim***33x'],
    ['/console/api/leads?p=Ana%20ana%2Bcrm%40example.com%20Acme', '/console/api/leads?p=Ana%20a***@example.com%20Acme'],
    // Query keys, as well as values.
    ['/console/api/leads?victim.person@example.com=1', '/console/api/leads?v***@example.com=1'],
    ['/console/api/leads?5552223333', '/console/api/leads?***33'],
    // Encoded more than once.
    ['/console/api/leads?p=victim.person%2540example.com', '/console/api/leads?p=v***@example.com'],
    ['/console/api/leads?p=555%252D222%252D3333', '/console/api/leads?p=***33'],
    // A broken escape beside it does not hide it.
    ['/console/api/leads?p=victim%40example.com%ZZ', '/console/api/leads?p=v***@example.com%25ZZ'],
    // An address in a path segment, among other text; lead ids (UUIDs) are kept whole.
    ['/console/api/x/call%20555.222.3333', '/console/api/x/call%20***33'],
    [
      '/console/api/leads?after=7f1d2c3b-0000-4000-8000-000000000001&p=5552223333',
      '/console/api/leads?after=7f1d2c3b-0000-4000-8000-000000000001&p=***33',
    ],
    // A lone surrogate beside a number is shown as U+FFFD's escape.
    ['/console/api/leads?p=\uD800 5552223333', '/console/api/leads?p=%EF%BF%BD%20***33'],
    // Any separators, and digits written otherwise (full width, a non-breaking hyphen).
    ['/x?p=555/123/4567', '/x?p=***67'],
    ['/x?p=555_123_4567', '/x?p=***67'],
    ['/x?p=555,123,4567', '/x?p=***67'],
    ['/x?p=%EF%BC%95%EF%BC%95%EF%BC%95%EF%BC%91%EF%BC%92%EF%BC%93%EF%BC%94', '/x?p=***34'],
    ['/x?p=555%E2%80%91123%E2%80%914567', '/x?p=***67'],
    // Escaped more times over than any honest link: nothing of it is shown.
    ['/x?p=ana%25252525252525252540example.com', '/x?p=***'],
    // Fewer than seven digits is not a phone number.
    ['/console/api/leads?limit=100&p=Acme%20123456', '/console/api/leads?limit=100&p=Acme%20123456'],
  ])('%s → %s', (url, masked) => expect(maskUrl(url)).toBe(masked));

  it('never shows a whole phone number or the local part of an address, however they are written', () => {
    const localPart = fc.stringMatching(/^[a-z][a-z0-9._+-]{5,20}$/);
    const phone = fc
      .tuple(fc.constantFrom('', '+1 ', '+44-', '('), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 7, maxLength: 12 }))
      .chain(([prefix, digits]) =>
        fc
          .array(fc.constantFrom('', '', ' ', '-', '.', ') '), { minLength: digits.length, maxLength: digits.length })
          .map((separators) => ({ digits: digits.join(''), text: prefix + digits.map((digit, i) => `${digit}${separators[i]}`).join('') })),
      );
    const words = fc.stringMatching(/^[A-Za-z ]{0,10}$/);
    const encode = (text: string, times: number) => {
      let encoded = text;
      for (let i = 0; i < times; i += 1) encoded = encodeURIComponent(encoded);
      return encoded;
    };
    fc.assert(
      fc.property(localPart, phone, words, fc.integer({ min: 0, max: 3 }), fc.boolean(), (local, number, before, times, asKey) => {
        const text = `${before} ${local}@example.com ${number.text} ${before}`;
        const part = encode(text, times);
        const url = asKey ? `/console/api/leads?${part}=1` : `/console/api/leads?p=${part}`;
        let shown = maskUrl(url);
        for (let i = 0; i < 5; i += 1) shown = decodeURIComponent(shown);
        expect(shown).not.toContain(`${local}@`);
        expect(shown.replace(/\D/g, '')).not.toContain(number.digits);
      }),
      { numRuns: 300 },
    );
  });

  it('takes time in proportion to the URL, whatever its text', async () => {
    for (const url of [
      `/x?p=${'a'.repeat(16_000)}@`,
      `/x?p=${'1 '.repeat(8_000)}`,
      `/${'1-'.repeat(8_000)}x`,
      `/x?${'%25'.repeat(5_000)}`,
    ]) {
      const { ms, budgetMs } = await timeAgainstBudget(100, () => maskUrl(url));
      expect(ms, url.slice(0, 20)).toBeLessThan(budgetMs);
    }
  });
});
