import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskUrl } from './mask.ts';

describe('maskUrl', () => {
  it.each([
    ['/console/api/erasures?email=ana.lopez%40example.com', '/console/api/erasures?email=a***@example.com'],
    ['/console/api/accounts/ana%40example.com', '/console/api/accounts/a***@example.com'],
    ['/console/api/leads?q=ana@example.com&state=failed', '/console/api/leads?q=a***@example.com&state=failed'],
    ['/console/api/leads?q=%2B1%20(555)%20123-4567', '/console/api/leads?q=***67'],
    ['/console/api/leads?q=+1+555+123+4567', '/console/api/leads?q=***67'],
    ['/console/api/leads/7f1d2c3b-0000-4000-8000-000000000001', '/console/api/leads/7f1d2c3b-0000-4000-8000-000000000001'],
    ['/console/api/leads?limit=50&q=Acme', '/console/api/leads?limit=50&q=Acme'],
    ['/about', '/about'],
  ])('%s → %s', (url, masked) => expect(maskUrl(url)).toBe(masked));

  it.each([
    // A number or an address inside other words, not only a value that is nothing else.
    ['/console/api/leads?q=call+555-222-3333+please', '/console/api/leads?q=call***33+please'],
    ['/console/api/leads?q=Victim+5552223333x', '/console/api/leads?q=Victim***33x'],
    ['/console/api/leads?q=Ana%20ana%2Bcrm%40example.com%20Acme', '/console/api/leads?q=Ana%20a***@example.com%20Acme'],
    // Query keys, as well as values.
    ['/console/api/leads?victim.person@example.com=1', '/console/api/leads?v***@example.com=1'],
    ['/console/api/leads?5552223333', '/console/api/leads?***33'],
    // Encoded more than once.
    ['/console/api/leads?q=victim.person%2540example.com', '/console/api/leads?q=v***@example.com'],
    ['/console/api/leads?q=555%252D222%252D3333', '/console/api/leads?q=***33'],
    // A broken escape beside it does not hide it.
    ['/console/api/leads?q=victim%40example.com%ZZ', '/console/api/leads?q=v***@example.com%25ZZ'],
    // An address in a path segment, among other text; lead ids (UUIDs) are kept whole.
    ['/console/api/x/call%20555.222.3333', '/console/api/x/call%20***33'],
    [
      '/console/api/leads?after=7f1d2c3b-0000-4000-8000-000000000001&q=5552223333',
      '/console/api/leads?after=7f1d2c3b-0000-4000-8000-000000000001&q=***33',
    ],
    // A lone surrogate beside a number is shown as U+FFFD's escape.
    ['/console/api/leads?q=\uD800 5552223333', '/console/api/leads?q=%EF%BF%BD%20***33'],
    // Fewer than seven digits is not a phone number.
    ['/console/api/leads?limit=100&q=Acme%20123456', '/console/api/leads?limit=100&q=Acme%20123456'],
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
        const url = asKey ? `/console/api/leads?${part}=1` : `/console/api/leads?q=${part}`;
        let shown = maskUrl(url);
        for (let i = 0; i < 5; i += 1) shown = decodeURIComponent(shown);
        expect(shown).not.toContain(`${local}@`);
        expect(shown.replace(/\D/g, '')).not.toContain(number.digits);
      }),
      { numRuns: 300 },
    );
  });

  it('takes time in proportion to the URL, whatever its text', () => {
    for (const url of [
      `/x?q=${'a'.repeat(16_000)}@`,
      `/x?q=${'1 '.repeat(8_000)}`,
      `/${'1-'.repeat(8_000)}x`,
      `/x?${'%25'.repeat(5_000)}`,
    ]) {
      const started = performance.now();
      maskUrl(url);
      expect(performance.now() - started, url.slice(0, 20)).toBeLessThan(100);
    }
  });
});
