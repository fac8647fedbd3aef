// The beacon route does no work a 204 does not need, on the server's port and on the beacon
// listener's (EVENTS_PORT): no log line per answer (one line of counts instead), a refused address
// answered before its body is read, and the listener's answers the same as the port's, with what it
// took counted in the same queue.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RequestLog } from '../../back-office/logging/request-log.ts';
import { analyticsPlugin, type AnalyticsTuning } from '../plugins/analytics.ts';
import { openLiveBuild } from '../site/live-build.ts';
import { createSiteFixture, type SiteFixture } from '../testing/site-fixture.ts';
import { findFreePort } from '../testing/server-process.ts';
import { startEventsListener, type EventsListenerSettings } from './events-listener.ts';
import { ANALYTICS_THREAD_NICE_STEPS } from './thread-priority.ts';
import type { TakenBeacon } from './events-route.ts';
import { createMemoryAnalyticsStore, type MemoryAnalyticsStore } from './testing/memory-analytics-store.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const ADDRESS = '203.0.113.7';
const PAGEVIEW = JSON.stringify({ type: 'pageview', path: '/about' });

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

async function start(options: { tuning?: AnalyticsTuning; eventsListener?: EventsListenerSettings } = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const store: MemoryAnalyticsStore = createMemoryAnalyticsStore();
  app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    logController: new RequestLog(),
    trustProxy: true,
  });
  const liveBuild = await openLiveBuild({
    distDir: fixture.distDir,
    onError: (error) => {
      throw error;
    },
  });
  await app.register(analyticsPlugin, {
    store,
    siteHost: 'www.example.com',
    liveBuild,
    tuning: options.tuning,
    eventsListener: options.eventsListener,
  });
  await app.ready();
  return { app, store, lines };
}

const beacon = (target: FastifyInstance, body = PAGEVIEW, headers: Record<string, string> = {}) =>
  target.inject({
    method: 'POST',
    url: '/api/events',
    remoteAddress: ADDRESS,
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': FIREFOX, ...headers },
    body,
  });

describe('on the server’s port', () => {
  it('writes no log line per beacon, counted or refused, and one line of the answers’ counts', async () => {
    const { app, store, lines } = await start({ tuning: { rateLimit: { max: 3 } } });
    for (let i = 0; i < 3; i++) expect((await beacon(app)).statusCode).toBe(204);
    for (let i = 0; i < 5; i++) expect((await beacon(app)).statusCode).toBe(429);
    expect((await beacon(app, 'nope', { 'x-forwarded-for': '198.51.100.9' })).statusCode).toBe(400);
    expect(lines.filter((line) => line.msg === 'request completed')).toEqual([]);
    await app.close();
    expect(store.events()).toHaveLength(3);
    // The only line: the count, written as the server closes (else once a minute).
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'beacon answers since the last count', answers: { 204: 3, 400: 1, 429: 5 }, refused: 6 }),
    ]);
  });

  it('answers an address past its limit before reading the body: a body too large or of the wrong type is still a 429', async () => {
    const { app, store } = await start({ tuning: { rateLimit: { max: 1 } } });
    expect((await beacon(app)).statusCode).toBe(204);
    const tooLarge = await beacon(app, 'x'.repeat(4_096));
    expect(tooLarge.statusCode).toBe(429);
    expect(tooLarge.json()).toEqual({ error: 'rate_limited' });
    expect((await beacon(app, PAGEVIEW, { 'content-type': 'image/png' })).statusCode).toBe(429);
    // The same requests from an address within its limit are read, and refused for what they hold.
    expect((await beacon(app, 'x'.repeat(4_096), { 'x-forwarded-for': '198.51.100.9' })).statusCode).toBe(413);
    await app.close();
    expect(store.events()).toHaveLength(1);
  });
});

describe('on the beacon listener’s port (EVENTS_PORT)', () => {
  let listener: EventsListenerSettings;
  let url: string;
  beforeAll(async () => {
    listener = { host: '127.0.0.1', port: await findFreePort(), trustProxy: 1, logLevel: 'info' };
    url = `http://127.0.0.1:${listener.port}/api/events`;
  });
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': FIREFOX, 'x-forwarded-for': ADDRESS, ...headers },
      body,
    });

  it('answers as the server’s port does and counts what it took in the same queue, the last of it when the server closes', async () => {
    const { app, store, lines } = await start({ tuning: { rateLimit: { max: 3 } }, eventsListener: listener });
    const counted = await post(PAGEVIEW);
    expect(counted.status).toBe(204);
    expect(counted.headers.get('cache-control')).toBe('no-store');
    expect(counted.headers.get('x-content-type-options')).toBe('nosniff');
    expect(counted.headers.get('set-cookie')).toBeNull();
    await vi.waitFor(() => expect(store.events()).toHaveLength(1));
    // The same visitor on either port is one visit.
    expect((await beacon(app, PAGEVIEW, { 'x-forwarded-for': ADDRESS })).statusCode).toBe(204);
    await vi.waitFor(() => expect(store.events()).toHaveLength(2));
    expect(new Set(store.events().map((event) => event.visit)).size).toBe(1);

    expect((await post(PAGEVIEW, { dnt: '1', 'x-forwarded-for': '198.51.100.1' })).status).toBe(204);
    const unknown = await post(JSON.stringify({ type: 'pageview', path: '/admin' }), { 'x-forwarded-for': '198.51.100.2' });
    expect([unknown.status, await unknown.json()]).toEqual([400, { error: 'validation', message: 'The path is not a page of this site.' }]);
    const crossSite = await post(PAGEVIEW, { origin: 'https://evil.example', 'x-forwarded-for': '198.51.100.3' });
    expect([crossSite.status, await crossSite.json()]).toEqual([403, { error: 'forbidden_origin' }]);
    expect((await post('x'.repeat(4_096), { 'x-forwarded-for': '198.51.100.4' })).status).toBe(413);
    expect((await post(PAGEVIEW, { 'content-type': 'image/png', 'x-forwarded-for': '198.51.100.5' })).status).toBe(415);
    expect((await post(PAGEVIEW)).status).toBe(204);
    expect((await post(PAGEVIEW)).status).toBe(204);
    const limited = await post(PAGEVIEW);
    expect([limited.status, await limited.json()]).toEqual([429, { error: 'rate_limited' }]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fetch(url)).status).toBe(404);

    await app.close();
    expect(store.events()).toHaveLength(4);
    await expect(fetch(url)).rejects.toThrow();
    expect(lines.filter((line) => line.msg === 'request completed')).toEqual([]);
    expect(lines.filter((line) => line.endpoint === '/api/events' && line.thread === 'beacon listener')).toEqual([
      expect.objectContaining({ answers: { 204: 4, 400: 1, 403: 1, 413: 1, 415: 1, 429: 1 } }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(ADDRESS);
  });

  it('stops the server’s start with one sentence when its port is taken', async () => {
    const holder = Fastify();
    await holder.listen({ host: '127.0.0.1', port: listener.port });
    try {
      await expect(start({ eventsListener: listener })).rejects.toThrow(
        `127.0.0.1:${listener.port} is already in use: stop the other server or set EVENTS_PORT`,
      );
    } finally {
      await holder.close();
    }
  });
});

describe('a beacon listener whose thread stops', () => {
  it('is started again on the same port, and says it is not running meanwhile', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    });
    const liveBuild = await openLiveBuild({
      distDir: fixture.distDir,
      onError: (error) => {
        throw error;
      },
    });
    const taken: TakenBeacon[] = [];
    const listener = await startEventsListener({
      host: '127.0.0.1',
      port: await findFreePort(),
      trustProxy: false,
      logLevel: 'info',
      siteHost: 'www.example.com',
      liveBuild,
      take: (beacon) => void taken.push(beacon),
      log: logger.log,
      threadUrl: new URL('./testing/stopping-listener-thread.ts', import.meta.url),
    });
    try {
      const post = () =>
        fetch(`http://127.0.0.1:${listener.port}/api/events`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', 'user-agent': FIREFOX },
          body: PAGEVIEW,
        });
      expect((await post()).status).toBe(204);
      await vi.waitFor(() => expect(listener.alive()).toBe(false));
      expect(taken).toHaveLength(1);
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'the beacon listener stopped; a new one starts shortly' }));
      await vi.waitFor(() => expect(listener.alive()).toBe(true), { timeout: 5_000 });
      await vi.waitFor(async () => expect((await post()).status).toBe(204), { timeout: 5_000 });
      await vi.waitFor(() => expect(taken).toHaveLength(2));
    } finally {
      await listener.close();
      await logger.close();
    }
  });
});

describe('the beacon listener’s thread', () => {
  it.skipIf(process.platform !== 'linux')('runs below the server’s thread, so a lead is taken first when the cores are busy', async () => {
    const liveBuild = await openLiveBuild({
      distDir: fixture.distDir,
      onError: (error) => {
        throw error;
      },
    });
    const logger = Fastify();
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((task) =>
        Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]),
      );
    const lowered = () => niceOfThreads().filter((nice) => nice === os.getPriority(0) + ANALYTICS_THREAD_NICE_STEPS).length;
    const before = lowered();
    const listener = await startEventsListener({
      host: '127.0.0.1',
      port: await findFreePort(),
      trustProxy: false,
      logLevel: 'info',
      siteHost: 'www.example.com',
      liveBuild,
      take: () => {},
      log: logger.log,
    });
    try {
      expect(lowered()).toBe(before + 1);
    } finally {
      await listener.close();
      await logger.close();
    }
  });
});
