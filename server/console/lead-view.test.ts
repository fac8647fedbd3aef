import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../store/outbox/outbox-store.ts';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';
import { callbackOf, decodeCursor, encodeCursor, spamSignalsOf, toLeadDetail, toLeadQuery, toLeadSummary } from './lead-view.ts';

const RECEIVED = Date.parse('2026-11-20T10:00:00Z');

const lead: LeadRecord = {
  id: 'lead-1',
  receivedAt: RECEIVED,
  source: 'Contact Page Form',
  email: 'ana@example.com',
  payload: {
    name: 'Ana',
    email: 'ana@example.com',
    company: 'Acme',
    message: 'Hello',
    revenue: 250000,
    utm_source: 'newsletter',
    utm_campaign: 'spring',
    utm_medium: 'email',
    utm_term: 'ai',
    gclid: 'abc',
    referrer: 'https://news.example/',
    first_referrer: 'https://search.example/',
    landing_page: 'https://site.example/?utm_source=newsletter',
    lead_id: 'lead-1',
    source: 'Contact Page Form',
  },
  spamReason: undefined,
  state: 'failed',
  attempts: 1,
  nextAttemptAt: undefined,
  lastStatus: 500,
  lastError: undefined,
  updatedAt: RECEIVED,
  name: 'Ana',
  company: 'Acme',
  campaign: 'spring',
  utmSource: 'newsletter',
};

describe('toLeadDetail', () => {
  const attempt: AttemptRecord = {
    leadId: 'lead-1',
    attemptedAt: RECEIVED + 5_000,
    durationMs: 120,
    status: 500,
    responseBody: 'x'.repeat(2_000),
    error: undefined,
    outcome: 'failed',
  };
  const detail = toLeadDetail(lead, [attempt]);

  it('lists what the visitor sent, in order, as text, without attribution or ids', () => {
    expect(detail.fields).toEqual([
      ['name', 'Ana'],
      ['email', 'ana@example.com'],
      ['company', 'Acme'],
      ['message', 'Hello'],
      ['revenue', '250000'],
    ]);
  });

  it('puts where the visit came from apart', () => {
    expect(detail.attribution).toEqual({
      campaign: 'spring',
      source: 'newsletter',
      medium: 'email',
      referrer: 'https://news.example/',
      landingPage: 'https://site.example/?utm_source=newsletter',
      other: [
        ['utm_term', 'ai'],
        ['gclid', 'abc'],
        ['first_referrer', 'https://search.example/'],
      ],
    });
    expect(detail).toMatchObject({ campaign: 'spring', source: 'newsletter', form: 'Contact Page Form', name: 'Ana', company: 'Acme' });
  });

  it('shows the first 500 characters of the CRM answer', () => {
    expect(detail.attemptsLog).toEqual([
      { at: '2026-11-20T10:00:05.000Z', durationMs: 120, status: 500, answerStart: 'x'.repeat(500), error: null, outcome: 'failed' },
    ]);
  });
});

describe('spamSignalsOf', () => {
  it.each([
    [undefined, []],
    ['honeypot', ['The hidden field that people never see was filled in.']],
    [
      'honeypot,too_fast',
      ['The hidden field that people never see was filled in.', 'The form was sent less than 2 seconds after it appeared.'],
    ],
    ['marked by ana@example.com', ['marked by ana@example.com']],
  ])('%j → %j', (reason, signals) => expect(spamSignalsOf(reason)).toEqual(signals));
});

describe('cursors', () => {
  it('come back as the position they were made from', () => {
    expect(decodeCursor(encodeCursor(RECEIVED, 'lead-1'))).toEqual({ at: RECEIVED, id: 'lead-1' });
    expect(decodeCursor(encodeCursor(RECEIVED, 42))).toEqual({ at: RECEIVED, id: 42 });
  });

  it.each(['', 'not base64!', Buffer.from('[1]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url'), 'x'.repeat(500)])(
    '%j is refused',
    (cursor) => expect(decodeCursor(cursor)).toBeUndefined(),
  );
});

describe('toLeadQuery', () => {
  it('reads days as whole UTC days, the last one included', () => {
    expect(
      toLeadQuery({ from: '2026-11-01', to: '2026-11-30', spam: 'no', form: 'Contact Page Form', source: 'x', campaign: 'y', q: 'ana' }),
    ).toEqual({
      receivedFrom: Date.parse('2026-11-01T00:00:00Z'),
      receivedBefore: Date.parse('2026-12-01T00:00:00Z'),
      spam: false,
      source: 'Contact Page Form',
      utmSource: 'x',
      campaign: 'y',
      search: 'ana',
    });
  });

  it.each([
    ['waiting', { state: 'pending', attempted: false }],
    ['retrying', { state: 'pending', attempted: true }],
    ['failed', { state: 'failed' }],
    ['spam', { state: 'spam', spam: false }],
  ] as const)('finds the %s leads the inbox names so, never spam among the others', (status, query) => {
    expect(toLeadQuery({ state: status, spam: 'no' })).toEqual(query);
  });
});

describe('call me back now', () => {
  const asked: LeadRecord = {
    ...lead,
    payload: {
      ...lead.payload,
      callback_requested: true,
      callback_consent_text: 'Acme may call me now with an automated or artificial voice.',
      callback_consent_at: '2026-11-20T10:00:00.000Z',
      callback_consent_version: '2026-11',
      callback_consent_page: 'https://site.example/contact',
    },
  };

  it('a lead whose visitor ticked the box is listed and shown as asking, with the words they agreed to', () => {
    expect(toLeadSummary(asked).callbackRequested).toBe(true);
    expect(toLeadDetail(asked, []).callbackRequested).toBe(true);
    expect(callbackOf(asked)).toEqual({
      requested: true,
      consentText: 'Acme may call me now with an automated or artificial voice.',
      consentAt: '2026-11-20T10:00:00.000Z',
    });
    expect(toLeadDetail(asked, []).fields).toContainEqual(['callback_requested', 'Yes']);
  });

  it('a lead without it, or spam with a raw ticked box, asks for nothing', () => {
    expect(toLeadSummary(lead).callbackRequested).toBe(false);
    expect(callbackOf(lead)).toEqual({ requested: false, consentText: null, consentAt: null });
    const spam: LeadRecord = {
      ...lead,
      state: 'spam',
      payload: { ...lead.payload, callback_requested: 'yes', callback_consent_text: 'x' },
    };
    expect(callbackOf(spam)).toEqual({ requested: false, consentText: null, consentAt: null });
    // Spam the relay built (it passed the form's checks) keeps the agreement, but asks nobody to call.
    expect(callbackOf({ ...asked, state: 'spam' })).toEqual({ requested: false, consentText: null, consentAt: null });
    expect(toLeadSummary({ ...asked, state: 'spam' }).callbackRequested).toBe(false);
  });
});
