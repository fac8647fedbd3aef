// The visit reports in the console's API over an analytics store held in memory: who may read them,
// the range they cover (30 UTC days ending today unless asked), the refusals that name the input,
// every report in one answer with the funnel split as asked, the CSV downloads (readable columns,
// formulas neutralised as the leads export does, the funnel's rates), and a 503 when the store is down.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsReport, AnalyticsSummary, VitalsReport } from '../../console/api-types.ts';
import type { FunnelRow } from '../analytics/analytics-store.ts';
import { createFakeAnalyticsStore, type FakeAnalyticsStore, type FakeReports } from '../testing/analytics-fake.ts';
import { startConsoleServer, type ConsoleTestServer } from '../testing/console-client.ts';

const TODAY = '2026-11-27';

let server: ConsoleTestServer | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(`${TODAY}T15:30:00Z`));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.useRealTimers();
});

async function start(reports: FakeReports = {}): Promise<{ console: ConsoleTestServer; store: FakeAnalyticsStore }> {
  const store = createFakeAnalyticsStore(reports);
  const console = await startConsoleServer({ analytics: store });
  server = console;
  await console.addAccount('viewer@example.com', 'viewer');
  await console.addAccount('editor@example.com', 'editor');
  return { console, store };
}

const funnelRow = (
  form: FunnelRow['form'],
  key: string,
  counts: [number, number, number, number, number] | [number, number, number, number, number, number],
): FunnelRow => {
  const [viewed, started, submitted, accepted, delivered, booked = 0] = counts;
  return { form, key, viewed, started, submitted, accepted, delivered, booked };
};

describe('who may read the visit reports', () => {
  it('every analytics route declares analytics:read, and answers 401 to someone signed out', async () => {
    const { console, store } = await start();
    const routes = console.app.consoleRoutes.filter((route) => route.url.startsWith('/console/api/analytics'));
    expect(routes.map((route) => `${route.method} ${route.url}`).sort()).toEqual([
      'GET /console/api/analytics',
      'GET /console/api/analytics/export',
      'GET /console/api/analytics/summary',
      'GET /console/api/analytics/vitals',
      'HEAD /console/api/analytics',
      'HEAD /console/api/analytics/export',
      'HEAD /console/api/analytics/summary',
      'HEAD /console/api/analytics/vitals',
    ]);
    for (const route of routes) expect(route.access, route.url).toBe('analytics:read');
    for (const url of [
      '/console/api/analytics',
      '/console/api/analytics/export?report=pages',
      '/console/api/analytics/vitals',
      '/console/api/analytics/summary',
      '/console/api/analytics/summary?campaign=x',
    ]) {
      const response = await console.read(undefined, url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toMatchObject({ error: 'signed-out' });
    }
    expect(store.asked).toEqual([]);
  });

  it('refuses an editor, who may not read the leads whose counts they show', async () => {
    const { console, store } = await start();
    const editor = await console.signedIn('editor@example.com');
    expect((await console.read(editor, '/console/api/leads')).statusCode).toBe(403);
    expect((await console.read(editor, '/console/api/analytics')).statusCode).toBe(403);
    expect((await console.read(editor, '/console/api/analytics/export?report=days')).statusCode).toBe(403);
    expect((await console.read(editor, '/console/api/analytics/vitals')).statusCode).toBe(403);
    expect((await console.read(editor, '/console/api/analytics/summary')).statusCode).toBe(403);
    expect(store.asked).toEqual([]);
  });
});

describe('the range', () => {
  it('is the 30 UTC days ending today when none is asked for', async () => {
    const { console, store } = await start();
    const viewer = await console.signedIn('viewer@example.com');
    const report = (await console.read(viewer, '/console/api/analytics')).json<AnalyticsReport>();
    expect(report.range).toEqual({ from: '2026-10-29', to: TODAY });
    expect(report.split).toBe('none');
    expect(report.days).toHaveLength(30);
    expect(report.days.at(-1)?.day).toBe(TODAY);
    expect(store.asked).toContain(`dayTotals 2026-10-29..${TODAY}`);
    expect(store.asked.filter((asked) => asked.startsWith('funnel'))).toEqual([`funnel:none 2026-10-29..${TODAY}`]);
  });

  it('takes the days asked for, tomorrow at the latest, and the 30 days ending at "to" when only it is given', async () => {
    const { console } = await start();
    const viewer = await console.signedIn('viewer@example.com');
    const read = async (query: string) => (await console.read(viewer, `/console/api/analytics?${query}`)).json<AnalyticsReport>().range;
    expect(await read('from=2026-11-01&to=2026-11-28')).toEqual({ from: '2026-11-01', to: '2026-11-28' });
    expect(await read('to=2026-10-31')).toEqual({ from: '2026-10-02', to: '2026-10-31' });
    expect(await read('from=2026-11-20&to=')).toEqual({ from: '2026-11-20', to: TODAY });
    expect(await read('from=2016-10-11&to=2026-11-27')).toEqual({ from: '2016-10-11', to: TODAY });
  });

  it('refuses a range that is not one, naming the input', async () => {
    const { console, store } = await start();
    const viewer = await console.signedIn('viewer@example.com');
    for (const [query, field, message] of [
      ['from=2026-02-30', 'from', 'Not a real date: 2026-02-30 does not exist.'],
      ['to=26-11-01', 'to', 'Must be a day written YYYY-MM-DD.'],
      ['from=2026-11-20&to=2026-11-10', 'to', 'Must be on or after "from".'],
      ['from=2026-12-01', 'from', `Must be ${TODAY} or earlier, or give "to" too.`],
      ['to=2026-11-29', 'to', 'Must be 2026-11-28 or earlier: no visits are counted after that yet.'],
      ['from=2016-10-10&to=2026-11-27', 'from', 'The range must span at most 3,700 days.'],
      ['split=browser', 'split', 'Must be "none" or "campaign" or "source" or "entry".'],
      ['colour=red', 'colour', 'Not an input this takes: colour.'],
    ]) {
      for (const path of ['/console/api/analytics?', '/console/api/analytics/export?report=pages&']) {
        const response = await console.read(viewer, `${path}${query}`);
        expect(response.statusCode, `${path}${query}`).toBe(400);
        expect(response.json(), `${path}${query}`).toMatchObject({ error: 'validation', fields: { [field!]: message } });
        expect(response.json<{ message: string }>().message).toContain(`"${field}"`);
      }
    }
    const export_ = await console.read(viewer, '/console/api/analytics/export?report=visitors');
    expect(export_.json()).toMatchObject({ error: 'validation', fields: { report: expect.stringContaining('"pages"') } });
    expect(store.asked).toEqual([]);
  });
});

describe('the reports', () => {
  const reports: FakeReports = {
    days: [{ day: '2026-11-02', visitors: 7, pageviews: 19, bookingClicks: 2 }],
    pages: [{ path: '/pricing', visitors: 5, pageviews: 9, bookingClicks: 1 }],
    referrers: [
      { host: 'www.google.com', visitors: 4 },
      { host: '', visitors: 3 },
    ],
    campaigns: [{ source: 'newsletter', medium: 'email', name: 'autumn', click: '', visitors: 2 }],
    entries: [{ path: '/', visitors: 6 }],
    funnel: {
      none: [funnelRow('contact', '', [40, 10, 8, 6, 5])],
      source: [funnelRow('contact', 'newsletter', [10, 4, 4, 3, 3]), funnelRow('contact', '', [30, 6, 4, 3, 2])],
    },
  };

  it('answers every report for the range in one call, with the funnel unsplit and split as asked', async () => {
    const { console, store } = await start(reports);
    const viewer = await console.signedIn('viewer@example.com');
    const response = await console.read(viewer, '/console/api/analytics?from=2026-11-01&to=2026-11-03&split=source');
    expect(response.statusCode).toBe(200);
    expect(response.json<AnalyticsReport>()).toEqual({
      range: { from: '2026-11-01', to: '2026-11-03' },
      split: 'source',
      days: [
        { day: '2026-11-01', visitors: 0, pageviews: 0, bookingClicks: 0 },
        { day: '2026-11-02', visitors: 7, pageviews: 19, bookingClicks: 2 },
        { day: '2026-11-03', visitors: 0, pageviews: 0, bookingClicks: 0 },
      ],
      pages: reports.pages,
      referrers: reports.referrers,
      campaigns: reports.campaigns,
      entryPages: reports.entries,
      funnel: reports.funnel!.none,
      splitFunnel: reports.funnel!.source,
    });
    expect(store.asked.filter((asked) => asked.startsWith('funnel')).sort()).toEqual([
      'funnel:none 2026-11-01..2026-11-03',
      'funnel:source 2026-11-01..2026-11-03',
    ]);
  });

  it('answers 503 in the console shape when the store is down, for the reports and the downloads', async () => {
    const { console, store } = await start(reports);
    const viewer = await console.signedIn('viewer@example.com');
    store.failing = true;
    for (const url of ['/console/api/analytics', '/console/api/analytics/export?report=funnel']) {
      const response = await console.read(viewer, url);
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['retry-after']).toBe('2');
      expect(response.json()).toEqual({
        error: 'unavailable',
        message: 'The visit reports are briefly unavailable: try again in a moment.',
        retryAfterSeconds: 2,
      });
    }
  });
});

describe('field speed', () => {
  const vitals: FakeReports = {
    vitals: [
      {
        path: '/pricing',
        measured: 64,
        figures: [
          { metric: 'LCP', p75: 2_500, samples: 64 },
          { metric: 'INP', p75: 201, samples: 40 },
          { metric: 'CLS', p75: 0.31, samples: 64 },
        ],
      },
      { path: '/', measured: 12, figures: [] },
    ],
  };

  it('answers the 75th percentile per page with its samples and Google’s rating, pages under the minimum without figures', async () => {
    const { console, store } = await start(vitals);
    const viewer = await console.signedIn('viewer@example.com');
    const response = await console.read(viewer, '/console/api/analytics/vitals?from=2026-11-01&to=2026-11-27');
    expect(response.statusCode).toBe(200);
    expect(response.json<VitalsReport>()).toEqual({
      minSamples: 30,
      routes: [
        {
          path: '/pricing',
          measured: 64,
          figures: [
            // At the threshold is still good; just over it is not.
            { metric: 'LCP', p75: 2_500, samples: 64, rating: 'good' },
            { metric: 'INP', p75: 201, samples: 40, rating: 'needs-improvement' },
            { metric: 'CLS', p75: 0.31, samples: 64, rating: 'poor' },
          ],
        },
        { path: '/', measured: 12, figures: [] },
      ],
    });
    expect(store.asked).toEqual(['vitals:30 2026-11-01..2026-11-27']);
  });

  it('covers the 30 days ending today unless asked, one page when asked, and refuses what is not a range or a page', async () => {
    const { console, store } = await start(vitals);
    const viewer = await console.signedIn('viewer@example.com');
    const one = (await console.read(viewer, '/console/api/analytics/vitals?page=/pricing')).json<VitalsReport>();
    expect(one.routes.map((route) => route.path)).toEqual(['/pricing']);
    expect(store.asked).toEqual([`vitals:30:/pricing 2026-10-29..${TODAY}`]);
    for (const [query, field, message] of [
      ['page=pricing', 'page', 'Must be a page of the site, such as /about.'],
      ['page=/Pricing/', 'page', 'Must be a page of the site, such as /about.'],
      ['from=2026-11-20&to=2026-11-10', 'to', 'Must be on or after "from".'],
      ['split=source', 'split', 'Not an input this takes: split.'],
    ]) {
      const response = await console.read(viewer, `/console/api/analytics/vitals?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ error: 'validation', fields: { [field!]: message } });
    }
    store.failing = true;
    const down = await console.read(viewer, '/console/api/analytics/vitals');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ error: 'unavailable' });
  });
});

describe('the CSV downloads', () => {
  const csvLines = (body: string) => body.trimEnd().split('\r\n');

  it('names the report and the range, and has a header row a person reads', async () => {
    const { console } = await start({
      pages: [{ path: '/pricing', visitors: 5, pageviews: 9, bookingClicks: 1 }],
      campaigns: [{ source: 'newsletter', medium: 'email', name: 'autumn, late', click: 'gclid', visitors: 2 }],
    });
    const viewer = await console.signedIn('viewer@example.com');
    const pages = await console.read(viewer, '/console/api/analytics/export?report=pages&from=2026-11-01&to=2026-11-27');
    expect(pages.statusCode).toBe(200);
    expect(pages.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(pages.headers['content-disposition']).toBe('attachment; filename="analytics-pages-2026-11-01-to-2026-11-27.csv"');
    expect(csvLines(pages.body)).toEqual(['Page,Visitors,Page views,Booking clicks', '/pricing,5,9,1']);

    const days = await console.read(viewer, '/console/api/analytics/export?report=days&from=2026-11-26');
    expect(days.headers['content-disposition']).toBe(`attachment; filename="analytics-days-2026-11-26-to-${TODAY}.csv"`);
    expect(csvLines(days.body)).toEqual(['Day (UTC),Visitors,Page views,Booking clicks', '2026-11-26,0,0,0', `${TODAY},0,0,0`]);

    const campaigns = await console.read(viewer, '/console/api/analytics/export?report=campaigns');
    expect(csvLines(campaigns.body)).toEqual(['Source,Medium,Campaign,Ad click,Visitors', 'newsletter,email,"autumn, late",gclid,2']);
  });

  it('neutralises cells a spreadsheet would run, as the leads export does', async () => {
    const { console } = await start({
      pages: [
        { path: '=HYPERLINK("https://evil.example")', visitors: 1, pageviews: 1, bookingClicks: 0 },
        { path: '@SUM(A1)', visitors: 1, pageviews: 1, bookingClicks: 0 },
      ],
      referrers: [
        { host: '+cmd', visitors: 1 },
        { host: '-2+3', visitors: 1 },
        { host: '\tindent', visitors: 1 },
        { host: '', visitors: 4 },
      ],
      campaigns: [{ source: '\rsource', medium: '=1', name: 'plain', click: '', visitors: 1 }],
    });
    const viewer = await console.signedIn('viewer@example.com');
    const pages = csvLines((await console.read(viewer, '/console/api/analytics/export?report=pages')).body);
    expect(pages.slice(1)).toEqual([`"'=HYPERLINK(""https://evil.example"")",1,1,0`, `'@SUM(A1),1,1,0`]);
    const referrers = csvLines((await console.read(viewer, '/console/api/analytics/export?report=referrers')).body);
    expect(referrers).toEqual(['Referring site,Visitors', `'+cmd,1`, `'-2+3,1`, `'\tindent,1`, '(no referring site),4']);
    const campaigns = (await console.read(viewer, '/console/api/analytics/export?report=campaigns')).body;
    // A carriage return is written as the text \x0D (as the leads export writes it), so the cell starts with a backslash.
    expect(campaigns).toContain(`\\x0Dsource,'=1,plain,,1\r\n`);
  });

  it('gives the funnel per form with each step and its rate of the page views, split as asked', async () => {
    const { console } = await start({
      funnel: {
        none: [funnelRow('contact', '', [40, 10, 8, 6, 5, 2]), funnelRow('landing', '', [0, 0, 0, 0, 0])],
        campaign: [funnelRow('roi', 'spring', [8, 4, 2, 2, 1]), funnelRow('roi', '', [3, 1, 0, 0, 0])],
      },
    });
    const viewer = await console.signedIn('viewer@example.com');
    const plain = await console.read(viewer, '/console/api/analytics/export?report=funnel&from=2026-11-01');
    expect(plain.headers['content-disposition']).toBe(`attachment; filename="analytics-funnel-2026-11-01-to-${TODAY}.csv"`);
    expect(csvLines(plain.body)).toEqual([
      'Form,Page view,Form started,Submitted,Lead accepted,Delivered to the CRM,Meeting booked,Form started (% of page views),Submitted (% of page views),Lead accepted (% of page views),Delivered to the CRM (% of page views),Meeting booked (% of page views)',
      'Contact form,40,10,8,6,5,2,25.0%,20.0%,15.0%,12.5%,5.0%',
      'Landing page form,0,0,0,0,0,0,,,,,',
    ]);
    const split = await console.read(viewer, '/console/api/analytics/export?report=funnel&from=2026-11-01&split=campaign');
    expect(split.headers['content-disposition']).toBe(`attachment; filename="analytics-funnel-by-campaign-2026-11-01-to-${TODAY}.csv"`);
    expect(csvLines(split.body).slice(1)).toEqual([
      'ROI calculator form,spring,8,4,2,2,1,0,50.0%,25.0%,25.0%,12.5%,0.0%',
      'ROI calculator form,(no campaign),3,1,0,0,0,0,33.3%,0.0%,0.0%,0.0%,0.0%',
    ]);
    expect(csvLines(split.body)[0]).toMatch(/^Form,Campaign,Page view,/);
  });
});

describe('the summary', () => {
  const day = (date: string, visitors: number, accepted: number, delivered: number, booked: number) => ({
    day: date,
    visitors,
    accepted,
    delivered,
    booked,
  });

  it('answers the key figures against the previous period, what converts and the days with something, under the filter asked', async () => {
    const { console, store } = await start({
      summaryDays: [day('2026-10-05', 10, 2, 2, 0), day('2026-11-02', 20, 4, 3, 1), day('2026-11-20', 5, 1, 1, 1)],
      conversions: {
        campaigns: [{ campaign: 'roi-q4', source: 'linkedin', visitors: 6, accepted: 3, delivered: 2, booked: 1 }],
        entries: [{ entryPath: '/roi', visitors: 9, accepted: 3, delivered: 3, booked: 1 }],
      },
    });
    const viewer = await console.signedIn('viewer@example.com');
    const response = await console.read(viewer, '/console/api/analytics/summary?from=2026-10-29&to=2026-11-27&campaign=&form=roi');
    expect(response.statusCode).toBe(200);
    const summary = response.json<AnalyticsSummary>();
    expect(summary.range).toEqual({ from: '2026-10-29', to: '2026-11-27' });
    expect(summary.previousRange).toEqual({ from: '2026-09-29', to: '2026-10-28' });
    // '' is a filter ("no campaign"); a filter left out is none.
    expect(summary.filter).toEqual({ campaign: '', form: 'roi' });
    expect(store.asked).toContain('summaryDays {"campaign":"","form":"roi"} 2026-10-29..2026-11-27');
    expect(store.asked).toContain('summaryDays {"campaign":"","form":"roi"} 2026-09-29..2026-10-28');
    expect(summary.figures).toEqual([
      { name: 'visitors', value: 25, previous: 10, change: 1.5 },
      { name: 'accepted', value: 5, previous: 2, change: 1.5 },
      { name: 'delivered', value: 4, previous: 2, change: 1 },
      { name: 'booked', value: 2, previous: 0, change: null },
      { name: 'visitToLead', value: 0.2, previous: 0.2, change: 0 },
    ]);
    // Ranked by leads the CRM took: the entry page before the campaign.
    expect(summary.conversions.map((row) => `${row.kind} ${row.key}`)).toEqual(['entry /roi', 'campaign roi-q4']);
    expect(summary.series.map((point) => point.day)).toEqual(['2026-11-02', '2026-11-20']);
    expect(summary.emptyDays).toBe(28);
  });

  it('refuses a form that is not one of the site’s, a page that is not a path, and a backwards range, naming the field', async () => {
    const { console, store } = await start();
    const viewer = await console.signedIn('viewer@example.com');
    for (const [query, field] of [
      ['form=newsletter', 'form'],
      ['page=pricing', 'page'],
      ['from=2026-11-20&to=2026-11-01', 'to'],
    ] as const) {
      const response = await console.read(viewer, `/console/api/analytics/summary?${query}`);
      expect(response.statusCode, query).toBe(400);
      const body = response.json<{ fields: Record<string, string> }>();
      expect(Object.keys(body.fields), query).toEqual([field]);
      expect(body.fields[field], query).toMatch(/^Must /);
    }
    expect(store.asked).toEqual([]);
  });
});
