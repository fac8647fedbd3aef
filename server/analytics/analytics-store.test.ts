import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeadFormId } from '../../lead/rules.ts';
import { ANALYTICS_HARNESSES, announceSkip } from '../testing/analytics-harness.ts';
import type { AnalyticsDatabase } from '../testing/analytics-harness.ts';
import { POSTGRES_MIGRATIONS } from '../store/postgres-store.ts';
import { MAX_RANGE_DAYS } from './analytics-batch.ts';
import { reportSql, summarySql } from './analytics-reports.ts';
import { FUNNEL_SPLITS, REPORT_ROW_LIMIT } from './analytics-store.ts';
import type { AnalyticsStore, CountedLead, DayRange, LeadKeys, VisitEvent, VitalsSample } from './analytics-store.ts';
import { POSTGRES_ANALYTICS_MIGRATIONS } from './postgres-analytics-store.ts';
import { SQLITE_ANALYTICS_MIGRATIONS } from './sqlite-analytics-store.ts';
import { toRouteVitals, vitalIncrements } from './vital-buckets.ts';
import { saltDay } from './visit-hash.ts';
import { openSqliteAnalyticsWorkerStore } from './sqlite-analytics-worker.ts';

// The analytics-store contract: the same tests against node:sqlite (directly and on its worker
// thread) and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest reports it
// as skipped and the reason is printed.

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** 09:00 UTC on 2 November 2026, and the days around it. */
const T1 = Date.UTC(2026, 10, 2, 9);
const T2 = T1 + DAY;
const T3 = T1 + 2 * DAY;
const DAY1 = '2026-11-02';
const DAY2 = '2026-11-03';
const DAY3 = '2026-11-04';
const ALL: DayRange = { from: '2026-11-01', to: '2026-11-05' };

type Extra = Partial<Omit<VisitEvent, 'type' | 'visit' | 'path' | 'at'>>;

const pageview = (visit: string, path: string, at: number, extra: Extra = {}): VisitEvent => ({
  type: 'pageview',
  visit,
  path,
  at,
  ...extra,
});
const bookingClick = (visit: string, path: string, at: number): VisitEvent => ({ type: 'booking_click', visit, path, at });
const formStart = (visit: string, form: LeadFormId, at: number, path = '/'): VisitEvent => ({ type: 'form_start', visit, path, at, form });
const formSubmit = (visit: string, form: LeadFormId, at: number, path = '/'): VisitEvent => ({
  type: 'form_submit',
  visit,
  path,
  at,
  form,
});

const NO_KEYS: LeadKeys = { campaign: '', source: '', entryPath: '' };
/** A lead the relay stored, not spam. */
const lead = (leadId: string, at: number, form: LeadFormId, keys: LeadKeys = NO_KEYS): CountedLead => ({
  leadId,
  at,
  form,
  keys,
  spam: false,
});

/** Every report over a range, for comparing two databases or one before and after a change. */
async function everyReport(store: AnalyticsStore, range: DayRange) {
  return {
    days: await store.dayTotals(range),
    pages: await store.pageTotals(range),
    referrers: await store.referrerTotals(range),
    campaigns: await store.campaignTotals(range),
    entries: await store.entryTotals(range),
    funnels: await Promise.all(FUNNEL_SPLITS.map((split) => store.funnel(range, split))),
  };
}

const RAW_TABLES = ['analytics_events', 'analytics_visits', 'analytics_visit_pages', 'analytics_visit_forms', 'analytics_leads'];

for (const harness of ANALYTICS_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`analytics store contract: ${harness.kind}`, () => {
    let database: AnalyticsDatabase;
    let store: AnalyticsStore;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    describe('schema', () => {
      it('migrates a new database once: reopening applies nothing twice and keeps the counts', async () => {
        await store.recordEvents([pageview('v1', '/', T1)]);
        const reopened = await database.open();
        const migrations = harness.kind === 'postgres' ? POSTGRES_ANALYTICS_MIGRATIONS : SQLITE_ANALYTICS_MIGRATIONS;
        expect((await database.rows()).analytics_schema_migrations).toHaveLength(migrations.length);
        expect((await reopened.dayTotals({ from: DAY1, to: DAY1 }))[0]?.visitors).toBe(1);
      });

      it('keeps counting a lead that was waiting for the CRM when the leads got keys of their own (migration 2)', async () => {
        const database = await harness.createDatabase();
        try {
          const old = await database.openAtVersion(1);
          await old.close();
          // As the version before counted them: "accepted" under each visit's attribution, and a row each.
          await database.execute(`
            INSERT INTO analytics_visits (day, visit, entry_path, referrer_host, source, medium, campaign, term, content, click, first_at)
              VALUES ('${DAY1}', 'v1', '/roi', '', 'linkedin', '', 'roi-q4', '', '', '', ${T1}),
                ('${DAY1}', 'v2', '/', 'news.example.org', '', '', '', '', '', '', ${T1});
            INSERT INTO analytics_leads (lead_id, day, visit, form, at) VALUES
              ('waiting-1', '${DAY1}', 'v1', 'roi', ${T1 + 1}), ('waiting-2', '${DAY1}', 'v2', 'home', ${T1 + 1}),
              ('early', '${DAY1}', 'v3', 'contact', ${T1 + 1});
            INSERT INTO analytics_visits (day, visit, entry_path, referrer_host, source, medium, campaign, term, content, click, first_at)
              VALUES ('${DAY1}', 'v3', '', '', '', '', '', '', '', '', ${T1 + 1});
            INSERT INTO analytics_visit_forms (day, visit, form, steps) VALUES ('${DAY1}', 'v3', 'contact', 8);
            INSERT INTO analytics_funnel_days (split, day, form, key, viewed, started, submitted, accepted, delivered) VALUES
              ('campaign', '${DAY1}', 'roi', 'roi-q4', 0, 0, 0, 1, 0), ('source', '${DAY1}', 'home', 'news.example.org', 0, 0, 0, 1, 0),
              ('campaign', '${DAY1}', 'contact', '', 0, 0, 0, 1, 0)
            ON CONFLICT (split, day, form, key) DO UPDATE SET accepted = excluded.accepted;`);

          const migrated = await database.open();
          // A visit whose lead came before its first beacon still takes that beacon's attribution.
          await migrated.recordEvents([pageview('v3', '/contact', T1 + 2, { campaign: { name: 'spring' }, forms: ['contact'] })]);
          expect(await migrated.entryTotals(ALL)).toContainEqual({ path: '/contact', visitors: 1 });
          expect((await migrated.funnel(ALL, 'campaign')).filter((row) => row.form === 'contact')).toEqual([
            { form: 'contact', key: 'spring', viewed: 1, started: 0, submitted: 0, accepted: 1, delivered: 0, booked: 0 },
          ]);
          await migrated.recordLeadDelivered('waiting-1', T2);
          await migrated.recordLeadDelivered('waiting-2', T2);
          expect(await migrated.funnel(ALL, 'campaign')).toContainEqual(
            expect.objectContaining({ form: 'roi', key: 'roi-q4', accepted: 1, delivered: 1 }),
          );
          expect(await migrated.funnel(ALL, 'source')).toContainEqual(
            expect.objectContaining({ form: 'home', key: 'news.example.org', accepted: 1, delivered: 1 }),
          );
        } finally {
          await database.remove();
        }
      });

      it('says from which day the summary holds every count: the day after a store that had counted was migrated, else every day', async () => {
        expect(await store.summaryCountedFrom()).toBeNull();
        const database = await harness.createDatabase();
        try {
          await (await database.openAtVersion(2)).close();
          await database.execute(`INSERT INTO analytics_entry_days (day, entry_path, visits) VALUES ('${DAY1}', '/', 1)`);
          const before = new Date(Date.now() + DAY).toISOString().slice(0, 10);
          const migrated = await database.open();
          const after = new Date(Date.now() + DAY).toISOString().slice(0, 10);
          // The day after the migration ran (UTC): the roll-ups missed the part of that day counted before it.
          expect([before, after]).toContain(await migrated.summaryCountedFrom());
        } finally {
          await database.remove();
        }
      });

      it('has no column for a visitor’s address or browser: only the visit hash is kept', async () => {
        const columns = Object.values(await database.columns()).flat();
        expect(columns).toContain('visit');
        for (const kept of columns) expect(kept).not.toMatch(/address|^ip$|agent|^referrer$/);
      });

      it.skipIf(harness.kind !== 'postgres')('lives beside the lead store in its database, each with its own schema version', async () => {
        const analyticsTables = Object.keys(await database.rows()).sort();
        expect(analyticsTables.filter((table) => !table.startsWith('analytics_'))).toEqual([]);
        const leads = await database.openLeadStore!();
        await store.recordEvents([pageview('v1', '/', T1)]);
        expect(await leads.schemaVersion()).toBe(POSTGRES_MIGRATIONS.length);
        const rows = await database.rows();
        expect(rows.analytics_schema_migrations).toHaveLength(POSTGRES_ANALYTICS_MIGRATIONS.length);
        expect(rows.schema_migrations).toHaveLength(POSTGRES_MIGRATIONS.length);
        expect(
          Object.keys(rows)
            .filter((table) => table.startsWith('analytics_'))
            .sort(),
        ).toEqual(analyticsTables);
      });
    });

    describe('attribution', () => {
      it('names a visit after its first event of the day; later events, in the batch or after, do not change it', async () => {
        await store.recordEvents([
          pageview('v1', '/pricing', T1, {
            referrerHost: 'news.example.org',
            campaign: { source: 'newsletter', medium: 'email', name: 'spring' },
            click: 'gclid',
          }),
          pageview('v1', '/about', T1 + 1_000, { referrerHost: 'other.example.com', campaign: { source: 'ads', name: 'autumn' } }),
        ]);
        await store.recordEvents([pageview('v1', '/', T1 + 2_000, { referrerHost: 'third.example.net', campaign: { name: 'winter' } })]);

        expect(await store.entryTotals(ALL)).toEqual([{ path: '/pricing', visitors: 1 }]);
        expect(await store.referrerTotals(ALL)).toEqual([{ host: 'news.example.org', visitors: 1 }]);
        expect(await store.campaignTotals(ALL)).toEqual([
          { source: 'newsletter', medium: 'email', name: 'spring', click: 'gclid', visitors: 1 },
        ]);
      });

      it('takes the earliest event of a batch as the first, whatever order the batch lists them in', async () => {
        await store.recordEvents([
          pageview('v1', '/later', T1 + 5_000, { campaign: { source: 'later' } }),
          pageview('v1', '/first', T1, { campaign: { source: 'first' } }),
        ]);
        expect(await store.entryTotals(ALL)).toEqual([{ path: '/first', visitors: 1 }]);
        expect((await store.campaignTotals(ALL)).map((row) => row.source)).toEqual(['first']);
      });

      it('gives a visit that began with a click its entry page, and no referrer from a page view after it', async () => {
        await store.recordEvents([
          bookingClick('v1', '/contact', T1),
          pageview('v1', '/', T1 + 1_000, { referrerHost: 'news.example.org' }),
        ]);
        expect(await store.entryTotals(ALL)).toEqual([{ path: '/contact', visitors: 1 }]);
        expect(await store.referrerTotals(ALL)).toEqual([{ host: '', visitors: 1 }]);
      });
    });

    describe('visitors and page views', () => {
      it('counts every page view, and a page’s visitor once per visit and day', async () => {
        await store.recordEvents([pageview('v1', '/', T1), pageview('v1', '/', T1 + 1_000), pageview('v2', '/', T1 + 2_000)]);
        await store.recordEvents([
          pageview('v1', '/', T1 + 3_000),
          bookingClick('v1', '/', T1 + 4_000),
          pageview('v1', '/about', T1 + 5_000),
        ]);

        expect(await store.pageTotals(ALL)).toEqual([
          { path: '/', visitors: 2, pageviews: 4, bookingClicks: 1 },
          { path: '/about', visitors: 1, pageviews: 1, bookingClicks: 0 },
        ]);
        expect((await store.dayTotals({ from: DAY1, to: DAY1 }))[0]).toEqual({ day: DAY1, visitors: 2, pageviews: 5, bookingClicks: 1 });
      });

      it('counts two events of one new visit in one batch as one visit, named by the first', async () => {
        await store.recordEvents([
          pageview('v1', '/a', T1, { campaign: { source: 'first' } }),
          pageview('v1', '/b', T1 + 1_000, { campaign: { source: 'second' } }),
          pageview('v1', '/a', T1 + 2_000),
        ]);
        expect((await store.dayTotals({ from: DAY1, to: DAY1 }))[0]?.visitors).toBe(1);
        expect(await store.entryTotals(ALL)).toEqual([{ path: '/a', visitors: 1 }]);
        expect(await store.campaignTotals(ALL)).toEqual([{ source: 'first', medium: '', name: '', click: '', visitors: 1 }]);
        expect(await store.pageTotals(ALL)).toEqual([
          { path: '/a', visitors: 1, pageviews: 2, bookingClicks: 0 },
          { path: '/b', visitors: 1, pageviews: 1, bookingClicks: 0 },
        ]);
      });

      it('counts the same visit name on two days as two visits', async () => {
        await store.recordEvents([pageview('same', '/', T1), pageview('same', '/', T2)]);
        const days = await store.dayTotals({ from: DAY1, to: DAY2 });
        expect(days.map((day) => day.visitors)).toEqual([1, 1]);
        expect((await store.pageTotals(ALL))[0]).toMatchObject({ path: '/', visitors: 2, pageviews: 2 });
      });

      it('lists every day of the range, oldest first, with zeros for days without visits', async () => {
        await store.recordEvents([pageview('v1', '/', T1), pageview('v2', '/', T3), bookingClick('v2', '/', T3 + 1)]);
        expect(await store.dayTotals({ from: '2026-11-01', to: '2026-11-05' })).toEqual([
          { day: '2026-11-01', visitors: 0, pageviews: 0, bookingClicks: 0 },
          { day: DAY1, visitors: 1, pageviews: 1, bookingClicks: 0 },
          { day: DAY2, visitors: 0, pageviews: 0, bookingClicks: 0 },
          { day: DAY3, visitors: 1, pageviews: 1, bookingClicks: 1 },
          { day: '2026-11-05', visitors: 0, pageviews: 0, bookingClicks: 0 },
        ]);
      });

      it('sums only the days of the range', async () => {
        await store.recordEvents([pageview('v1', '/a', T1), pageview('v2', '/b', T2), pageview('v3', '/c', T3)]);
        expect((await store.pageTotals({ from: DAY2, to: DAY2 })).map((row) => row.path)).toEqual(['/b']);
        expect((await store.entryTotals({ from: DAY2, to: DAY3 })).map((row) => row.path)).toEqual(['/b', '/c']);
      });
    });

    describe('funnels', () => {
      it('counts each step once per visit, and only the steps that happened', async () => {
        // The repeats come in later batches as well as in the same one.
        await store.recordEvents([
          pageview('v1', '/', T1, { forms: ['home', 'contact'] }),
          pageview('v1', '/', T1 + 1_000, { forms: ['home'] }),
          formStart('v1', 'home', T1 + 2_000),
        ]);
        await store.recordEvents([pageview('v1', '/', T1 + 3_000, { forms: ['home', 'contact'] }), formStart('v1', 'home', T1 + 4_000)]);
        await store.recordEvents([formSubmit('v1', 'home', T1 + 5_000), formSubmit('v1', 'home', T1 + 6_000)]);
        await store.recordEvents([
          formSubmit('v1', 'home', T1 + 7_000),
          pageview('v2', '/', T1 + 8_000, { forms: ['home'] }),
          // A submit whose start beacon never came counts as submitted, not as started.
          formSubmit('v2', 'home', T1 + 9_000),
        ]);

        expect(await store.funnel(ALL, 'none')).toEqual([
          { form: 'home', key: '', viewed: 2, started: 1, submitted: 2, accepted: 0, delivered: 0, booked: 0 },
          { form: 'contact', key: '', viewed: 1, started: 0, submitted: 0, accepted: 0, delivered: 0, booked: 0 },
        ]);
      });

      it('counts an accepted lead once, and delivered on the lead’s day under its own keys, only once the CRM took it', async () => {
        await store.recordEvents([pageview('v1', '/landing', T1, { campaign: { source: 'ads', name: 'spring' }, forms: ['landing'] })]);
        await store.recordLead(lead('lead-1', T1 + HOUR, 'landing', { campaign: 'spring', source: 'ads', entryPath: '/landing' }));
        await store.recordLead(lead('lead-1', T1 + HOUR, 'landing', { campaign: 'spring', source: 'ads', entryPath: '/landing' }));
        const accepted = { form: 'landing', key: 'spring', viewed: 1, started: 0, submitted: 0, accepted: 1, delivered: 0, booked: 0 };
        expect(await store.funnel(ALL, 'campaign')).toEqual([accepted]);

        await store.recordLeadDelivered('lead-1', T3);
        await store.recordLeadDelivered('lead-1', T3 + HOUR);
        expect(await store.funnel({ from: DAY1, to: DAY1 }, 'campaign')).toEqual([{ ...accepted, delivered: 1 }]);
        expect(await store.funnel({ from: DAY3, to: DAY3 }, 'campaign')).toEqual([]);
      });

      it('counts each lead under the campaign, source and landing page it carried, not its visit’s first campaign', async () => {
        await store.recordEvents([
          pageview('v1', '/', T1, { campaign: { source: 'newsletter', name: 'autumn' } }),
          pageview('v1', '/roi', T1 + 1_000, { campaign: { source: 'linkedin', name: 'roi-q4' }, forms: ['roi'] }),
        ]);
        await store.recordLead(lead('lead-1', T1 + 2_000, 'roi', { campaign: 'roi-q4', source: 'linkedin', entryPath: '/roi' }));
        await store.recordLead(lead('lead-2', T1 + 3_000, 'roi', { campaign: 'roi-q4', source: 'linkedin', entryPath: '/roi' }));
        await store.recordLead(lead('lead-3', T1 + 4_000, 'roi', { campaign: '', source: '', entryPath: '' }));
        await store.recordLeadDelivered('lead-2', T1 + 5_000);

        const steps = async (split: (typeof FUNNEL_SPLITS)[number]) =>
          (await store.funnel(ALL, split)).map(({ key, viewed, accepted, delivered }) => ({ key, viewed, accepted, delivered }));
        // The visit began with "autumn": its page view of the ROI form is counted there; its leads where they said.
        expect(await steps('campaign')).toEqual([
          { key: 'autumn', viewed: 1, accepted: 0, delivered: 0 },
          { key: 'roi-q4', viewed: 0, accepted: 2, delivered: 1 },
          { key: '', viewed: 0, accepted: 1, delivered: 0 },
        ]);
        expect(await steps('source')).toEqual([
          { key: 'newsletter', viewed: 1, accepted: 0, delivered: 0 },
          { key: 'linkedin', viewed: 0, accepted: 2, delivered: 1 },
          { key: '', viewed: 0, accepted: 1, delivered: 0 },
        ]);
        expect(await steps('none')).toEqual([{ key: '', viewed: 1, accepted: 3, delivered: 1 }]);
      });

      it('counts spam as accepted only once judged not spam or taken by the CRM, and takes an acceptance back when judged spam', async () => {
        const keys = { campaign: 'roi-q4', source: 'linkedin', entryPath: '/roi' };
        await store.recordLead({ ...lead('spam-1', T1, 'roi', keys), spam: true });
        await store.recordLead({ ...lead('spam-2', T1, 'roi', keys), spam: true });
        await store.recordLead(lead('real-1', T1, 'roi', keys));
        const counts = async () =>
          (await store.funnel(ALL, 'campaign')).map(({ key, accepted, delivered }) => ({ key, accepted, delivered }));
        expect(await counts()).toEqual([{ key: 'roi-q4', accepted: 1, delivered: 0 }]);

        await store.recordLeadJudged('spam-1', false);
        await store.recordLeadJudged('spam-1', false);
        expect(await counts()).toEqual([{ key: 'roi-q4', accepted: 2, delivered: 0 }]);
        await store.recordLeadDelivered('spam-1', T2);
        expect(await counts()).toEqual([{ key: 'roi-q4', accepted: 2, delivered: 1 }]);

        // Sent on from spam by an operator without a judgement: the CRM took it, so it was accepted.
        await store.recordLeadDelivered('spam-2', T2);
        expect(await counts()).toEqual([{ key: 'roi-q4', accepted: 3, delivered: 2 }]);

        await store.recordLeadJudged('real-1', true);
        await store.recordLeadJudged('real-1', true);
        expect(await counts()).toEqual([{ key: 'roi-q4', accepted: 2, delivered: 2 }]);
        // Nothing to judge once the CRM has it, or for a lead it never counted.
        await store.recordLeadJudged('spam-1', true);
        await store.recordLeadJudged('never-counted', false);
        expect(await counts()).toEqual([{ key: 'roi-q4', accepted: 2, delivered: 2 }]);
      });

      it('ignores a delivery of a lead it never counted', async () => {
        await store.recordEvents([pageview('v1', '/', T1, { forms: ['home'] })]);
        const before = await everyReport(store, ALL);
        await store.recordLeadDelivered('never-accepted', T1 + HOUR);
        expect(await everyReport(store, ALL)).toEqual(before);
      });

      it('counts a lead whose visit’s beacons never came, and makes no visit of it', async () => {
        await store.recordLead(lead('lead-1', T1, 'contact', { campaign: '', source: '', entryPath: '/contact' }));
        await store.recordLeadDelivered('lead-1', T1 + HOUR);
        expect(await store.funnel(ALL, 'entry')).toEqual([
          { form: 'contact', key: '/contact', viewed: 0, started: 0, submitted: 0, accepted: 1, delivered: 1, booked: 0 },
        ]);
        expect((await store.dayTotals({ from: DAY1, to: DAY1 }))[0]?.visitors).toBe(0);
      });

      it('keys each split by campaign name, source (else referring site), or entry page', async () => {
        await store.recordEvents([
          pageview('v1', '/a', T1, {
            referrerHost: 'news.example.org',
            campaign: { source: 'newsletter', name: 'spring' },
            forms: ['home'],
          }),
          pageview('v2', '/b', T1 + 1, { referrerHost: 'blog.example.net', forms: ['home'] }),
          pageview('v3', '/a', T1 + 2, { forms: ['home'] }),
          formStart('v3', 'home', T1 + 3, '/a'),
        ]);
        const keys = async (split: (typeof FUNNEL_SPLITS)[number]) =>
          (await store.funnel(ALL, split)).map(({ key, viewed, started }) => ({ key, viewed, started }));

        expect(await keys('none')).toEqual([{ key: '', viewed: 3, started: 1 }]);
        expect(await keys('campaign')).toEqual([
          { key: '', viewed: 2, started: 1 },
          { key: 'spring', viewed: 1, started: 0 },
        ]);
        expect(await keys('source')).toEqual([
          { key: '', viewed: 1, started: 1 },
          { key: 'blog.example.net', viewed: 1, started: 0 },
          { key: 'newsletter', viewed: 1, started: 0 },
        ]);
        expect(await keys('entry')).toEqual([
          { key: '/a', viewed: 2, started: 1 },
          { key: '/b', viewed: 1, started: 0 },
        ]);
      });
    });

    describe('meetings booked', () => {
      const ROI_Q4: LeadKeys = { campaign: 'roi-q4', source: 'linkedin', entryPath: '/roi' };
      const booked = async (split: 'campaign' | 'none' = 'campaign') =>
        (await store.funnel(ALL, split)).map(({ key, accepted, delivered, booked }) => ({ key, accepted, delivered, booked }));

      it('counts a meeting once on the lead’s day under its keys, before or after the CRM took it, and takes it back when cancelled', async () => {
        await store.recordLead(lead('lead-1', T1, 'roi', ROI_Q4));
        await store.recordLead(lead('lead-2', T1 + HOUR, 'roi', ROI_Q4));
        await store.recordLeadDelivered('lead-1', T1 + 1_000);
        // Booked two days later, then rescheduled: still one meeting, on the lead's day.
        await store.recordMeeting('lead-1', T3, true);
        await store.recordMeeting('lead-1', T3 + HOUR, true);
        // Booked before the CRM took it.
        await store.recordMeeting('lead-2', T1 + 2 * HOUR, true);
        expect(await booked()).toEqual([{ key: 'roi-q4', accepted: 2, delivered: 1, booked: 2 }]);
        expect(await store.funnel({ from: DAY3, to: DAY3 }, 'campaign')).toEqual([]);
        await store.recordLeadDelivered('lead-2', T1 + 3 * HOUR);
        expect(await booked()).toEqual([{ key: 'roi-q4', accepted: 2, delivered: 2, booked: 2 }]);

        await store.recordMeeting('lead-2', T3, false);
        await store.recordMeeting('lead-2', T3, false);
        expect(await booked()).toEqual([{ key: 'roi-q4', accepted: 2, delivered: 2, booked: 1 }]);
        expect(await store.summaryDays(ALL, { campaign: 'roi-q4' })).toEqual([
          { day: DAY1, visitors: 0, accepted: 2, delivered: 2, booked: 1 },
        ]);
        // Booked again after the cancellation.
        await store.recordMeeting('lead-2', T3 + DAY, true);
        expect(await booked('none')).toEqual([{ key: '', accepted: 2, delivered: 2, booked: 2 }]);
      });

      it('ignores a meeting of a lead it never counted, and a judgement of a lead the CRM took', async () => {
        await store.recordMeeting('never-counted', T1, true);
        await store.recordLead(lead('lead-1', T1, 'roi', ROI_Q4));
        await store.recordLeadDelivered('lead-1', T1 + 1_000);
        await store.recordLeadJudged('lead-1', true);
        expect(await booked()).toEqual([{ key: 'roi-q4', accepted: 1, delivered: 1, booked: 0 }]);
        expect(await store.summaryDays(ALL, {})).toEqual([{ day: DAY1, visitors: 0, accepted: 1, delivered: 1, booked: 0 }]);
      });

      it('refuses a meeting whose time is not a moment', async () => {
        await store.recordLead(lead('lead-1', T1, 'roi', ROI_Q4));
        await expect(store.recordMeeting('lead-1', Number.NaN, true)).rejects.toThrow(/moment/);
        expect(await booked()).toEqual([{ key: 'roi-q4', accepted: 1, delivered: 0, booked: 0 }]);
      });
    });

    describe('summary', () => {
      /** Two visits from a campaign on the ROI page, one direct on the home page, one from a referring site on day 3. */
      async function seed() {
        await store.recordEvents([
          pageview('v1', '/roi', T1, { campaign: { source: 'linkedin', name: 'roi-q4' }, forms: ['roi'] }),
          pageview('v2', '/roi', T1 + 1_000, { campaign: { source: 'linkedin', name: 'roi-q4' }, forms: ['roi'] }),
          pageview('v2', '/', T1 + 2_000, { forms: ['home'] }),
          pageview('v3', '/', T1 + 3_000, { forms: ['home'] }),
          pageview('v4', '/about', T3, { referrerHost: 'news.example.org' }),
        ]);
        await store.recordLead(lead('roi-1', T1 + 5_000, 'roi', { campaign: 'roi-q4', source: 'linkedin', entryPath: '/roi' }));
        await store.recordLead(lead('roi-2', T1 + 6_000, 'roi', { campaign: 'roi-q4', source: 'linkedin', entryPath: '/roi' }));
        await store.recordLead(lead('home-1', T1 + 7_000, 'home', { campaign: '', source: '', entryPath: '/' }));
        await store.recordLead({ ...lead('spam-1', T1 + 8_000, 'home', { campaign: '', source: '', entryPath: '/' }), spam: true });
        await store.recordLeadDelivered('roi-1', T1 + 9_000);
        await store.recordLeadDelivered('home-1', T1 + 9_000);
        await store.recordMeeting('roi-1', T2, true);
      }

      it('sums visitors and the leads’ steps per day, leaving out days with nothing', async () => {
        await seed();
        expect(await store.summaryDays(ALL, {})).toEqual([
          { day: DAY1, visitors: 3, accepted: 3, delivered: 2, booked: 1 },
          { day: DAY3, visitors: 1, accepted: 0, delivered: 0, booked: 0 },
        ]);
      });

      it('narrows every number to a campaign, a source, an entry page or a form, and to their combinations', async () => {
        await seed();
        const day1 = (visitors: number, accepted: number, delivered: number, booked: number) => [
          { day: DAY1, visitors, accepted, delivered, booked },
        ];
        expect(await store.summaryDays(ALL, { campaign: 'roi-q4' })).toEqual(day1(2, 2, 1, 1));
        // '' is "no campaign": the direct visit, the visit from a referring site and the home lead.
        expect(await store.summaryDays(ALL, { campaign: '' })).toEqual([
          ...day1(1, 1, 1, 0),
          { day: DAY3, visitors: 1, accepted: 0, delivered: 0, booked: 0 },
        ]);
        expect(await store.summaryDays(ALL, { source: 'news.example.org' })).toEqual([
          { day: DAY3, visitors: 1, accepted: 0, delivered: 0, booked: 0 },
        ]);
        expect(await store.summaryDays(ALL, { page: '/' })).toEqual(day1(1, 1, 1, 0));
        // With a form, the visitors are the visits that viewed it: v2 saw the home form on its second page.
        expect(await store.summaryDays(ALL, { form: 'home' })).toEqual(day1(2, 1, 1, 0));
        expect(await store.summaryDays(ALL, { form: 'home', campaign: 'roi-q4' })).toEqual(day1(1, 0, 0, 0));
        expect(await store.summaryDays(ALL, { page: '/roi', source: 'linkedin', campaign: 'roi-q4', form: 'roi' })).toEqual(
          day1(2, 2, 1, 1),
        );
        expect(await store.summaryDays(ALL, { page: '/roi', campaign: '' })).toEqual([]);
      });

      it('sums a long range by month, whole months and the days at its ends alike, as it sums it by day', async () => {
        // Visits and leads on either side of month ends: 30 September, 1 and 31 October, 1 November.
        const at = (day: string) => Date.parse(`${day}T10:00:00Z`);
        const days = ['2026-09-30', '2026-10-01', '2026-10-31', '2026-11-01', '2026-11-02'];
        for (const [index, day] of days.entries()) {
          await store.recordEvents([
            pageview(`v${index}`, '/roi', at(day), { campaign: { source: 'linkedin', name: 'roi-q4' }, forms: ['roi'] }),
          ]);
          await store.recordLead(lead(`lead-${index}`, at(day) + 1, 'roi', { campaign: 'roi-q4', source: 'linkedin', entryPath: '/roi' }));
          if (index % 2 === 0) await store.recordLeadDelivered(`lead-${index}`, at(day) + 2);
        }
        const range = { from: '2026-09-30', to: '2026-11-01' };
        const counts = (visitors: number, accepted: number, delivered: number) => ({ visitors, accepted, delivered, booked: 0 });
        for (const filter of [{}, { campaign: 'roi-q4' }, { page: '/roi', source: 'linkedin' }, { form: 'roi' }]) {
          expect(await store.summaryMonths(range, filter)).toEqual([
            { day: '2026-09-30', ...counts(1, 1, 1) },
            { day: '2026-10-01', ...counts(2, 2, 1) },
            { day: '2026-11-01', ...counts(1, 1, 0) },
          ]);
          expect(await store.conversions(range, filter)).toEqual({
            campaigns: [{ campaign: 'roi-q4', source: 'linkedin', ...counts(4, 4, 2) }],
            entries: [{ entryPath: '/roi', ...counts(4, 4, 2) }],
          });
        }
        expect(await store.summaryMonths(range, { campaign: '' })).toEqual([]);
      });

      it('ranks what converts by leads the CRM took, then meetings, under the filter', async () => {
        await seed();
        const row = (visitors: number, accepted: number, delivered: number, booked: number) => ({ visitors, accepted, delivered, booked });
        expect(await store.conversions(ALL, {})).toEqual({
          campaigns: [
            { campaign: 'roi-q4', source: 'linkedin', ...row(2, 2, 1, 1) },
            { campaign: '', source: '', ...row(1, 1, 1, 0) },
            { campaign: '', source: 'news.example.org', ...row(1, 0, 0, 0) },
          ],
          entries: [
            { entryPath: '/roi', ...row(2, 2, 1, 1) },
            { entryPath: '/', ...row(1, 1, 1, 0) },
            { entryPath: '/about', ...row(1, 0, 0, 0) },
          ],
        });
        expect(await store.conversions(ALL, { form: 'home' })).toEqual({
          campaigns: [
            { campaign: '', source: '', ...row(1, 1, 1, 0) },
            { campaign: 'roi-q4', source: 'linkedin', ...row(1, 0, 0, 0) },
          ],
          entries: [
            { entryPath: '/', ...row(1, 1, 1, 0) },
            { entryPath: '/roi', ...row(1, 0, 0, 0) },
          ],
        });
        expect(await store.conversions({ from: DAY3, to: DAY3 }, { campaign: 'roi-q4' })).toEqual({ campaigns: [], entries: [] });
      });

      it('reads every summary query through an index of its roll-up, whatever the filter', async () => {
        await seed();
        const filters = [{}, { campaign: 'roi-q4' }, { page: '/' }, { form: 'home' }, { campaign: '', page: '/', source: '' }];
        for (const filter of filters) {
          const dialect = harness.kind === 'postgres' ? 'postgres' : 'sqlite';
          const days = summarySql(dialect, filter, 'day');
          const months = summarySql(dialect, filter, 'month');
          const MONTHS = { from: '2026-01', to: '2026-12' };
          for (const query of [
            days.days(ALL),
            days.campaigns(ALL),
            days.entries(ALL),
            months.days(MONTHS),
            months.campaigns(MONTHS),
            months.entries(MONTHS),
          ]) {
            const plan = await database.explain(query.sql, query.params);
            if (harness.kind === 'postgres') {
              expect(plan).toMatch(/Index (Only )?Scan using analytics_summary_\w+/);
              expect(plan).not.toMatch(/Seq Scan/);
            } else {
              expect(plan).toMatch(
                /SEARCH analytics_summary_\w+ USING (PRIMARY KEY|(COVERING )?INDEX analytics_summary_(days|months)_\w+) \(/,
              );
              expect(plan).not.toMatch(/SCAN analytics_summary/);
            }
          }
        }
        // Thirty plans: a busy database takes its time over them.
      }, 60_000);
    });

    describe('report lists', () => {
      it('list the largest first, ties by key, at most REPORT_ROW_LIMIT rows', async () => {
        const paths = Array.from({ length: REPORT_ROW_LIMIT + 5 }, (_, index) => `/p-${String(index).padStart(3, '0')}`);
        // Page i gets (i * 7) % 4 + 1 views, from one visit each, so counts repeat and ties need the key.
        const views = (index: number) => ((index * 7) % 4) + 1;
        await store.recordEvents(
          paths.flatMap((path, index) =>
            Array.from({ length: views(index) }, (_, view) =>
              pageview(`v${index}-${view}`, path, T1 + index, { referrerHost: `r${index % 3}.example` }),
            ),
          ),
        );
        const expected = paths
          .map((path, index) => ({ path, pageviews: views(index) }))
          .sort((a, b) => b.pageviews - a.pageviews || (a.path < b.path ? -1 : 1))
          .slice(0, REPORT_ROW_LIMIT);
        expect((await store.pageTotals(ALL)).map(({ path, pageviews }) => ({ path, pageviews }))).toEqual(expected);

        const referrers = await store.referrerTotals(ALL);
        expect(referrers.map((row) => row.host)).toEqual(
          ['r0.example', 'r1.example', 'r2.example'].sort(
            (a, b) =>
              (referrers.find((row) => row.host === b)?.visitors ?? 0) - (referrers.find((row) => row.host === a)?.visitors ?? 0) ||
              (a < b ? -1 : 1),
          ),
        );
        const visits = paths.reduce((sum, _, index) => sum + views(index), 0);
        expect(referrers.reduce((sum, row) => sum + row.visitors, 0)).toBe(visits);
      });

      it('refuses a range that is malformed, backwards or longer than the limit', async () => {
        await expect(store.pageTotals({ from: DAY2, to: DAY1 })).rejects.toThrow(/after it ends/);
        await expect(store.dayTotals({ from: '2026-11-1', to: DAY1 })).rejects.toThrow(/YYYY-MM-DD/);
        await expect(store.funnel({ from: '2026-02-30', to: '2026-03-01' }, 'none')).rejects.toThrow(/YYYY-MM-DD/);
        await expect(store.entryTotals({ from: '2000-01-01', to: '2026-01-01' })).rejects.toThrow(/at most/);
        const first = Date.UTC(2020, 0, 1);
        const last = new Date(first + (MAX_RANGE_DAYS - 1) * DAY).toISOString().slice(0, 10);
        expect(await store.dayTotals({ from: '2020-01-01', to: last })).toHaveLength(MAX_RANGE_DAYS);
      });

      it('refuses a batch with an event whose time is not a moment, and counts none of it', async () => {
        await expect(store.recordEvents([pageview('v1', '/', T1), pageview('v2', '/', Number.NaN)])).rejects.toThrow(/milliseconds/);
        await expect(store.recordLead(lead('lead-1', Number.POSITIVE_INFINITY, 'home'))).rejects.toThrow(/milliseconds/);
        expect((await store.dayTotals({ from: DAY1, to: DAY1 }))[0]?.visitors).toBe(0);
      });

      it('reads every report through the day index of its roll-up table', async () => {
        await store.recordEvents([pageview('v1', '/', T1, { forms: ['home'] })]);
        const sql = reportSql(harness.kind === 'postgres' ? 'postgres' : 'sqlite');
        for (const query of [
          sql.visitsPerDay,
          sql.pagesPerDay,
          sql.pages,
          sql.referrers,
          sql.campaigns,
          sql.entries,
          ...Object.values(sql.funnel),
        ]) {
          const plan = await database.explain(query, [DAY1, DAY2]);
          if (harness.kind === 'postgres') {
            expect(plan).toMatch(/Index (Only )?Scan using analytics_\w+_pkey/);
            expect(plan).not.toMatch(/Seq Scan/);
          } else {
            expect(plan).toMatch(/SEARCH analytics_\w+_days USING PRIMARY KEY \((split=\? AND )?day>\? AND day<\?\)/);
          }
        }
        // Field speed's roll-ups, each read by its period's range, for every page or one.
        for (const [name, query] of Object.entries(sql.vitals)) {
          const plan = await database.explain(query, name.endsWith('OfPage') ? [DAY1, DAY2, '/'] : [DAY1, DAY2]);
          if (harness.kind === 'postgres') {
            expect(plan, name).toMatch(/Index (Only )?Scan using analytics_vital_\w+_pkey/);
            expect(plan, name).not.toMatch(/Seq Scan/);
          } else expect(plan, name).toMatch(/SEARCH analytics_vital_\w+ USING PRIMARY KEY \((day|week|month)>\? AND (day|week|month)<\?\)/);
        }
      });
    });

    describe('retention', () => {
      it('deletes raw rows of the days before the given day, and the reports stay as they were', async () => {
        await store.recordEvents([
          pageview('v1', '/', T1, { campaign: { source: 'ads' }, forms: ['home'] }),
          formStart('v1', 'home', T1 + 1),
          pageview('v2', '/about', T2, { forms: ['home'] }),
        ]);
        await store.recordLead(lead('lead-1', T1 + 2, 'home'));
        const before = await everyReport(store, ALL);
        const rawRows = async (day: string) =>
          Object.entries(await database.rows())
            .filter(([table]) => RAW_TABLES.includes(table))
            .flatMap(([, rows]) => rows.filter((row) => row.day === day)).length;
        const day1Rows = await rawRows(DAY1);
        const day2Rows = await rawRows(DAY2);
        expect(day1Rows).toBeGreaterThan(0);

        expect(await store.deleteRawBefore(DAY2)).toBe(day1Rows);
        expect(await rawRows(DAY1)).toBe(0);
        expect(await rawRows(DAY2)).toBe(day2Rows);
        expect(await everyReport(store, ALL)).toEqual(before);
        expect(await store.deleteRawBefore(DAY2)).toBe(0);
      });
    });

    describe('salts', () => {
      it('keeps the first salt offered for a day, and deletes only the days before the given one', async () => {
        expect(await store.saltForDay(DAY1, 'salt-a')).toBe('salt-a');
        expect(await store.saltForDay(DAY1, 'salt-b')).toBe('salt-a');
        expect(await store.saltForDay(DAY2, 'salt-c')).toBe('salt-c');

        await store.deleteSaltsBefore(DAY2);
        expect(await store.saltForDay(DAY2, 'salt-d')).toBe('salt-c');
        expect(await store.saltForDay(DAY1, 'salt-e')).toBe('salt-e');
      });

      it('gives two servers asking at once the same salt', async () => {
        const other = await database.open();
        const salts = await Promise.all([store.saltForDay(DAY1, 'from-one'), other.saltForDay(DAY1, 'from-two')]);
        expect(salts[0]).toBe(salts[1]);
        expect(['from-one', 'from-two']).toContain(salts[0]);
      });
    });

    describe('field speed', () => {
      /** `count` page loads of `path` on the moment's day, the values spread evenly from `low` to `high`. */
      const loads = (path: string, at: number, count: number, low: number, high: number, metric: 'LCP' | 'INP' | 'CLS' = 'LCP') =>
        Array.from({ length: count }, (_, index): VitalsSample => ({
          at,
          path,
          vitals: { [metric]: low + ((high - low) * index) / Math.max(1, count - 1) },
        }));

      it('reads the 75th percentile of each page and metric within 4 % of the page loads’ own, with how many were measured', async () => {
        // 40 page loads of /pricing from 1,000 to 4,900 ms: the 30th (rank ⌈0.75 × 40⌉) took 3,900 ms.
        await store.recordVitals(loads('/pricing', T1, 40, 1_000, 4_900));
        await store.recordVitals([
          ...loads('/pricing', T2, 35, 0.01, 0.35, 'CLS'),
          ...loads('/', T1, 31, 100, 700, 'INP'),
          { at: T1, path: '/', vitals: { LCP: 1_200, CLS: 0 } },
        ]);
        const routes = await store.vitals(ALL, 30);
        expect(
          routes.map(({ path, measured, figures }) => ({
            path,
            measured,
            metrics: figures.map((figure) => [figure.metric, figure.samples]),
          })),
        ).toEqual([
          {
            path: '/pricing',
            measured: 40,
            metrics: [
              ['LCP', 40],
              ['CLS', 35],
            ],
          },
          { path: '/', measured: 31, metrics: [['INP', 31]] },
        ]);
        const figure = (path: string, metric: string) =>
          routes.find((route) => route.path === path)!.figures.find((f) => f.metric === metric)!.p75;
        expect(Math.abs(figure('/pricing', 'LCP') - 3_900) / 3_900).toBeLessThanOrEqual(0.04);
        // Rank 27 of 35 from 0.01 to 0.35: 0.01 + 0.34 × 26 / 34 = 0.27.
        expect(Math.abs(figure('/pricing', 'CLS') - 0.27) / 0.27).toBeLessThanOrEqual(0.04);
        // Rank 24 of 31 from 100 to 700 ms: 100 + 600 × 23 / 30 = 560 ms.
        expect(Math.abs(figure('/', 'INP') - 560) / 560).toBeLessThanOrEqual(0.04);
      });

      it('lists a page measured fewer times than the minimum without figures, counts only the range’s days, and one page when asked', async () => {
        await store.recordVitals([
          ...loads('/about', T1, 10, 500, 900),
          ...loads('/about', T3, 25, 500, 900),
          ...loads('/', T2, 5, 500, 900),
        ]);
        expect(await store.vitals({ from: DAY1, to: DAY2 }, 30)).toEqual([
          { path: '/about', measured: 10, figures: [] },
          { path: '/', measured: 5, figures: [] },
        ]);
        const [about] = await store.vitals(ALL, 30, '/about');
        expect(about).toMatchObject({ path: '/about', measured: 35, figures: [{ metric: 'LCP', samples: 35 }] });
        expect(await store.vitals(ALL, 30, '/contact')).toEqual([]);
        expect(await store.vitals({ from: '2026-10-01', to: '2026-10-31' }, 1)).toEqual([]);
      });

      it('adds batches to the same counts, from two servers at once as from one', async () => {
        const batches = Array.from({ length: 8 }, (_, index) => loads(index % 2 ? '/' : '/about', T1 + index, 20, 200 + index * 10, 3_000));
        for (const batch of batches) await store.recordVitals(batch);
        const sequential = await store.vitals(ALL, 1);
        const again = await harness.createDatabase();
        try {
          const [one, two] = [await again.open(), await again.open()];
          await Promise.all(batches.map((batch, index) => (index % 2 ? one : two).recordVitals(batch)));
          expect(await one.vitals(ALL, 1)).toEqual(sequential);
        } finally {
          await again.remove();
        }
        expect(sequential.map((route) => route.measured)).toEqual([80, 80]);
      });

      it('reads a range of whole months, whole weeks and days around them as it reads every day of it', async () => {
        // Page loads every other day from mid-January to early April, their times rising through the weeks.
        const samples: VitalsSample[] = [];
        for (let day = 0; day < 80; day += 2)
          samples.push(...loads(day % 3 ? '/' : '/about', Date.UTC(2025, 0, 14) + day * DAY, 5, 400 + day * 20, 900 + day * 40));
        await store.recordVitals(samples.slice(0, 100));
        await store.recordVitals(samples.slice(100));
        const expected = toRouteVitals(vitalIncrements(samples), 30);
        expect(await store.vitals({ from: '2025-01-10', to: '2025-04-05' }, 30)).toEqual(expected);
        expect(await store.vitals({ from: '2025-01-10', to: '2025-04-05' }, 30, '/about')).toEqual(
          expected.filter((route) => route.path === '/about'),
        );
        const march = toRouteVitals(vitalIncrements(samples.filter(({ at }) => saltDay(at).startsWith('2025-03'))), 1);
        expect(await store.vitals({ from: '2025-03-01', to: '2025-03-31' }, 1)).toEqual(march);
      });

      it('keeps no visit beside field speed, and refuses a minimum under one or a range the reports refuse', async () => {
        await store.recordVitals(loads('/', T1, 3, 100, 300));
        const columns = (await database.columns()).analytics_vital_days;
        const all = await database.columns();
        expect(columns?.sort()).toEqual(['bucket', 'day', 'metric', 'path', 'samples']);
        expect(all.analytics_vital_months?.sort()).toEqual(['bucket', 'metric', 'month', 'path', 'samples']);
        await expect(store.vitals(ALL, 0)).rejects.toThrow(/at least 1/);
        await expect(store.vitals({ from: DAY2, to: DAY1 }, 30)).rejects.toThrow(/starts/);
      });
    });

    describe('several writers', () => {
      it('counts batches sent at once by two servers, with overlapping visits, as it counts them one after another', async () => {
        // Forty visits over two days, each with one attribution on all its page views, shuffled into
        // batches so most visits appear in several of them.
        const events: VisitEvent[] = [];
        for (let index = 0; index < 600; index += 1) {
          const visit = `v${(index * 13) % 40}`;
          const at = (index % 2 === 0 ? T1 : T2) + index * 1_000;
          const kind = index % 5;
          const source = { campaign: { source: `s${visit.length % 3}` }, referrerHost: `${visit}.example` };
          if (kind === 0) events.push(formStart(visit, 'home', at, '/'));
          else if (kind === 1) events.push(formSubmit(visit, 'roi', at, '/roi'));
          else if (kind === 2) events.push(bookingClick(visit, '/about', at));
          else events.push(pageview(visit, `/page-${index % 4}`, at, { ...source, forms: index % 2 ? ['home'] : ['roi', 'home'] }));
        }
        const batches = Array.from({ length: 12 }, (_, batch) => events.filter((_, index) => index % 12 === batch));

        for (const batch of batches) await store.recordEvents(batch);
        const sequential = await everyReport(store, ALL);

        const again = await harness.createDatabase();
        try {
          const [one, two] = [await again.open(), await again.open()];
          await Promise.all(batches.map((batch, index) => (index % 2 === 0 ? one : two).recordEvents(batch)));
          const concurrent = await everyReport(one, ALL);
          // Which event of a visit counts first (and so its entry page, referrer and campaign)
          // depends on which batch commits first; how many visits there are, and what they did, may not.
          const total = (rows: { visitors: number }[]) => rows.reduce((sum, row) => sum + row.visitors, 0);
          for (const list of ['entries', 'referrers', 'campaigns'] as const) expect(total(concurrent[list])).toBe(total(sequential[list]));
          expect(concurrent.days).toEqual(sequential.days);
          expect(concurrent.pages).toEqual(sequential.pages);
          expect(concurrent.funnels[0]).toEqual(sequential.funnels[0]);
        } finally {
          await again.remove();
        }
      });
    });
  });
}

describe('the SQLite analytics store on its worker thread', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'analytics-worker-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('fails to open, with the thread’s reason, where the file cannot be made', async () => {
    const blocker = path.join(folder, 'a-file');
    await writeFile(blocker, '');
    await expect(openSqliteAnalyticsWorkerStore(path.join(blocker, 'analytics.sqlite'))).rejects.toThrow();
  });

  it('refuses a database a newer server migrated, and calls after close', async () => {
    const file = path.join(folder, 'analytics.sqlite');
    const store = await openSqliteAnalyticsWorkerStore(file);
    await store.close();
    await expect(store.dayTotals({ from: DAY1, to: DAY1 })).rejects.toThrow(/closed/);

    const db = new DatabaseSync(file);
    db.prepare('INSERT INTO analytics_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      SQLITE_ANALYTICS_MIGRATIONS.length + 1,
      'from a newer server',
      T1,
    );
    db.close();
    await expect(openSqliteAnalyticsWorkerStore(file)).rejects.toThrow(/newer than this release knows/);
  });
});
