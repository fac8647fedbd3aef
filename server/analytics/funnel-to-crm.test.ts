// The whole server counting one visit, as it runs: a page's beacons through POST /api/events, the
// home form's lead through POST /api/leads, and the CRM taking it. The funnel ends where the CRM took
// the lead, counted by the server, never by the browser; the visitor's address is in no row of the
// analytics database; a visitor who sends Global Privacy Control is not counted, though their lead is
// kept and delivered as always.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { startCrmReceiver, type CrmReceiver } from '../testing/crm-receiver.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from '../testing/site-fixture.ts';
import type { AnalyticsStore } from './analytics-store.ts';
import { openAnalyticsStore } from './open-analytics-store.ts';
import { saltDay } from './visit-hash.ts';

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';
const ADDRESS = '198.51.100.203';
const ORIGIN = 'http://localhost:4321';

let fixture: SiteFixture;
let folder: string;
let crm: CrmReceiver;
let app: FastifyInstance;

beforeEach(async () => {
  fixture = await createSiteFixture();
  folder = await mkdtemp(path.join(tmpdir(), 'funnel-'));
  crm = await startCrmReceiver();
  app = buildApp(
    fixtureConfig(fixture.distDir, {
      LEADS_DB_FILE: path.join(folder, 'leads.sqlite'),
      CRM_WEBHOOK_URL: crm.url,
      CRM_RETRY_DELAYS_MS: '100,100,100,100,100,100,100,100,100,100',
      SITE_URL: ORIGIN,
    }),
    { relayTuning: { pollIntervalMs: 50 }, analytics: { tuning: { queue: { flushIntervalMs: 20 } } } },
  );
  await app.ready();
});
afterEach(async () => {
  await app.close();
  await crm.close();
  await fixture.remove();
  await rm(folder, { recursive: true, force: true });
});

const visitor = (extra: Record<string, string> = {}) => ({ 'user-agent': BROWSER, ...extra });

function beacon(event: object, headers = visitor()) {
  return app.inject({
    method: 'POST',
    url: '/api/events',
    remoteAddress: ADDRESS,
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body: JSON.stringify(event),
  });
}

function lead(fields: Record<string, string> = {}, headers = visitor()) {
  return app.inject({
    method: 'POST',
    url: '/api/leads',
    remoteAddress: ADDRESS,
    headers: { 'content-type': 'application/json', origin: ORIGIN, host: 'localhost:4321', ...headers },
    body: JSON.stringify({ ...validLeadBody('home'), ...fields }),
  });
}

const today = () => ({ from: saltDay(Date.now()), to: saltDay(Date.now()) });
const funnel = async () => (await app.analytics.store.funnel(today(), 'campaign')).find((row) => row.form === 'home');

describe('the funnel from a page view to the CRM', () => {
  it('counts each step of one visit, "delivered" only once the CRM answered 2xx', async () => {
    let crmTakes = false;
    crm.respond = () => (crmTakes ? { status: 200, body: 'ok' } : { status: 503, body: 'busy' });
    const campaign = { source: 'newsletter', medium: 'email', name: 'autumn' };
    expect((await beacon({ type: 'pageview', path: '/', campaign, forms: ['home'] })).statusCode).toBe(204);
    expect((await beacon({ type: 'form_start', path: '/', form: 'home' })).statusCode).toBe(204);
    expect((await beacon({ type: 'form_submit', path: '/', form: 'home' })).statusCode).toBe(204);
    // The page sends the campaign words the visitor arrived with.
    expect((await lead({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'autumn' })).statusCode).toBe(201);

    await vi.waitFor(async () => expect(await funnel()).toMatchObject({ viewed: 1, started: 1, submitted: 1, accepted: 1 }), {
      timeout: 5_000,
    });
    await vi.waitFor(() => expect(crm.requests.length).toBeGreaterThan(0), { timeout: 5_000 });
    expect(await funnel()).toMatchObject({ key: 'autumn', delivered: 0 });

    crmTakes = true;
    await vi.waitFor(async () => expect((await funnel())?.delivered).toBe(1), { timeout: 5_000 });
    expect(await app.analytics.store.campaignTotals(today())).toEqual([
      { source: 'newsletter', medium: 'email', name: 'autumn', click: '', visitors: 1 },
    ]);
  });

  it('keeps the campaign a lead carries itself', async () => {
    await beacon({ type: 'pageview', path: '/', campaign: { source: 'newsletter', name: 'autumn' }, forms: ['home'] });
    // The visit is counted under the campaign it arrived with before the lead is sent.
    await vi.waitFor(async () =>
      expect(await app.analytics.store.campaignTotals(today())).toMatchObject([{ source: 'newsletter', name: 'autumn', visitors: 1 }]),
    );
    expect((await lead({ utm_source: 'google', utm_campaign: 'brand' })).statusCode).toBe(201);
    await vi.waitFor(() => expect(crm.requests).toHaveLength(1), { timeout: 5_000 });
    expect(crm.requests[0]!.json).toMatchObject({ utm_source: 'google', utm_campaign: 'brand' });
    expect(crm.requests[0]!.json).not.toHaveProperty('utm_medium');
  });

  it('keeps the address out of every row of the analytics database', async () => {
    await beacon({ type: 'pageview', path: '/about', referrer: 'https://news.example.org/a', forms: [] });
    await beacon({ type: 'pageview', path: '/', forms: ['home'] });
    expect((await lead()).statusCode).toBe(201);
    await vi.waitFor(async () => expect((await funnel())?.accepted).toBe(1), { timeout: 5_000 });
    await app.close();

    const db = new DatabaseSync(path.join(folder, 'analytics.sqlite'), { readOnly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      expect(tables.map((table) => table.name)).toContain('analytics_events');
      let rows = 0;
      for (const { name } of tables) {
        for (const row of db.prepare(`SELECT * FROM "${name}"`).all()) {
          rows += 1;
          const text = JSON.stringify(row);
          expect(text).not.toContain(ADDRESS);
          expect(text).not.toContain(BROWSER);
        }
      }
      expect(rows).toBeGreaterThan(5);
    } finally {
      db.close();
    }
  });

  it('does not count a visitor who sends Global Privacy Control, and still keeps and delivers their lead', async () => {
    const private_ = visitor({ 'sec-gpc': '1' });
    expect((await beacon({ type: 'pageview', path: '/', forms: ['home'] }, private_)).statusCode).toBe(204);
    const response = await lead({}, private_);
    expect(response.statusCode).toBe(201);
    await vi.waitFor(async () => expect((await app.leadRelay.store.getLead(response.json<{ id: string }>().id))?.state).toBe('delivered'), {
      timeout: 5_000,
    });
    await app.close();
    const db = new DatabaseSync(path.join(folder, 'analytics.sqlite'), { readOnly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM analytics_events').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM analytics_leads').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('a lead the CRM took before its count was written', () => {
  it('is counted as delivered all the same, once its count is written', async () => {
    // The analytics store writes a lead's count slowly (a busy database), while the outbox polls every
    // 50 ms and the CRM takes the lead at once: the delivery arrives before the count is written.
    await app.close();
    const store = await openAnalyticsStore({ kind: 'sqlite', file: path.join(folder, 'slow-analytics.sqlite') });
    const slowStore: AnalyticsStore = {
      ...store,
      recordLead: async (counted) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        await store.recordLead(counted);
      },
    };
    app = buildApp(
      fixtureConfig(fixture.distDir, {
        LEADS_DB_FILE: path.join(folder, 'slow-leads.sqlite'),
        CRM_WEBHOOK_URL: crm.url,
        SITE_URL: ORIGIN,
      }),
      { relayTuning: { pollIntervalMs: 50 }, analytics: { store: slowStore, tuning: { queue: { flushIntervalMs: 20 } } } },
    );
    await app.ready();
    try {
      expect((await lead({ utm_campaign: 'winter' })).statusCode).toBe(201);
      await vi.waitFor(() => expect(crm.requests.length).toBe(1), { timeout: 5_000 });
      await vi.waitFor(async () => expect(await funnel()).toMatchObject({ key: 'winter', accepted: 1, delivered: 1 }), { timeout: 5_000 });
    } finally {
      await app.close();
      await store.close();
    }
  });
});
