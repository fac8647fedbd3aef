// A counted visitor's address never reaches the log. Each log line carries its time to the
// millisecond, as each counted event does: a line holding the address of a beacon (or of the page
// view, or the lead, sent in the same second) would tie that address to the visit hash and undo the
// daily salt. Checked behind a trusted proxy (the address from X-Forwarded-For) and without one (the
// socket's), at the server's default log level.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from '../testing/site-fixture.ts';
import { saltDay } from './visit-hash.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const ORIGIN = 'http://localhost:4321';
const PROXY = '127.0.0.1';
const VISITOR = '203.0.113.219';
const DIRECT_VISITOR = '198.51.100.147';

let fixture: SiteFixture;
let folder: string;
let app: FastifyInstance | undefined;
beforeAll(async () => {
  fixture = await createSiteFixture();
  folder = await mkdtemp(path.join(tmpdir(), 'address-logs-'));
});
afterAll(async () => {
  await fixture.remove();
  await rm(folder, { recursive: true, force: true });
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(trustProxy: string | undefined, name: string) {
  const lines: string[] = [];
  // The default log level (info): LOG_LEVEL unset.
  const config = fixtureConfig(fixture.distDir, {
    LOG_LEVEL: 'info',
    SITE_URL: ORIGIN,
    LEADS_DB_FILE: path.join(folder, `${name}.sqlite`),
    ANALYTICS_DB_FILE: path.join(folder, `${name}-analytics.sqlite`),
    ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }),
  });
  app = buildApp(config, {
    logStream: { write: (line) => void lines.push(line) },
    analytics: { tuning: { queue: { flushIntervalMs: 10 } } },
  });
  await app.ready();
  return { app, lines };
}

/** A visitor's whole visit: a page, its beacons (one refused), a lead; each as the server receives it. */
async function visit(target: FastifyInstance, from: { remoteAddress: string; headers?: Record<string, string> }) {
  const headers = { 'user-agent': BROWSER, ...from.headers };
  const beacon = (event: object) =>
    target.inject({
      method: 'POST',
      url: '/api/events',
      remoteAddress: from.remoteAddress,
      headers: { ...headers, 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify(event),
    });
  expect((await target.inject({ method: 'GET', url: '/', remoteAddress: from.remoteAddress, headers })).statusCode).toBe(200);
  expect((await beacon({ type: 'pageview', path: '/', campaign: { name: 'autumn' }, forms: ['home'] })).statusCode).toBe(204);
  expect((await beacon({ type: 'form_start', path: '/', form: 'home' })).statusCode).toBe(204);
  expect((await beacon({ type: 'pageview', path: '/no-such-page' })).statusCode).toBe(400);
  const lead = await target.inject({
    method: 'POST',
    url: '/api/leads',
    remoteAddress: from.remoteAddress,
    headers: { ...headers, 'content-type': 'application/json', origin: ORIGIN, host: 'localhost:4321' },
    body: JSON.stringify(validLeadBody('home')),
  });
  expect(lead.statusCode).toBe(201);
}

/** Waits until the visit was counted, so every line the counting logs is in. */
async function counted(target: FastifyInstance) {
  const today = { from: saltDay(Date.now()), to: saltDay(Date.now()) };
  await vi.waitFor(async () => expect((await target.analytics.store.funnel(today, 'none'))[0]).toMatchObject({ viewed: 1, accepted: 1 }));
}

it('logs no address of a visitor who comes through a trusted proxy, though the visit is counted', async () => {
  const { app, lines } = await start(PROXY, 'proxied');
  await visit(app, { remoteAddress: PROXY, headers: { 'x-forwarded-for': VISITOR } });
  await counted(app);
  await app.close();
  // One line for each request but the page (the site's files are logged at debug) and the beacons,
  // which are counted and logged as one line of counts (written when the server closes).
  const entries = lines.map((line) => JSON.parse(line) as { msg: string; url?: string; endpoint?: string; answers?: object });
  expect(entries.filter((entry) => entry.msg === 'request completed').map((entry) => entry.url)).toEqual(['/api/leads']);
  expect(entries.filter((entry) => entry.endpoint === '/api/events').map((entry) => entry.answers)).toEqual([{ 204: 2, 400: 1 }]);
  for (const line of lines) expect(line).not.toContain(VISITOR);
});

it('logs no address of a visitor who reaches the server directly', async () => {
  const { app, lines } = await start(undefined, 'direct');
  await visit(app, { remoteAddress: DIRECT_VISITOR });
  await counted(app);
  await app.close();
  expect(lines.some((line) => line.includes('/api/events'))).toBe(true);
  for (const line of lines) expect(line).not.toContain(DIRECT_VISITOR);
});
