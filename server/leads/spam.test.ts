import { describe, expect, it } from 'vitest';
import { judgeSpam } from './spam.ts';

// A person's lead: shown 15 s before it was sent, honeypot empty, no web address.
const SENT_AT = Date.parse('2026-03-02T10:00:15.000Z');
const PERSON = {
  name: 'Ana Lima',
  company: 'Lima & Co',
  phone: '+1 512 555 0147',
  message: 'Please call me about the voice agent.',
  website: '',
  form_shown_at: SENT_AT - 15_000,
  submitted_at: new Date(SENT_AT).toISOString(),
};
const FAST = { form_shown_at: SENT_AT - 600 };

describe('judgeSpam: a strong signal, or two weak ones', () => {
  it.each([
    ['a person’s lead', {}, undefined],
    ['autofilled and sent 0.6 s after the form appeared (one weak signal)', FAST, undefined],
    ['a web address in the message (one weak signal)', { message: 'Our site: https://lima.example' }, undefined],
    ['a www. address in the company name (one weak signal)', { company: 'www.lima.example' }, undefined],
    ['the honeypot filled (strong)', { website: 'https://cheap-pills.example' }, 'honeypot'],
    ['the honeypot filled and sent at once', { website: 'x', ...FAST }, 'honeypot,too_fast'],
    ['sent at once with a web address in the message', { ...FAST, message: 'Buy now http://pills.example' }, 'too_fast,links'],
    ['sent at once with forum link markup in the name', { ...FAST, name: '[url=pills.example]Ana[/url]' }, 'too_fast,links'],
    ['autofilled at once with the company’s own domain as its name', { ...FAST, company: 'www.acme.com' }, undefined],
    ['autofilled at once with the company’s address, scheme and all', { ...FAST, company: 'https://acme.com' }, undefined],
    ['sent at once with a bare domain in the message', { ...FAST, message: 'We run shop.acme.com' }, undefined],
    ['sent at once with two web addresses', { ...FAST, company: 'www.acme.com', message: 'See www.pills.example' }, 'too_fast,links'],
    ['sent at once with link markup in the company', { ...FAST, company: '[url]pills.example[/url]' }, 'too_fast,links'],
    [
      'sent at once with a web address the sanitiser joins from pieces',
      { ...FAST, message: 'h<script></script>ttps://spam.example' },
      'too_fast,links',
    ],
    [
      'a form posted without JavaScript (no time to judge) holding a link',
      { form_shown_at: undefined, message: 'https://x.example' },
      undefined,
    ],
    [
      'a browser clock far behind, but 20 s on the form by its own clock',
      { form_shown_at: 1_000, submitted_at: new Date(21_000).toISOString() },
      undefined,
    ],
  ])('%s → %s', (_name, overrides, reason) => {
    expect(judgeSpam({ ...PERSON, ...overrides }, SENT_AT)).toBe(reason);
  });

  it('judges time by the server’s clock only when the browser sent none, and only a plausible gap', () => {
    const withoutBrowserTime = { ...PERSON, submitted_at: undefined, message: 'see https://x.example' };
    expect(judgeSpam({ ...withoutBrowserTime, form_shown_at: SENT_AT - 500 }, SENT_AT)).toBe('too_fast,links');
    expect(judgeSpam({ ...withoutBrowserTime, form_shown_at: SENT_AT + 60_000 }, SENT_AT)).toBeUndefined();
  });
});
