// The same hostile texts, sent to the relay in every place a lead holds text, keep the same leads on
// SQLite and on PostgreSQL, or are refused with the same 400 naming the field: none is answered 500
// and lost on one engine while the other keeps it. PostgreSQL cannot hold U+0000 and no database can
// hold half of an emoji's surrogate pair, so a field the visitor typed refuses them with a message,
// and text nobody typed (page address, attribution, spam) is kept without them.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanAttributionValue } from '../../lead/attribution.ts';
import { FORM_FIELD_LABELS, VALIDATION_MESSAGES } from '../../lead/rules.ts';
import { buildApp } from '../app.ts';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';
import { createFakeAnalyticsStore } from '../testing/analytics-fake.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from '../testing/site-fixture.ts';
import { announceSkip, postgresHarness, sqliteWorkerHarness, type StoreDatabase } from '../testing/store-harness.ts';

const M = VALIDATION_MESSAGES;
// 2,501 characters (over any typed field's limit) in about 5.5 KB of UTF-8, so twice over in one body
// still fits the relay's 16 KiB. The leading letter puts each cut to length (2,000 and 500 UTF-16
// units) in the middle of an emoji's surrogate pair.
const LONG_TEXT = `a${'😀'.repeat(1_000)}${'b'.repeat(1_500)}`;

type HostileCase = {
  readonly name: string;
  readonly text: string;
  /** What a field the visitor typed answers: the text as stored, or the field's message. */
  readonly typed: { readonly stored: string } | { readonly refused: string };
  /** What is stored where nobody typed the text (page address, attribution, spam), before any cut to length. */
  readonly kept: string;
};

const CASES: readonly HostileCase[] = [
  { name: 'a NUL character', text: 'Please call\u0000 me back', typed: { refused: M.unsavableCharacter }, kept: 'Please call me back' },
  {
    name: 'a lone high surrogate',
    text: 'Half an emoji \uD83D here',
    typed: { refused: M.unsavableCharacter },
    kept: 'Half an emoji \uFFFD here',
  },
  {
    name: 'a lone low surrogate',
    text: '\uDE00 starts this text',
    typed: { refused: M.unsavableCharacter },
    kept: '\uFFFD starts this text',
  },
  {
    name: 'bidi controls',
    text: 'Invoice \u202Efdp.exe\u202C and \u2067isolated\u2069',
    typed: { stored: 'Invoice \u202Efdp.exe\u202C and \u2067isolated\u2069' },
    kept: 'Invoice \u202Efdp.exe\u202C and \u2067isolated\u2069',
  },
  {
    name: 'emoji',
    text: 'Hello 👩🏽‍💻 from 🇧🇷 São Paulo',
    typed: { stored: 'Hello 👩🏽‍💻 from 🇧🇷 São Paulo' },
    kept: 'Hello 👩🏽‍💻 from 🇧🇷 São Paulo',
  },
  { name: 'right-to-left text', text: 'مرحبا بكم، שלום לכם', typed: { stored: 'مرحبا بكم، שלום לכם' }, kept: 'مرحبا بكم، שלום לכם' },
  {
    name: 'CR LF line breaks',
    text: 'line one\r\nline two\r\nline three',
    typed: { stored: 'line one\r\nline two\r\nline three' },
    kept: 'line one\r\nline two\r\nline three',
  },
  {
    name: 'quotes and backslashes',
    text: `O'Brien said "hi", \`ticks\` ‘’ “” \\u0000 \\"`,
    typed: { stored: `O'Brien said "hi", \`ticks\` ‘’ “” \\u0000 \\"` },
    kept: `O'Brien said "hi", \`ticks\` ‘’ “” \\u0000 \\"`,
  },
  { name: 'a text filling most of the body', text: LONG_TEXT, typed: { refused: M.messageTooLong }, kept: LONG_TEXT },
];

/** Each place a lead holds text: the body that puts `text` there, and where the stored lead keeps it. */
type Place = {
  readonly name: string;
  body(text: string): Record<string, unknown>;
  /** Characters this place keeps of an untyped text. */
  readonly maxLength?: number;
  readonly typedField?: string;
  stored(lead: LeadRecord): unknown;
};

const PLACES: readonly Place[] = [
  {
    name: 'the contact form’s message (typed)',
    body: (text) => ({ ...validLeadBody('contact'), message: text }),
    typedField: 'message',
    stored: (lead) => lead.payload.message,
  },
  {
    name: 'the page address',
    body: (text) => ({ ...validLeadBody('contact'), page_url: text }),
    maxLength: 2_000,
    stored: (lead) => lead.payload.page_url,
  },
  {
    name: 'the campaign (utm_campaign)',
    body: (text) => ({ ...validLeadBody('home'), utm_campaign: text }),
    maxLength: 500,
    stored: (lead) => [lead.payload.utm_campaign, lead.campaign],
  },
  {
    // Naming no form, spam is kept field by field as it came, made-up field names included.
    name: 'a spam lead’s name and a field it made up',
    body: (text) => ({
      ...validLeadBody('home'),
      source: 'no such form',
      website: 'filled by a bot',
      name: text,
      [`made-up ${text}`]: 'x',
    }),
    maxLength: 2_000,
    stored: (lead) => [lead.spamReason, lead.payload.name, Object.keys(lead.payload).filter((key) => key.startsWith('made-up'))],
  },
];

type Outcome = { readonly status: number; readonly answer: unknown; readonly lead: unknown };

const fixture: { current?: SiteFixture } = {};
beforeAll(async () => {
  fixture.current = await createSiteFixture();
});
afterAll(async () => {
  await fixture.current?.remove();
});

/** Every case in every place, on one engine: what was answered and what the stored lead holds. */
const outcomesByEngine = new Map<string, Map<string, Outcome>>();

/** The longest start of `text` within `maxLength` UTF-16 units that ends on a whole character. */
function cutWithoutSplitting(text: string, maxLength: number): string {
  let kept = '';
  for (const character of text) {
    if (kept.length + character.length > maxLength) break;
    kept += character;
  }
  return kept;
}

function expectedKept(hostile: HostileCase, place: Place): string {
  // Campaign words lose every invisible or control character (bidi controls, half pairs, line breaks
  // as spaces) before they are stored, as the analytics clean them: a report row cannot be spoofed.
  const kept = place.name.startsWith('the campaign') ? cleanAttributionValue(hostile.text) : hostile.kept;
  return place.maxLength === undefined ? kept : cutWithoutSplitting(kept, place.maxLength);
}

describe.each([sqliteWorkerHarness, postgresHarness])('hostile texts on $kind', (harness) => {
  announceSkip(harness);
  let database: StoreDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    if (harness.skipReason !== undefined) return;
    database = await harness.createDatabase();
    app = buildApp(fixtureConfig(fixture.current!.distDir, { ...database.serverEnv, CRM_WEBHOOK_URL: '', LEAD_RATE_LIMIT: '100000' }), {
      analytics: { store: createFakeAnalyticsStore() },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.remove();
  });

  it.skipIf(harness.skipReason !== undefined)('keeps every lead as the rules say, or refuses it with a 400 naming the field', async () => {
    const outcomes = new Map<string, Outcome>();
    for (const place of PLACES) {
      for (const hostile of CASES) {
        const label = `${hostile.name} in ${place.name}`;
        const response = await app.inject({
          method: 'POST',
          url: '/api/leads',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(place.body(hostile.text)),
        });
        const answer = response.json<{ id?: string; fields?: Record<string, string> }>();
        const lead = answer.id === undefined ? undefined : await app.leadRelay.store.getLead(answer.id);
        const stored = lead === undefined ? undefined : place.stored(lead);
        outcomes.set(label, { status: response.statusCode, answer: answer.fields ?? 'stored', lead: stored });

        if (place.typedField !== undefined && 'refused' in hostile.typed) {
          expect({ label, status: response.statusCode, fields: answer.fields }).toEqual({
            label,
            status: 400,
            fields: { [place.typedField]: hostile.typed.refused },
          });
          continue;
        }
        expect({ label, status: response.statusCode }).toEqual({ label, status: 201 });
        if (place.typedField !== undefined && 'stored' in hostile.typed)
          expect({ label, stored }).toEqual({ label, stored: hostile.typed.stored });
        if (place.typedField === undefined) {
          const kept = expectedKept(hostile, place);
          const expected = place.name.startsWith('the campaign')
            ? [kept, kept]
            : place.name.startsWith('a spam')
              ? ['honeypot', kept, [`made-up ${hostile.kept}`]]
              : kept;
          expect({ label, stored }).toEqual({ label, stored: expected });
        }
      }
    }
    outcomesByEngine.set(harness.kind, outcomes);
  });

  it.skipIf(harness.skipReason !== undefined)('names the field on the page a form sent without JavaScript gets for a NUL', async () => {
    const body = { ...validLeadBody('landing'), name: 'Ana\u0000Lima' };
    const response = await app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(Object.entries(body).map(([key, value]) => [key, String(value)])).toString(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(FORM_FIELD_LABELS.landing.name);
    expect(response.body).toContain('This text contains a hidden character that cannot be saved');
  });
});

describe('both engines', () => {
  it.skipIf(postgresHarness.skipReason !== undefined)('answer every hostile text alike and keep the same leads', () => {
    const sqlite = outcomesByEngine.get(sqliteWorkerHarness.kind);
    const postgres = outcomesByEngine.get(postgresHarness.kind);
    expect(sqlite?.size).toBe(CASES.length * PLACES.length);
    expect(postgres).toEqual(sqlite);
  });
});
