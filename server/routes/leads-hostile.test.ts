import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { hostileTexts } from '../../lead/testing/hostile-text.ts';
import { timeAgainstBudget } from '../../lead/testing/machine-speed.ts';
import { buildApp } from '../app.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig } from '../testing/site-fixture.ts';
import type { SiteFixture } from '../testing/site-fixture.ts';
import { LEAD_BODY_LIMIT_BYTES } from './leads.ts';

// The costliest bodies we know how to build, each as large as the relay accepts, sent over real HTTP
// while another client asks /healthz: neither may wait. Before the text cleaner was made linear,
// one such body held the only thread (pages, health checks, every other lead) for about 20 s.

// Far above a linear pass over 16 KiB (about 1 ms) and far below any stall a visitor would notice.
const ANSWER_BUDGET_MS = 100;
const FORM = 'application/x-www-form-urlencoded';

let fixture: SiteFixture;
let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  fixture = await createSiteFixture();
  app = buildApp(fixtureConfig(fixture.distDir, { LEADS_DB_FILE: ':memory:', LEAD_RATE_LIMIT: '100000', CRM_WEBHOOK_URL: '' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  origin = `http://127.0.0.1:${address.port}`;
  // Warm up the JIT and the store so the first measured request pays for nothing but itself.
  for (let round = 0; round < 5; round += 1) await send({ type: 'application/json', payload: JSON.stringify(validLeadBody('contact')) });
});
afterAll(async () => {
  await app?.close();
  await fixture?.remove();
});

type Body = { type: string; payload: string };

/** Each way a hostile text reaches the cleaner: a field of a real lead, spam, context, a form post. */
const SHAPES: ReadonlyArray<readonly [string, (text: string) => Body]> = [
  ['as a real lead’s message', (text) => json({ ...validLeadBody('contact'), message: text })],
  ['as a spam lead’s name (honeypot filled)', (text) => json({ ...validLeadBody('home'), website: 'x', name: text })],
  ['as the page address and user agent', (text) => json({ ...validLeadBody('roi'), page_url: text, user_agent: text.slice(0, 2_000) })],
  ['as an unknown form’s field, spam', (text) => json({ website: 'x', source: 'nope', note: text })],
  ['as a form post’s name', (text) => form({ ...validLeadBody('landing'), name: text })],
];

function json(body: Record<string, unknown>): Body {
  return { type: 'application/json', payload: JSON.stringify(body) };
}

function form(body: Record<string, unknown>): Body {
  return { type: FORM, payload: new URLSearchParams(Object.entries(body).map(([key, value]) => [key, String(value)])).toString() };
}

/** The hostile text as long as the body limit allows for this shape (escaping makes some bodies larger). */
function atBodyLimit(shape: (text: string) => Body, caseIndex: number): Body {
  let length = LEAD_BODY_LIMIT_BYTES;
  for (;;) {
    const [, text] = hostileTexts(length)[caseIndex]!;
    const body = shape(text);
    const bytes = Buffer.byteLength(body.payload);
    if (bytes <= LEAD_BODY_LIMIT_BYTES) return body;
    length -= Math.max(1, Math.ceil((bytes - LEAD_BODY_LIMIT_BYTES) / 2));
  }
}

async function send(body: Body): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${origin}/api/leads`, { method: 'POST', headers: { 'content-type': body.type }, body: body.payload });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

async function health(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${origin}/healthz`);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

describe('hostile text at the body limit stalls nothing', () => {
  const cases = hostileTexts(64).map(([name], index) => [name, index] as const);

  describe.each(SHAPES)('%s', (_shape, shape) => {
    it.each(cases)('%s: answered, and /healthz alongside, within the budget', async (_name, caseIndex) => {
      const body = atBodyLimit(shape, caseIndex);
      expect(Buffer.byteLength(body.payload)).toBeGreaterThan(LEAD_BODY_LIMIT_BYTES - 200);
      // The budget is for an idle machine, stretched by how busy this one is around the requests.
      const {
        result: [lead, check],
        budgetMs,
      } = await timeAgainstBudget(ANSWER_BUDGET_MS, () => Promise.all([send(body), health()]));
      expect(lead.status).toBeLessThan(500);
      expect(check.status).toBe(200);
      expect(lead.ms).toBeLessThan(budgetMs);
      expect(check.ms).toBeLessThan(budgetMs);
    });
  });
});
