import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CALLBACK_UNKNOWN_VERSION_MESSAGE } from '../../lead/callback-consent.ts';
import { buildApp } from '../app.ts';
import { startCrmReceiver, type CrmReceiver } from '../testing/crm-receiver.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, FIXTURE_CALLBACK_WORDING, fixtureConfig, type SiteFixture } from '../testing/site-fixture.ts';
import { announceSkip, postgresHarness, sqliteHarness, type StoreDatabase } from '../testing/store-harness.ts';

// "Call me back now" through POST /api/leads, on each engine: the relay stores the wording of its own
// build (never words from the browser) with its own time, the page and the version, in the lead's
// payload, and the CRM receives the same; an unticked box asks for no call-back.

const HOST = '127.0.0.1:4321';
const FORM = 'application/x-www-form-urlencoded';
const CONSENT_FIELDS = ['callback_consent_text', 'callback_consent_at', 'callback_consent_version', 'callback_consent_page'];

let fixture: SiteFixture;
beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(async () => {
  await fixture.remove();
});

for (const harness of [sqliteHarness, postgresHarness]) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`call me back now: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let crm: CrmReceiver;
    let app: FastifyInstance;

    beforeEach(async () => {
      database = await harness.createDatabase();
      crm = await startCrmReceiver();
      const config = fixtureConfig(fixture.distDir, {
        ...database.serverEnv,
        CRM_WEBHOOK_URL: crm.url,
        CRM_RETRY_DELAYS_MS: '20,20',
        LEAD_RATE_LIMIT: '1000',
        SITE_URL: 'https://www.example.com',
      });
      app = buildApp(config, { relayTuning: { pollIntervalMs: 20, crmTimeoutMs: 1_000 } });
      await app.ready();
    });
    afterEach(async () => {
      await app.close();
      await crm.close();
      await database.remove();
    });

    const postJson = (body: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/leads',
        headers: { host: HOST, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });

    it('a ticked box: the wording of the build, the relay’s time, the page and the version are stored and sent to the CRM', async () => {
      const before = Date.now();
      const body = {
        ...validLeadBody('contact'),
        callback_requested: true,
        callback_consent_version: FIXTURE_CALLBACK_WORDING.version,
        // Words a browser made up are never what is recorded.
        callback_consent_text: 'I agree to nothing at all.',
        callback_consent_at: '2001-01-01T00:00:00.000Z',
      };
      const response = await postJson(body);
      expect(response.statusCode).toBe(201);
      const { id } = response.json<{ id: string }>();

      const expected = {
        callback_requested: true,
        callback_consent_text: FIXTURE_CALLBACK_WORDING.text,
        callback_consent_version: FIXTURE_CALLBACK_WORDING.version,
        callback_consent_page: validLeadBody('contact').page_url,
      };
      const stored = await app.leadRelay.store.getLead(id);
      expect(stored?.payload).toMatchObject(expected);
      const at = Date.parse(String(stored?.payload.callback_consent_at));
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(Date.now());

      await crm.waitForRequests(1);
      expect(crm.requests[0]?.json).toMatchObject({ ...expected, callback_consent_at: stored?.payload.callback_consent_at, lead_id: id });
    });

    it('an unticked box: callback_requested is false and no agreement is recorded or sent', async () => {
      const response = await postJson({ ...validLeadBody('home'), callback_consent_version: FIXTURE_CALLBACK_WORDING.version });
      expect(response.statusCode).toBe(201);
      const { id } = response.json<{ id: string }>();
      const stored = await app.leadRelay.store.getLead(id);
      expect(stored?.payload.callback_requested).toBe(false);
      await crm.waitForRequests(1);
      const sent = crm.requests[0]?.json ?? {};
      expect(sent.callback_requested).toBe(false);
      for (const field of CONSENT_FIELDS) {
        expect(stored?.payload, field).not.toHaveProperty(field);
        expect(sent, field).not.toHaveProperty(field);
      }
    });

    it('a ticked box naming a wording the site never showed: 400 with the field named, nothing stored', async () => {
      const response = await postJson({ ...validLeadBody('landing'), callback_requested: true, callback_consent_version: 'made-up' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'validation', fields: { callback_consent_version: CALLBACK_UNKNOWN_VERSION_MESSAGE } });
      expect(await app.leadRelay.store.listLeads()).toEqual([]);
    });

    it('a form posted without JavaScript: the ticked box and its hidden version are enough', async () => {
      const fields = {
        ...validLeadBody('roi'),
        callback_requested: 'yes',
        callback_consent_version: FIXTURE_CALLBACK_WORDING.version,
      };
      const body = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])).toString();
      const response = await app.inject({
        method: 'POST',
        url: '/api/leads',
        headers: { host: HOST, 'content-type': FORM },
        payload: body,
      });
      expect(response.statusCode).toBe(303);
      await crm.waitForRequests(1);
      expect(crm.requests[0]?.json).toMatchObject({
        callback_requested: true,
        callback_consent_text: FIXTURE_CALLBACK_WORDING.text,
        callback_consent_version: FIXTURE_CALLBACK_WORDING.version,
      });
    });

    it('a form posted without JavaScript with an unknown wording: the error page names the box in words', async () => {
      const fields = { ...validLeadBody('contact'), callback_requested: 'yes', callback_consent_version: 'old' };
      const body = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])).toString();
      const response = await app.inject({
        method: 'POST',
        url: '/api/leads',
        headers: { host: HOST, 'content-type': FORM },
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('Call me back now');
      expect(response.body).toContain('Please reload the page');
      expect(response.body).not.toContain('callback_consent_version');
    });
  });
}
