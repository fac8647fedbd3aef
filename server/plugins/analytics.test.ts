// The collection endpoint: a page's beacon is counted under a visit hash (never the address), robots
// and visitors who opt out are not counted, anything else is refused with a plain reason, and the
// store is written in batches from a bounded queue the request never waits for.
import Fastify from 'fastify';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryAnalyticsStore, type MemoryAnalyticsStore } from '../analytics/testing/memory-analytics-store.ts';
import { createSiteFixture, type SiteFixture } from '../testing/site-fixture.ts';
import { openLiveBuild } from '../site/live-build.ts';
import { VITALS_PER_VISITOR_PER_DAY } from '../analytics/vitals-cap.ts';
import { analyticsPlugin, type AnalyticsTuning } from './analytics.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const ADDRESS = '203.0.113.7';
const PAGEVIEW = { type: 'pageview', path: '/about', campaign: { source: 'newsletter' }, click: 'gclid' };

let fixture: SiteFixture;
let app: FastifyInstance | undefined;
beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(() => fixture.remove());
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The fixture's build as the server follows it (it never changes here: any failure to read it fails the test). */
function liveBuildOf(distDir: string) {
  return openLiveBuild({
    distDir,
    onError: (error) => {
      throw error;
    },
  });
}

async function start(store: MemoryAnalyticsStore = createMemoryAnalyticsStore(), tuning: AnalyticsTuning = {}, now = Date.now) {
  app = Fastify({ logger: false });
  await app.register(analyticsPlugin, { store, siteHost: 'www.example.com', liveBuild: await liveBuildOf(fixture.distDir), tuning, now });
  await app.ready();
  return { app, store };
}

function send(target: FastifyInstance, body: unknown, options: Omit<InjectOptions, 'body'> & { headers?: Record<string, string> } = {}) {
  return target.inject({
    method: 'POST',
    url: '/api/events',
    remoteAddress: ADDRESS,
    ...options,
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': FIREFOX, ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Waits until the queue has handed everything to the store. */
async function flushed(target: FastifyInstance) {
  await vi.waitFor(() => expect(target.analytics.queueStats?.().queued).toBe(0));
}

describe('a counted beacon', () => {
  it('reaches the store under a visit hash, with what the page said and nothing of the address', async () => {
    const { app, store } = await start();
    const response = await send(app, { ...PAGEVIEW, referrer: 'https://news.example.org/story' });
    expect(response.statusCode).toBe(204);
    expect(response.headers['cache-control']).toBe('no-store');
    await flushed(app);
    const [event] = store.events();
    expect(event).toEqual({
      type: 'pageview',
      path: '/about',
      campaign: { source: 'newsletter' },
      click: 'gclid',
      referrerHost: 'news.example.org',
      at: expect.any(Number),
      visit: expect.stringMatching(/^[\w-]{22}$/),
    });
    expect(JSON.stringify(store.batches)).not.toContain(ADDRESS);
  });

  it('accepts JSON as well as text, and names the same address and browser as one visit and another browser as another', async () => {
    const { app, store } = await start();
    await send(app, PAGEVIEW);
    await send(app, { type: 'form_start', path: '/', form: 'home' }, { headers: { 'content-type': 'application/json' } });
    await send(app, PAGEVIEW, { headers: { 'user-agent': SAFARI } });
    await send(app, PAGEVIEW, { remoteAddress: '198.51.100.20' });
    await flushed(app);
    const visits = store.events().map((event) => event.visit);
    expect(visits).toHaveLength(4);
    expect(visits[1]).toBe(visits[0]);
    expect(new Set(visits).size).toBe(3);
  });

  it('is answered at once while the store is still writing', async () => {
    const store = createMemoryAnalyticsStore();
    const writes: Array<() => void> = [];
    const recordEvents = store.recordEvents;
    store.recordEvents = (events) => new Promise<void>((resolve) => writes.push(resolve)).then(() => recordEvents(events));
    const { app } = await start(store, { queue: { flushIntervalMs: 1 } });
    expect((await send(app, PAGEVIEW)).statusCode).toBe(204);
    await vi.waitFor(() => expect(writes).toHaveLength(1));
    expect((await send(app, PAGEVIEW)).statusCode).toBe(204);
    expect(app.analytics.queueStats?.()).toMatchObject({ queued: 2, recorded: 0 });
    writes[0]!();
    await vi.waitFor(() => expect(writes).toHaveLength(2));
    writes[1]!();
    await flushed(app);
    expect(store.events()).toHaveLength(2);
  });
});

describe('who is not counted', () => {
  it.each([
    ['Do Not Track', { dnt: '1' }],
    ['Global Privacy Control', { 'sec-gpc': '1' }],
    [
      'a headless browser',
      { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36' },
    ],
    ['curl', { 'user-agent': 'curl/8.5.0' }],
  ])('%s gets 204 and nothing is counted', async (_, headers) => {
    const { app, store } = await start();
    const response = await send(app, PAGEVIEW, { headers });
    expect(response.statusCode).toBe(204);
    expect(await app.analytics.visitOf({ headers: { 'user-agent': FIREFOX, ...headers }, ip: ADDRESS } as never)).toBeUndefined();
    await app.close();
    expect(store.events()).toEqual([]);
  });

  it('is anyone while the store cannot give the day’s salt, which is asked again a moment later; the endpoint keeps answering', async () => {
    const store = createMemoryAnalyticsStore();
    store.failWith.saltForDay = new Error('store down');
    let time = Date.parse('2026-11-27T12:00:00Z');
    const { app } = await start(store, {}, () => time);
    const request = { headers: { 'user-agent': FIREFOX }, ip: ADDRESS, log: app.log } as never;
    expect((await send(app, PAGEVIEW)).statusCode).toBe(204);
    expect(await app.analytics.visitOf(request)).toBeUndefined();
    store.failWith.saltForDay = undefined;
    expect(await app.analytics.visitOf(request)).toBeUndefined();
    time += 1_000;
    expect(await app.analytics.visitOf(request)).toMatch(/^[\w-]{22}$/);
    expect((await send(app, PAGEVIEW)).statusCode).toBe(204);
    await flushed(app);
    expect(store.events()).toHaveLength(1);
  });
});

describe('field speed', () => {
  const VITALS = { type: 'vitals', path: '/about', vitals: { LCP: 1834, INP: 96, CLS: 0.0412 } };

  it('is counted under its page and moment with its values only, apart from the visit’s events', async () => {
    const at = Date.parse('2026-11-27T12:00:00Z');
    const { app, store } = await start(undefined, {}, () => at);
    expect((await send(app, VITALS)).statusCode).toBe(204);
    expect((await send(app, { type: 'vitals', path: '/', vitals: { CLS: 0 } }, { headers: { 'user-agent': SAFARI } })).statusCode).toBe(
      204,
    );
    await app.close();
    expect(store.vitalsSamples).toEqual([
      { at, path: '/about', vitals: { LCP: 1834, INP: 96, CLS: 0.0412 } },
      { at, path: '/', vitals: { CLS: 0 } },
    ]);
    expect(store.events()).toEqual([]);
  });

  it.each([
    ['Do Not Track', { dnt: '1' }],
    ['Global Privacy Control', { 'sec-gpc': '1' }],
    ['a headless browser', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36' }],
  ])('from %s gets 204 and is not counted', async (_, headers) => {
    const { app, store } = await start();
    expect((await send(app, VITALS, { headers })).statusCode).toBe(204);
    await app.close();
    expect(store.vitalsSamples).toEqual([]);
  });

  it('counts at most a day’s reports from one browser; another browser is still counted', async () => {
    const { app, store } = await start(undefined, { rateLimit: { max: 1_000 } });
    for (let i = 0; i < VITALS_PER_VISITOR_PER_DAY + 5; i++) expect((await send(app, VITALS)).statusCode).toBe(204);
    expect((await send(app, VITALS, { headers: { 'user-agent': SAFARI } })).statusCode).toBe(204);
    await app.close();
    expect(store.vitalsSamples).toHaveLength(VITALS_PER_VISITOR_PER_DAY + 1);
  });

  it.each([
    ['a time over a minute', { LCP: 60_001 }, 'Largest Contentful Paint is a number of milliseconds from 0 to 60000.'],
    ['a negative time', { INP: -1 }, 'Interaction to Next Paint is a number of milliseconds from 0 to 60000.'],
    ['a layout score over 10', { CLS: 10.5 }, 'Cumulative Layout Shift is a number from 0 to 10.'],
    ['a value that is no number', { LCP: '900' }, 'Largest Contentful Paint is a number of milliseconds from 0 to 60000.'],
    ['no value', {}, 'Field speed holds at least one of LCP, INP and CLS.'],
    ['another measure', { LCP: 900, FID: 12 }, undefined],
  ])('is a 400 for %s', async (_, vitals, message) => {
    const { app, store } = await start();
    const response = await send(app, { type: 'vitals', path: '/about', vitals });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation', ...(message ? { message } : {}) });
    await app.close();
    expect(store.vitalsSamples).toEqual([]);
  });

  it('is a 400 for a page the site does not have, or with anything beside the page and the values', async () => {
    const { app } = await start();
    const unknown = await send(app, { ...VITALS, path: '/admin' });
    expect(unknown.json()).toEqual({ error: 'validation', message: 'The path is not a page of this site.' });
    for (const extra of [{ campaign: { source: 'newsletter' } }, { visit: 'abc' }, { form: 'home' }])
      expect((await send(app, { ...VITALS, ...extra })).statusCode).toBe(400);
  });
});

describe('a refused beacon', () => {
  it.each([
    ['not JSON', 'type=pageview', 'An event is a JSON object.'],
    ['an unknown event', { type: 'purchase', path: '/' }, undefined],
    ['a path the site does not have', { type: 'pageview', path: '/admin' }, 'The path is not a page of this site.'],
    ['a file of the site that is no page', { type: 'pageview', path: '/robots-txt' }, 'The path is not a page of this site.'],
  ])('is a 400 for %s', async (_, body, message) => {
    const { app, store } = await start();
    const response = await send(app, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation', ...(message ? { message } : {}) });
    expect(response.headers['cache-control']).toBe('no-store');
    await app.close();
    expect(store.events()).toEqual([]);
  });

  it("is a 403 from another site's page, which could otherwise inflate the counts or claim a visitor's campaign", async () => {
    const { app, store } = await start();
    const crossSite = await send(app, PAGEVIEW, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toEqual({ error: 'forbidden_origin' });
    const otherOrigin = await send(app, PAGEVIEW, { headers: { origin: 'https://evil.example' } });
    expect(otherOrigin.statusCode).toBe(403);
    const ours = await send(app, PAGEVIEW, {
      headers: { origin: 'http://localhost:4321', host: 'localhost:4321', 'sec-fetch-site': 'same-origin' },
    });
    expect(ours.statusCode).toBe(204);
    await app.close();
    expect(store.events()).toHaveLength(1);
  });

  it('is a 413 over 1 KiB and a 415 in another content type or none', async () => {
    const { app } = await start();
    const large = await send(app, { ...PAGEVIEW, referrer: `https://a.example/${'x'.repeat(1100)}` });
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ error: 'payload_too_large' });
    const form = await send(app, 'type=pageview', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toEqual({ error: 'unsupported_media_type' });
    const untyped = await app.inject({
      method: 'POST',
      url: '/api/events',
      headers: { 'user-agent': FIREFOX },
      body: JSON.stringify(PAGEVIEW),
    });
    expect(untyped.statusCode).toBe(415);
  });

  it('is a 429 with Retry-After past the limit of one address, while another address is still counted', async () => {
    const { app, store } = await start(undefined, { rateLimit: { max: 3 } });
    for (let i = 0; i < 3; i++) expect((await send(app, PAGEVIEW)).statusCode).toBe(204);
    const limited = await send(app, PAGEVIEW);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(app, PAGEVIEW, { remoteAddress: '198.51.100.20' })).statusCode).toBe(204);
    await flushed(app);
    expect(store.events()).toHaveLength(4);
  });
});

it('adds nothing to the other routes: no rate limit, no parsers, no headers', async () => {
  app = Fastify({ logger: false });
  await app.register(analyticsPlugin, {
    store: createMemoryAnalyticsStore(),
    siteHost: 'www.example.com',
    liveBuild: await liveBuildOf(fixture.distDir),
    tuning: { rateLimit: { max: 1 } },
  });
  app.post('/api/leads', async (request) => ({ body: request.body }));
  await app.ready();
  await send(app, PAGEVIEW);
  expect((await send(app, PAGEVIEW)).statusCode).toBe(429);
  const lead = await app.inject({ method: 'POST', url: '/api/leads', remoteAddress: ADDRESS, payload: { email: 'a@example.com' } });
  expect(lead.statusCode).toBe(200);
  expect(lead.json()).toEqual({ body: { email: 'a@example.com' } });
  expect(lead.headers['x-ratelimit-limit']).toBeUndefined();
  expect(lead.headers['cache-control']).toBeUndefined();
});

it('never sets a cookie', async () => {
  const { app } = await start(undefined, { rateLimit: { max: 1 } });
  const answers = [
    await send(app, PAGEVIEW),
    await send(app, PAGEVIEW),
    await send(app, PAGEVIEW, { remoteAddress: '198.51.100.1', headers: { dnt: '1' } }),
    await send(app, 'nope', { remoteAddress: '198.51.100.2' }),
    await send(app, 'x', { remoteAddress: '198.51.100.3', headers: { 'content-type': 'image/png' } }),
  ];
  expect(answers.map((answer) => answer.statusCode)).toEqual([204, 429, 204, 400, 415]);
  for (const answer of answers) expect(answer.headers['set-cookie']).toBeUndefined();
});

describe('the queue', () => {
  it('hands the store batches of at most the batch size', async () => {
    // No timer flush in between (however slow the machine): a full batch is written at once, the
    // rest when the server closes.
    const { app, store } = await start(undefined, { queue: { batchSize: 4, flushIntervalMs: 60_000 } });
    for (let i = 0; i < 10; i++) await send(app, PAGEVIEW);
    await vi.waitFor(() => expect(store.batches.map((batch) => batch.length)).toEqual([4, 4]));
    await app.close();
    expect(store.batches.map((batch) => batch.length)).toEqual([4, 4, 2]);
  });

  it('drops and counts events beyond its bound, and writes what it holds when the server closes', async () => {
    const { app, store } = await start(undefined, { queue: { maxQueued: 5, flushIntervalMs: 60_000 } });
    for (let i = 0; i < 8; i++) expect((await send(app, PAGEVIEW)).statusCode).toBe(204);
    expect(app.analytics.queueStats?.()).toEqual({ queued: 5, recorded: 0, droppedFull: 3, droppedFailed: 0 });
    expect(store.events()).toEqual([]);
    await app.close();
    expect(store.events()).toHaveLength(5);
  });

  it('tries a batch the store refuses again, then drops it, and goes on with the next', async () => {
    const store = createMemoryAnalyticsStore();
    const { app } = await start(store, { queue: { flushIntervalMs: 1, maxAttempts: 2 } });
    store.failWith.recordEvents = new Error('database is locked');
    expect((await send(app, PAGEVIEW)).statusCode).toBe(204);
    await vi.waitFor(() => expect(app.analytics.queueStats?.()).toMatchObject({ queued: 0, droppedFailed: 1 }));
    store.failWith.recordEvents = undefined;
    expect((await send(app, PAGEVIEW)).statusCode).toBe(204);
    await flushed(app);
    expect(app.analytics.queueStats?.()).toEqual({ queued: 0, recorded: 1, droppedFull: 0, droppedFailed: 1 });
  });
});
