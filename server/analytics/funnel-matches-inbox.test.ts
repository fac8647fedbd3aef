// The visit reports and the inbox tell one story. Leads sent by counted visitors, with the campaign
// words their pages carried (a visit that began with another campaign, or none, included), one of
// them filed as spam and then marked "Not spam" in the console, another left as spam: the funnel's
// "accepted" and "delivered", summed per campaign, are the inbox's leads that are not spam and those
// the CRM took, per campaign, for the same day. Meetings booked (one of them cancelled again) count
// once per lead with a meeting. The Analytics screen's summary (its key figures, each campaign's row
// of what converts, and the figures filtered to a campaign) says the same. On SQLite and on
// PostgreSQL, as the server runs.
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsSummary, ConversionRow, LeadPage } from '../../console/api-types.ts';
import { startConsoleServer, type ConsoleTestServer, HOST, ORIGIN } from '../testing/console-client.ts';
import { startCrmReceiver, type CrmReceiver } from '../testing/crm-receiver.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { postgresHarness, sqliteHarness, type StoreDatabase } from '../testing/store-harness.ts';
import { saltDay } from './visit-hash.ts';

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';
const ROI_Q4 = { utm_source: 'linkedin', utm_medium: 'cpc', utm_campaign: 'roi-q4' };
const NO_CAMPAIGN = { utm_source: '', utm_medium: '', utm_campaign: '', gclid: '' };
/** A bot's tell: the hidden field people never see, filled. */
const HONEYPOT = { website: 'https://cheap-links.example' };

type Counts = Record<string, { accepted: number; delivered: number; booked: number }>;

for (const harness of [sqliteHarness, postgresHarness]) {
  describe.skipIf(harness.skipReason !== undefined)(`the funnel against the inbox: ${harness.kind}`, () => {
    let database: StoreDatabase | undefined;
    let crm: CrmReceiver | undefined;
    let server: ConsoleTestServer | undefined;
    afterEach(async () => {
      await server?.close();
      await crm?.close();
      await database?.remove();
    });

    it('counts each lead under the campaign it carried, a lead rescued from spam as accepted, and agrees with the inbox', async () => {
      database = await harness.createDatabase();
      crm = await startCrmReceiver();
      server = await startConsoleServer({
        env: { ...database.serverEnv, CRM_WEBHOOK_URL: crm.url, CRM_RETRY_DELAYS_MS: '100,100,100', SITE_URL: ORIGIN },
        appOptions: { relayTuning: { pollIntervalMs: 50 }, analytics: { tuning: { queue: { flushIntervalMs: 20 } } } },
      });
      const { app } = server;
      const beacon = (address: string, event: object) =>
        app.inject({
          method: 'POST',
          url: '/api/events',
          remoteAddress: address,
          headers: { 'user-agent': BROWSER, 'content-type': 'text/plain;charset=UTF-8' },
          body: JSON.stringify(event),
        });
      const lead = async (address: string, form: 'home' | 'roi', fields: Record<string, string>) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/leads',
          remoteAddress: address,
          headers: { 'user-agent': BROWSER, 'content-type': 'application/json', origin: ORIGIN, host: HOST },
          body: JSON.stringify({ ...validLeadBody(form), ...fields }),
        });
        expect(response.statusCode).toBe(201);
        return response.json<{ id: string }>().id;
      };
      const roiAd = { source: 'linkedin', medium: 'cpc', name: 'roi-q4' };

      // Came by the ad, and sent the home form.
      await beacon('198.51.100.1', { type: 'pageview', path: '/', campaign: roiAd, forms: ['home'] });
      await lead('198.51.100.1', 'home', ROI_Q4);
      // Came directly first, by the ad later that day: the visit's first campaign is none.
      await beacon('198.51.100.2', { type: 'pageview', path: '/', forms: ['home'] });
      await beacon('198.51.100.2', { type: 'pageview', path: '/roi', campaign: roiAd, forms: ['roi'] });
      await lead('198.51.100.2', 'roi', ROI_Q4);
      // Came by the newsletter first, by the ad later.
      await beacon('198.51.100.3', { type: 'pageview', path: '/', campaign: { source: 'newsletter', name: 'autumn' }, forms: ['home'] });
      await lead('198.51.100.3', 'home', ROI_Q4);
      // A person filed as spam, rescued below; a bot, left as spam.
      const rescued = await lead('198.51.100.4', 'home', { ...ROI_Q4, ...HONEYPOT });
      await lead('198.51.100.5', 'home', { ...ROI_Q4, ...HONEYPOT });
      // A lead that carried no campaign.
      const direct = await lead('198.51.100.6', 'roi', NO_CAMPAIGN);
      // A lead of the ad, with a meeting that is then cancelled.
      const cancelled = await lead('198.51.100.7', 'roi', ROI_Q4);

      await server.addAccount('admin@example.com', 'admin');
      const admin = await server.signedIn('admin@example.com');
      const judged = await server.change(admin, 'POST', `/console/api/leads/${rescued}/spam`, { spam: false });
      expect(judged.statusCode).toBe(200);

      const today = saltDay(Date.now());
      // The meetings the booking provider reported, as the bookings' webhooks tell the analytics.
      const meetings = new Set([rescued, direct]);
      await vi.waitFor(async () => {
        await app.analytics.store.recordMeeting(rescued, Date.now(), true);
        await app.analytics.store.recordMeeting(direct, Date.now(), true);
        await app.analytics.store.recordMeeting(cancelled, Date.now(), true);
        expect((await app.analytics.store.funnel({ from: today, to: today }, 'none')).reduce((sum, row) => sum + row.booked, 0)).toBe(3);
      });
      await app.analytics.store.recordMeeting(cancelled, Date.now(), false);

      const inbox = async (): Promise<Counts> => {
        const response: LightMyRequestResponse = await server!.read(admin, `/console/api/leads?from=${today}&to=${today}&limit=100`);
        const counts: Counts = {};
        for (const row of response.json<LeadPage>().leads) {
          const campaign = (counts[row.campaign ?? ''] ??= { accepted: 0, delivered: 0, booked: 0 });
          if (row.state !== 'spam') campaign.accepted += 1;
          if (row.state === 'delivered') campaign.delivered += 1;
          if (meetings.has(row.id)) campaign.booked += 1;
        }
        return counts;
      };
      const funnel = async (): Promise<Counts> => {
        const counts: Counts = {};
        for (const row of await app.analytics.store.funnel({ from: today, to: today }, 'campaign')) {
          const campaign = (counts[row.key] ??= { accepted: 0, delivered: 0, booked: 0 });
          campaign.accepted += row.accepted;
          campaign.delivered += row.delivered;
          campaign.booked += row.booked;
        }
        return Object.fromEntries(Object.entries(counts).filter(([, { accepted, delivered }]) => accepted + delivered > 0));
      };
      const summary = async (filter = '') =>
        (await server!.read(admin, `/console/api/analytics/summary?from=${today}&to=${today}${filter}`)).json<AnalyticsSummary>();
      const figures = (answer: AnalyticsSummary) =>
        Object.fromEntries(
          answer.figures.filter(({ name }) => name !== 'visitors' && name !== 'visitToLead').map(({ name, value }) => [name, value]),
        );
      const total = (counts: Counts) =>
        Object.values(counts).reduce(
          (sum, row) => ({
            accepted: sum.accepted + row.accepted,
            delivered: sum.delivered + row.delivered,
            booked: sum.booked + row.booked,
          }),
          { accepted: 0, delivered: 0, booked: 0 },
        );

      await vi.waitFor(
        async () =>
          expect(await inbox()).toEqual({
            'roi-q4': { accepted: 5, delivered: 5, booked: 1 },
            '': { accepted: 1, delivered: 1, booked: 1 },
          }),
        {
          timeout: 10_000,
        },
      );
      await vi.waitFor(async () => expect(await funnel()).toEqual(await inbox()), { timeout: 5_000 });

      const counted = await inbox();
      expect(figures(await summary())).toEqual(total(counted));
      expect(figures(await summary('&campaign=roi-q4'))).toEqual(counted['roi-q4']);
      expect(figures(await summary('&campaign='))).toEqual(counted['']);
      // What converts: each campaign's rows (one per source it came with) sum to the inbox's row; a
      // campaign with visitors and no lead ("autumn") is not in the inbox.
      const byCampaign: Counts = {};
      const withLeads = (row: ConversionRow) => row.kind === 'campaign' && row.accepted + row.delivered + row.booked > 0;
      for (const row of (await summary()).conversions.filter(withLeads)) {
        const campaign = (byCampaign[row.key] ??= { accepted: 0, delivered: 0, booked: 0 });
        campaign.accepted += row.accepted;
        campaign.delivered += row.delivered;
        campaign.booked += row.booked;
      }
      expect(byCampaign).toEqual(counted);
    });
  });
}
