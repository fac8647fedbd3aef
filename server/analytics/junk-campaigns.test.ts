// A script inventing campaigns fills the day's bound of kept campaigns (value-cap.ts) in a few
// hundred beacons. It must not push a real campaign out of the reports: a lead counts under the
// campaign it carried whatever the bound holds, and from then on that day the campaign's page views
// count under its name too, while more junk still goes to "(other)".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from '../testing/site-fixture.ts';
import { OTHER, VALUE_CAP_PER_DAY } from './value-cap.ts';
import { saltDay } from './visit-hash.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const ORIGIN = 'http://localhost:4321';
const ROI_AD = { source: 'linkedin', medium: 'cpc', name: 'roi-q4' };
const JUNK_BEACONS = VALUE_CAP_PER_DAY + 20;

let fixture: SiteFixture;
let folder: string;
let app: FastifyInstance;
beforeEach(async () => {
  fixture = await createSiteFixture();
  folder = await mkdtemp(path.join(tmpdir(), 'junk-campaigns-'));
  app = buildApp(fixtureConfig(fixture.distDir, { LEADS_DB_FILE: path.join(folder, 'leads.sqlite'), SITE_URL: ORIGIN }), {
    analytics: { tuning: { queue: { flushIntervalMs: 20 } } },
  });
  await app.ready();
});
afterEach(async () => {
  await app.close();
  await fixture.remove();
  await rm(folder, { recursive: true, force: true });
});

const beacon = (address: string, event: object) =>
  app.inject({
    method: 'POST',
    url: '/api/events',
    remoteAddress: address,
    headers: { 'user-agent': BROWSER, 'content-type': 'text/plain;charset=UTF-8' },
    body: JSON.stringify(event),
  });

const today = () => ({ from: saltDay(Date.now()), to: saltDay(Date.now()) });
const campaignNames = async () => (await app.analytics.store.campaignTotals(today())).map(({ name, visitors }) => ({ name, visitors }));

it('counts a campaign that brought a lead under its own name after junk filled the day’s bound', async () => {
  for (let index = 0; index < JUNK_BEACONS; index += 1) {
    const address = `10.0.${index >> 8}.${index & 255}`;
    expect((await beacon(address, { type: 'pageview', path: '/', campaign: { source: 'x', name: `junk-${index}` } })).statusCode).toBe(204);
  }
  // The bound is full: the real campaign's first visitor is counted as "(other)".
  expect((await beacon('198.51.100.7', { type: 'pageview', path: '/', campaign: ROI_AD, forms: ['home'] })).statusCode).toBe(204);
  await vi.waitFor(async () =>
    expect(await campaignNames()).toContainEqual({ name: OTHER, visitors: JUNK_BEACONS - VALUE_CAP_PER_DAY + 1 }),
  );

  const lead = await app.inject({
    method: 'POST',
    url: '/api/leads',
    remoteAddress: '198.51.100.7',
    headers: { 'user-agent': BROWSER, 'content-type': 'application/json', origin: ORIGIN, host: 'localhost:4321' },
    body: JSON.stringify({ ...validLeadBody('home'), utm_source: 'linkedin', utm_medium: 'cpc', utm_campaign: 'roi-q4' }),
  });
  expect(lead.statusCode).toBe(201);
  await vi.waitFor(async () =>
    expect(await app.analytics.store.funnel(today(), 'campaign')).toContainEqual(
      expect.objectContaining({ form: 'home', key: 'roi-q4', accepted: 1 }),
    ),
  );

  // The rest of the day, the campaign's visitors count under its name; new junk still does not.
  await beacon('198.51.100.8', { type: 'pageview', path: '/', campaign: ROI_AD });
  await beacon('10.9.9.9', { type: 'pageview', path: '/', campaign: { source: 'x', name: 'junk-late' } });
  await vi.waitFor(async () => expect(await campaignNames()).toContainEqual({ name: 'roi-q4', visitors: 1 }));
  const names = await campaignNames();
  expect(names).toContainEqual({ name: OTHER, visitors: JUNK_BEACONS - VALUE_CAP_PER_DAY + 2 });
  expect(names.map(({ name }) => name)).not.toContain('junk-late');
});
