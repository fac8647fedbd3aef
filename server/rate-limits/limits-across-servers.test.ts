import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OTHER, VALUE_CAP_PER_DAY } from '../analytics/value-cap.ts';
import { VITALS_PER_VISITOR_PER_DAY } from '../analytics/vitals-cap.ts';
import { buildApp } from '../app.ts';
import { EVENTS_RATE_LIMIT } from '../plugins/analytics.ts';
import { BOOKING_CONFIRMATION_RATE_LIMIT_PER_MINUTE } from '../routes/bookings.ts';
import { RATE_LIMIT_WINDOW_MS } from '../routes/leads.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from '../testing/site-fixture.ts';
import { announceSkip, postgresHarness, type StoreDatabase } from '../testing/store-harness.ts';

// Three servers on one PostgreSQL database behind one balancer (TRUST_PROXY=1: the balancer's
// X-Forwarded-For names the visitor), one visitor's requests spread round-robin across them: the
// visitor gets each limit once, not three times. Each server is a whole app with its own pools and
// its own limiter, as separate processes would be. The measured error is printed.

announceSkip(postgresHarness);

const SERVERS = 3;
const VISITOR = '203.0.113.7';
const HOST = 'www.example.com';
const LEAD_LIMIT = 30;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the test's requests early enough in a fixed window that they all fall in it. */
async function atWindowStart(windowMs: number, neededMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await sleep(left + 20);
}

function report(what: string, accepted: number, limit: number): void {
  const error = (accepted - limit) / limit;
  console.log(
    `[shared limit] ${what}: ${accepted} accepted across ${SERVERS} servers, limit ${limit}, error ${(error * 100).toFixed(1)} %`,
  );
}

describe.skipIf(postgresHarness.skipReason !== undefined)('limits shared by several servers on one PostgreSQL database', () => {
  let fixture: SiteFixture;
  let database: StoreDatabase;
  let servers: FastifyInstance[] = [];

  beforeAll(async () => {
    fixture = await createSiteFixture();
  });
  afterAll(async () => {
    await fixture.remove();
  });
  beforeEach(async () => {
    database = await postgresHarness.createDatabase();
    const config = fixtureConfig(fixture.distDir, {
      ...database.serverEnv,
      TRUST_PROXY: '1',
      LEAD_RATE_LIMIT: String(LEAD_LIMIT),
      SITE_URL: `https://${HOST}`,
    });
    // One after the other: the first migrates, as the first server to start would.
    for (let index = 0; index < SERVERS; index += 1) {
      // The exactness of the shared count is measured here, not the deadline after which a server decides
      // alone (shared-limiter.test.ts): a test machine busy with other suites may pass 50 ms.
      const server = buildApp(config, { sharedLimits: { answerWithinMs: 2_000 } });
      await server.ready();
      servers.push(server);
    }
  });
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
    await database.remove();
  });

  /** Sends `count` requests at once, the i-th to server i mod 3, as the balancer would; answers their statuses. */
  async function roundRobin(count: number, request: (index: number) => InjectOptions): Promise<number[]> {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, index) => {
        const options = request(index);
        return servers[index % SERVERS]!.inject({
          ...options,
          remoteAddress: '127.0.0.1',
          headers: { host: HOST, 'x-forwarded-for': VISITOR, ...options.headers },
        });
      }),
    );
    return answers.map((answer) => answer.statusCode);
  }
  const accepted = (statuses: number[], status: number) => statuses.filter((code) => code === status).length;

  it('takes LEAD_RATE_LIMIT leads a minute from one visitor across all servers, and answers the rest 429 with Retry-After', async () => {
    await atWindowStart(RATE_LIMIT_WINDOW_MS, 15_000);
    const lead = (index: number): InjectOptions => ({
      method: 'POST',
      url: '/api/leads',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...validLeadBody('home'), name: `Visitor ${index}` }),
    });
    // In three waves, so each server's later requests meet counts the others made.
    const statuses = [...(await roundRobin(45, lead)), ...(await roundRobin(45, lead)), ...(await roundRobin(30, lead))];
    const stored = accepted(statuses, 201);
    report('leads', stored, LEAD_LIMIT);
    expect(Math.abs(stored - LEAD_LIMIT)).toBeLessThanOrEqual(Math.ceil(LEAD_LIMIT * 0.05));
    expect(accepted(statuses, 429)).toBe(statuses.length - stored);
    expect(await servers[0]!.leadRelay.store.listLeads()).toHaveLength(stored);

    // A refused lead's answer is the one a single server gives, with the seconds to the window's end.
    const refused = await servers[1]!.inject({
      ...lead(0),
      remoteAddress: '127.0.0.1',
      headers: { host: HOST, 'x-forwarded-for': VISITOR, 'content-type': 'application/json' },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'rate_limited' });
    const secondsLeft = Math.ceil((RATE_LIMIT_WINDOW_MS - (Date.now() % RATE_LIMIT_WINDOW_MS)) / 1_000);
    expect(Math.abs(Number(refused.headers['retry-after']) - secondsLeft)).toBeLessThanOrEqual(1);
    // Another visitor behind the same balancer has an allowance of their own.
    const other = await servers[2]!.inject({
      ...lead(1),
      remoteAddress: '127.0.0.1',
      headers: { host: HOST, 'x-forwarded-for': '198.51.100.4', 'content-type': 'application/json' },
    });
    expect(other.statusCode).toBe(201);
  });

  it('takes the beacon limit of one address across all servers', async () => {
    await atWindowStart(EVENTS_RATE_LIMIT.windowMs, 4_000);
    const beacon = (): InjectOptions => ({
      method: 'POST',
      url: '/api/events',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': FIREFOX, origin: `https://${HOST}` },
      payload: JSON.stringify({ type: 'pageview', path: '/about' }),
    });
    const statuses = [...(await roundRobin(90, beacon)), ...(await roundRobin(90, beacon))];
    const counted = accepted(statuses, 204);
    report('beacons', counted, EVENTS_RATE_LIMIT.max);
    expect(Math.abs(counted - EVENTS_RATE_LIMIT.max)).toBeLessThanOrEqual(Math.ceil(EVENTS_RATE_LIMIT.max * 0.05));
    expect(accepted(statuses, 429)).toBe(statuses.length - counted);
  });

  /** Waits until every server's queue handed its events to the store. */
  async function queuesWritten(): Promise<void> {
    await vi.waitFor(() => expect(servers.map((server) => server.analytics.queueStats?.().queued)).toEqual(servers.map(() => 0)), {
      timeout: 5_000,
    });
  }
  async function queryDatabase<R extends pg.QueryResultRow>(sql: string): Promise<R[]> {
    const client = new pg.Client({ connectionString: database.serverEnv.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query<R>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  it("keeps the day's bound of referring sites across all servers", async () => {
    const sites = VALUE_CAP_PER_DAY + 400;
    // A visitor each (the beacon limit counts per address), each from a referring site of its own.
    const statuses = await roundRobin(sites, (index) => ({
      method: 'POST',
      url: '/api/events',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent': FIREFOX,
        'x-forwarded-for': `10.0.${index >> 8}.${index & 255}`,
      },
      payload: JSON.stringify({ type: 'pageview', path: '/about', referrer: `https://site-${index}.example/` }),
    }));
    expect(accepted(statuses, 204)).toBe(sites);
    await queuesWritten();
    const [row] = await queryDatabase<{ kept: number; other: number }>(
      `SELECT count(*) FILTER (WHERE referrer_host <> '${OTHER}')::integer AS kept,
              COALESCE(SUM(visits) FILTER (WHERE referrer_host = '${OTHER}'), 0)::integer AS other
         FROM analytics_referrer_days`,
    );
    report('referring sites kept a day', row!.kept, VALUE_CAP_PER_DAY);
    expect(row).toEqual({ kept: VALUE_CAP_PER_DAY, other: sites - VALUE_CAP_PER_DAY });
  });

  it('keeps the field speed one browser adds a day across all servers', async () => {
    await atWindowStart(EVENTS_RATE_LIMIT.windowMs, 4_000);
    // Within the beacon limit of its address, more reports than one browser may add a day.
    const reports = EVENTS_RATE_LIMIT.max;
    const statuses = await roundRobin(reports, () => ({
      method: 'POST',
      url: '/api/events',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': FIREFOX },
      payload: JSON.stringify({ type: 'vitals', path: '/about', vitals: { LCP: 1800 } }),
    }));
    expect(accepted(statuses, 204)).toBe(reports);
    await vi.waitFor(async () => {
      const [row] = await queryDatabase<{ samples: number }>(
        `SELECT COALESCE(SUM(samples), 0)::integer AS samples FROM analytics_vital_days`,
      );
      expect(row!.samples).toBe(VITALS_PER_VISITOR_PER_DAY);
    });
    report('field speed reports of one browser a day', VITALS_PER_VISITOR_PER_DAY, VITALS_PER_VISITOR_PER_DAY);
  });

  it("counts the booking confirmation's limit apart from the webhooks', across all servers", async () => {
    await atWindowStart(RATE_LIMIT_WINDOW_MS, 15_000);
    const confirmation = (): InjectOptions => ({ method: 'GET', url: '/api/bookings/lead/00000000-0000-4000-8000-000000000000' });
    const statuses = await roundRobin(BOOKING_CONFIRMATION_RATE_LIMIT_PER_MINUTE + 30, confirmation);
    report('booking confirmations', statuses.length - accepted(statuses, 429), BOOKING_CONFIRMATION_RATE_LIMIT_PER_MINUTE);
    expect(accepted(statuses, 429)).toBe(30);
    // The webhooks' count is another: a webhook is refused for its signature, not for the limit.
    const webhook = await servers[0]!.inject({
      method: 'POST',
      url: '/api/bookings/cal',
      remoteAddress: '127.0.0.1',
      headers: { host: HOST, 'x-forwarded-for': VISITOR, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(webhook.statusCode).not.toBe(429);
  });
});
