// What the CRM is told about where a lead came from is what the lead itself carried, and nothing the
// analytics counted: a flood of made-up campaigns that fills the analytics' daily bound (after which
// they count new campaigns as "(other)") never reaches the CRM, and a lead is stored and delivered
// while the analytics store does not answer at all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ATTRIBUTION_QUERY_PARAMS } from '../../lead/attribution.ts';
import { VALUE_CAP_PER_DAY } from '../analytics/value-cap.ts';
import { buildApp } from '../app.ts';
import { createFakeAnalyticsStore } from '../testing/analytics-fake.ts';
import { startCrmReceiver, type CrmReceiver } from '../testing/crm-receiver.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from '../testing/site-fixture.ts';
import type { AnalyticsSetupOptions } from '../plugins/analytics-store.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const VISITOR_ADDRESS = '203.0.113.77';
const ORIGIN = 'http://localhost:4321';

let fixture: SiteFixture | undefined;
let folder: string | undefined;
let crm: CrmReceiver | undefined;
let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  await crm?.close();
  await fixture?.remove();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  app = crm = fixture = folder = undefined;
});

async function startServer(analytics: Omit<AnalyticsSetupOptions, 'config'> = {}): Promise<{ app: FastifyInstance; crm: CrmReceiver }> {
  fixture = await createSiteFixture();
  folder = await mkdtemp(path.join(tmpdir(), 'lead-attribution-'));
  crm = await startCrmReceiver();
  app = buildApp(
    fixtureConfig(fixture.distDir, {
      LEADS_DB_FILE: path.join(folder, 'leads.sqlite'),
      CRM_WEBHOOK_URL: crm.url,
      SITE_URL: ORIGIN,
      LEAD_RATE_LIMIT: '1000',
    }),
    {
      relayTuning: { pollIntervalMs: 50 },
      analytics: { ...analytics, tuning: { queue: { flushIntervalMs: 20 }, rateLimit: { max: 100_000 } } },
    },
  );
  await app.ready();
  return { app, crm };
}

function beacon(server: FastifyInstance, event: object, address: string) {
  return server.inject({
    method: 'POST',
    url: '/api/events',
    remoteAddress: address,
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER, origin: ORIGIN, host: 'localhost:4321' },
    body: JSON.stringify(event),
  });
}

/** The home form's lead from our visitor, with `attribution` as the page that sent it knew it. */
function sendLead(server: FastifyInstance, attribution: Record<string, string>) {
  const body: Record<string, unknown> = { ...validLeadBody('home') };
  for (const field of ATTRIBUTION_QUERY_PARAMS) delete body[field];
  return server.inject({
    method: 'POST',
    url: '/api/leads',
    remoteAddress: VISITOR_ADDRESS,
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER, origin: ORIGIN, host: 'localhost:4321' },
    body: JSON.stringify({ ...body, ...attribution }),
  });
}

function campaignWordsOf(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => (ATTRIBUTION_QUERY_PARAMS as readonly string[]).includes(key)));
}

describe('what the CRM is told about a lead’s campaign', () => {
  it('is only what the lead carried, even after made-up campaigns filled the analytics’ daily bound', async () => {
    const { app: server, crm: receiver } = await startServer();
    // More distinct campaigns than the analytics keep in a day, each from its own address, as a script sends them.
    const junk = VALUE_CAP_PER_DAY + 20;
    for (let index = 0; index < junk; index += 1) {
      const address = `198.18.${Math.floor(index / 250)}.${(index % 250) + 1}`;
      const sent = await beacon(
        server,
        { type: 'pageview', path: '/', campaign: { source: `junk-${index}`, name: `junk-${index}` }, forms: [] },
        address,
      );
      expect(sent.statusCode).toBe(204);
    }
    // Our visitor arrives by a real campaign once the bound is full, and is counted under "(other)".
    const real = { source: 'newsletter', medium: 'email', name: 'autumn-launch' };
    expect((await beacon(server, { type: 'pageview', path: '/', campaign: real, forms: ['home'] }, VISITOR_ADDRESS)).statusCode).toBe(204);
    await vi.waitFor(() => expect(server.analytics.queueStats?.()).toMatchObject({ queued: 0, recorded: junk + 1 }), { timeout: 5_000 });

    // Sent from the page the campaign link opened: the CRM gets exactly those words.
    expect((await sendLead(server, { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'autumn-launch' })).statusCode).toBe(201);
    // Sent after a reload, when the page no longer knows the campaign: the CRM gets no campaign words at all.
    expect((await sendLead(server, {})).statusCode).toBe(201);

    await receiver.waitForRequests(2, 5_000);
    const byCampaign = receiver.requests.map((request) => campaignWordsOf(request.json));
    expect(byCampaign).toContainEqual({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'autumn-launch' });
    expect(byCampaign).toContainEqual({});
    for (const request of receiver.requests) expect(request.body).not.toContain('(other)');
  });

  it('stores and delivers a lead without a campaign while the analytics store fails', async () => {
    const store = createFakeAnalyticsStore();
    const failing = () => Promise.reject(new Error('the analytics store is down'));
    Object.assign(store, { recordLead: failing, recordLeadDelivered: failing });
    const { app: server, crm: receiver } = await startServer({ store });

    const answer = await sendLead(server, {});
    expect(answer.statusCode).toBe(201);
    await receiver.waitForRequests(1, 5_000);
    expect(receiver.requests[0]!.json).toMatchObject({ lead_id: answer.json<{ id: string }>().id, source: 'Homepage Simple Lead Form' });
    expect(campaignWordsOf(receiver.requests[0]!.json)).toEqual({});
  });
});
