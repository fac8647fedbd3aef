// Analytics under load, two runs:
//
// 1. Ingest beside leads. A real server process (SQLite, as `npm start` runs it) takes page-view
//    beacons from thousands of addresses at a fixed rate while leads arrive at a steady pace; the lead
//    latency is measured first alone, then under the beacons, then beside a flood from one address far
//    over the beacon limit (nearly every request a 429). Afterwards the events the store counted are
//    read back (what was answered is not what was counted until it is in the database), and the leads
//    stored against those answered 201. The beacons and the flood go to the beacon listener
//    (EVENTS_PORT), as a load balancer routes /api/events; ANALYTICS_BENCH_BEACONS=main sends them to
//    the server's own port instead, as with no balancer. `npm run bench -- analytics-ingest` runs
//    this part alone.
// 2. Reports at ten million events. Each store (SQLite on its worker thread, as the server runs it;
//    PostgreSQL when TEST_DATABASE_URL or DATABASE_URL names one, in a schema of its own) is filled
//    through its own `recordEvents` with a year of visits (and `recordVitals` with the field speed of
//    most of their page loads), then every report is timed over the whole year and over its last 30
//    days. Budget: 200 ms at p95 for every report.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import type { Result } from 'autocannon';
import pg from 'pg';
import { LEAD_FORM_IDS, type LeadFormId } from '../../lead/rules.ts';
import type { AnalyticsFilter } from '../../console/api-types.ts';
import {
  FUNNEL_SPLITS,
  type AnalyticsStore,
  type DayRange,
  type LeadKeys,
  type VisitEvent,
  type VitalsSample,
} from '../../server/analytics/analytics-store.ts';
import { analyticsSummary } from '../../server/analytics/summary.ts';
import { openPostgresAnalyticsStore } from '../../server/analytics/postgres-analytics-store.ts';
import { openSqliteAnalyticsStore } from '../../server/analytics/sqlite-analytics-store.ts';
import { openSqliteAnalyticsWorkerStore } from '../../server/analytics/sqlite-analytics-worker.ts';
import { saltDay } from '../../server/analytics/visit-hash.ts';
import { startCrmReceiver } from '../../server/testing/crm-receiver.ts';
import { validLeadBody } from '../../server/testing/lead-bodies.ts';
import { findFreePort, startServerProcess } from '../../server/testing/server-process.ts';
import { createSiteFixture } from '../../server/testing/site-fixture.ts';
import { isBuild } from '../../content-model/load/build-files.ts';
import { seededRandom } from './seeded-random.ts';

export const ANALYTICS_BENCH = {
  ingest: {
    seconds: 15,
    eventsPerSecond: 6_000,
    eventConnections: 64,
    leadsPerSecond: 40,
    leadConnections: 4,
    addresses: 50_000,
    /** One address far over the beacon limit (60 per 10 s): nearly every request is refused with 429. */
    floodPerSecond: 3_000,
    floodConnections: 16,
  },
  reports: { events: 10_000_000, days: 365, batch: 5_000, runs: 20, budgetMs: 200 },
} as const;

const DAY_MS = 86_400_000;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Timing = { readonly name: string; readonly medianMs: number; readonly p95Ms: number; readonly maxMs: number };
export type ReportBenchResult = {
  readonly store: string;
  readonly events: number;
  readonly fillSeconds: number;
  readonly timings: readonly Timing[];
};
export type IngestBenchResult = {
  /** The beacons went to the server's own port, not to the beacon listener. */
  readonly beaconsOnMain: boolean;
  readonly alone: Result;
  readonly underLoad: Result;
  readonly events: Result;
  readonly underFlood: Result;
  readonly flood: Result;
  /** Leads the lead store holds at the end, against those answered 201. */
  readonly leadsStored: number;
  readonly leadsAnswered: number;
  readonly counted: number;
  readonly countedPerSecond: number;
  readonly loadAtStart: number;
};

// ---------------------------------------------------------------------------------------------
// 1. Ingest

/** A page on the built site (or the test fixture) to count views of. */
const INGEST_PATHS = ['/', '/about', '/blog'];

export async function runIngestBench(log: (line: string) => void = console.log): Promise<IngestBenchResult> {
  const { ingest } = ANALYTICS_BENCH;
  const loadAtStart = os.loadavg()[0] ?? 0;
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'analytics-bench-'));
  const builtSite = isBuild(path.resolve('dist'));
  const fixture = builtSite ? undefined : await createSiteFixture();
  const crm = await startCrmReceiver({ record: false });
  const analyticsFile = path.join(workDir, 'analytics.sqlite');
  // The beacons go where a load balancer sends /api/events: the beacon listener (EVENTS_PORT), unless
  // ANALYTICS_BENCH_BEACONS=main sends them to the server's own port, as with no balancer.
  const beaconsOnMain = process.env.ANALYTICS_BENCH_BEACONS === 'main';
  const eventsPort = await findFreePort();
  const server = await startServerProcess(
    {
      DIST_DIR: fixture?.distDir ?? path.resolve('dist'),
      LEADS_DB_FILE: path.join(workDir, 'leads.sqlite'),
      ANALYTICS_DB_FILE: analyticsFile,
      CRM_WEBHOOK_URL: crm.url,
      LEAD_RATE_LIMIT: '1000000000',
      // Each beacon comes from one of many addresses, as from many visitors (the per-address limit holds).
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      EVENTS_PORT: String(eventsPort),
      // ANALYTICS_BENCH_CPU_PROF=<folder>: the server writes a CPU profile there when it stops.
      ...(process.env.ANALYTICS_BENCH_CPU_PROF
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.ANALYTICS_BENCH_CPU_PROF)}` }
        : {}),
    },
    workDir,
    { keepOutput: false },
  );
  // The load generators run at a lower priority than the server: on this 2-core machine they would
  // otherwise take a core from it, which in production is a visitor's, not the server's.
  const beaconUrl = beaconsOnMain ? server.baseUrl : `http://127.0.0.1:${eventsPort}`;
  const priorityBefore = os.getPriority();
  os.setPriority(Math.min(19, priorityBefore + 10));
  try {
    let lead = 0;
    const leadRequest = {
      method: 'POST' as const,
      path: '/api/leads',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      setupRequest: (request: Record<string, unknown>) => ({
        ...request,
        body: JSON.stringify({ ...validLeadBody(LEAD_FORM_IDS[lead % 4] ?? 'home'), email: `bench-${(lead += 1)}@example.com` }),
      }),
    };
    const leads = (seconds: number) =>
      autocannon({
        url: server.baseUrl,
        connections: ingest.leadConnections,
        overallRate: ingest.leadsPerSecond,
        duration: seconds,
        requests: [leadRequest],
      });
    let beacon = 0;
    const events = () =>
      autocannon({
        url: beaconUrl,
        connections: ingest.eventConnections,
        overallRate: ingest.eventsPerSecond,
        duration: ingest.seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/events',
            setupRequest: (request: Record<string, unknown>) => {
              beacon += 1;
              const address = beacon % ingest.addresses;
              return {
                ...request,
                headers: {
                  'content-type': 'text/plain;charset=UTF-8',
                  'user-agent': BROWSER,
                  'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
                },
                body: JSON.stringify({
                  type: 'pageview',
                  path: INGEST_PATHS[beacon % INGEST_PATHS.length],
                  referrer: beacon % 3 === 0 ? 'https://news.example.org/story' : '',
                  ...(beacon % 5 === 0 ? { campaign: { source: 'newsletter', medium: 'email', name: `issue-${beacon % 12}` } } : {}),
                }),
              };
            },
          },
        ],
      });

    // One address sending far more than its limit allows, as a misbehaving client or an attacker would.
    const flood = () =>
      autocannon({
        url: beaconUrl,
        connections: ingest.floodConnections,
        overallRate: ingest.floodPerSecond,
        duration: ingest.seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/events',
            headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER, 'x-forwarded-for': '192.0.2.1' },
            body: JSON.stringify({ type: 'pageview', path: '/', referrer: '' }),
          },
        ],
      });

    log('warm-up 3 s…');
    const warmUp = await leads(3);
    log(`leads alone: ${ingest.leadsPerSecond}/s for ${ingest.seconds} s…`);
    const alone = await leads(ingest.seconds);
    log(`leads at ${ingest.leadsPerSecond}/s with page-view beacons at ${ingest.eventsPerSecond}/s for ${ingest.seconds} s…`);
    const [underLoad, beacons] = await Promise.all([leads(ingest.seconds), events()]);
    // The queue flushes every quarter of a second; then every answered event is in the database.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const counted = countEvents(analyticsFile);
    log(
      `leads at ${ingest.leadsPerSecond}/s beside ${ingest.floodPerSecond} requests/s from one address over its limit for ${ingest.seconds} s…`,
    );
    const [underFlood, flooded] = await Promise.all([leads(ingest.seconds), flood()]);
    const leadsAnswered = [warmUp, alone, underLoad, underFlood].reduce((sum, run) => sum + run['2xx'], 0);
    const leadsStored = countRows(path.join(workDir, 'leads.sqlite'), 'leads');
    return {
      beaconsOnMain,
      alone,
      underLoad,
      events: beacons,
      underFlood,
      flood: flooded,
      leadsAnswered,
      leadsStored,
      counted,
      countedPerSecond: counted / beacons.duration,
      loadAtStart,
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await crm.close();
    await fixture?.remove();
    await rm(workDir, { recursive: true, force: true });
    // Lowering one's own priority is allowed to anyone; raising it again only to root.
    try {
      os.setPriority(priorityBefore);
    } catch {
      // Stays lower for the rest of the bench run, which only makes later figures more conservative.
    }
  }
}

function countEvents(file: string): number {
  return countRows(file, 'analytics_events');
}

function countRows(file: string, table: 'analytics_events' | 'leads'): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  } finally {
    db.close();
  }
}

export function formatIngestTable(result: IngestBenchResult): string {
  const { alone, underLoad, events, flood } = result;
  const latency = (run: Result) => `${run.latency.p50} / ${run.latency.p99} / ${run.latency.max} ms`;
  return [
    `Machine: ${os.cpus().length} cores, load average ${result.loadAtStart.toFixed(1)} at the start. Server: SQLite, LOG_LEVEL=warn; the bench's clients run on the same cores, at a lower priority (nice +10). Beacons and the flood sent to ${result.beaconsOnMain ? "the server's own port (PORT)" : 'the beacon listener (EVENTS_PORT), as a load balancer routes /api/events'}.`,
    '',
    '| Measure | Result |',
    '|---|---|',
    `| Lead posts alone (${ANALYTICS_BENCH.ingest.leadsPerSecond}/s): p50 / p99 / max | ${latency(alone)} (${alone['2xx']} answered 201, ${alone.non2xx} other) |`,
    `| Lead posts under the beacons: p50 / p99 / max | ${latency(underLoad)} (${underLoad['2xx']} answered 201, ${underLoad.non2xx} other) |`,
    `| Beacons answered 204 per second | ${Math.round(events['2xx'] / events.duration)} (${events.non2xx} other answers, ${events.errors + events.timeouts} errors) |`,
    `| Beacon latency p50 / p99 | ${events.latency.p50} / ${events.latency.p99} ms |`,
    `| Events counted in the database per second | ${Math.round(result.countedPerSecond)} (${result.counted} in ${events.duration} s) |`,
    `| Lead posts beside ${ANALYTICS_BENCH.ingest.floodPerSecond} requests/s from one address over its limit: p50 / p99 / max | ${latency(result.underFlood)} (${result.underFlood['2xx']} answered 201, ${result.underFlood.non2xx} other) |`,
    `| The flood's answers | ${flood['2xx']} 204, ${flood.non2xx} refused (${Math.round(flood.non2xx / flood.duration)}/s), ${flood.errors + flood.timeouts} errors; p50 / p99 ${flood.latency.p50} / ${flood.latency.p99} ms |`,
    `| Leads answered 201 / stored | ${result.leadsAnswered} / ${result.leadsStored} |`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// 2. Reports at ten million events

const PAGES = [
  '/',
  '/about',
  '/contact',
  '/services',
  '/pricing',
  '/roi-calculator',
  '/ai-transformation',
  '/blog',
  ...Array.from({ length: 32 }, (_, index) => `/blog/article-${index + 1}`),
];
/** Where a page's lead form is: the first step of its funnel. */
const FORM_ON: Partial<Record<string, LeadFormId>> = {
  '/': 'home',
  '/roi-calculator': 'roi',
  '/contact': 'contact',
  '/ai-transformation': 'landing',
};

/** Where visits come from: direct, 30 referring sites, and 30 campaigns (some from ad clicks). */
const ORIGINS: Omit<VisitEvent, 'at' | 'visit' | 'type' | 'path'>[] = [
  {},
  ...Array.from({ length: 30 }, (_, index) => ({ referrerHost: `site-${index + 1}.example.org` })),
  ...Array.from({ length: 30 }, (_, index) => ({
    campaign: {
      source: ['newsletter', 'linkedin', 'google', 'facebook', 'partner'][index % 5]!,
      medium: index % 2 ? 'cpc' : 'email',
      name: `campaign-${index + 1}`,
    },
    ...(index % 3 === 0 ? { click: (['gclid', 'fbclid', 'msclkid'] as const)[index % 3] } : {}),
  })),
];

type SeedLead = { id: string; at: number; visit: string; form: LeadFormId; keys: LeadKeys };

/**
 * A page load's field speed, spread as real sites' are: times log-normal around 1.8 s (LCP) and
 * 120 ms (INP, only after a click, on 60 % of loads), the layout score 0 on 70 % of loads.
 */
function vitalsOf(random: () => number): VitalsSample['vitals'] {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const logNormal = (median: number, spread: number) => median * Math.exp(spread * normal());
  return {
    LCP: Math.min(60_000, logNormal(1_800, 0.6)),
    ...(random() < 0.6 ? { INP: Math.min(60_000, logNormal(120, 0.7)) } : {}),
    CLS: random() < 0.7 ? 0 : Math.min(10, logNormal(0.03, 1.2)),
  };
}

/** Ten million events as a year of visits, in time order, handed out a batch at a time. */
function* yearOfEvents(
  total: number,
  days: number,
  firstDay: number,
): Generator<{ events: VisitEvent[]; leads: SeedLead[]; vitals: VitalsSample[] }> {
  const random = seededRandom(42);
  // Field speed draws from its own sequence, so the events are those of the bench before it.
  const vitalsRandom = seededRandom(7);
  // Skewed towards the start of each list: a few pages and origins get most visits, as on real sites.
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() ** 1.6 * list.length)]!;
  const perDay = Math.ceil(total / days);
  let events: VisitEvent[] = [];
  let leads: SeedLead[] = [];
  let vitals: VitalsSample[] = [];
  let made = 0;
  let leadNumber = 0;
  for (let day = 0; day < days && made < total; day++) {
    const dayStart = firstDay + day * DAY_MS;
    let visitNumber = 0;
    for (let madeToday = 0; madeToday < perDay && made < total;) {
      const before = events.length;
      const visit = `d${day}v${(visitNumber += 1)}`;
      const origin = pick(ORIGINS);
      let at = dayStart + Math.floor(random() * (DAY_MS - 3_600_000));
      let path = pick(PAGES);
      // A lead carries its visit's campaign, source (else referring site) and landing page, as the relay stores it.
      const keys: LeadKeys = {
        campaign: origin.campaign?.name ?? '',
        source: origin.campaign?.source ?? origin.referrerHost ?? '',
        entryPath: path,
      };
      const views = 1 + Math.floor(random() * 4);
      for (let view = 0; view < views; view++) {
        const form = FORM_ON[path];
        events.push({ at, visit, type: 'pageview', path, ...(view === 0 ? origin : {}), ...(form ? { forms: [form] } : {}) });
        // Most page loads report their field speed (browsers that measure it, visitors who stay long enough).
        if (vitalsRandom() < 0.7) vitals.push({ at, path, vitals: vitalsOf(vitalsRandom) });
        if (form && random() < 0.3) {
          events.push({ at: at + 5_000, visit, type: 'form_start', path, form });
          if (random() < 0.5) {
            events.push({ at: at + 60_000, visit, type: 'form_submit', path, form });
            if (random() < 0.9) leads.push({ id: `lead-${(leadNumber += 1)}`, at: at + 60_500, visit, form, keys });
          }
        }
        if (random() < 0.05) events.push({ at: at + 10_000, visit, type: 'booking_click', path });
        at += 30_000 + Math.floor(random() * 120_000);
        path = pick(PAGES);
      }
      madeToday += events.length - before;
      made += events.length - before;
      if (events.length >= ANALYTICS_BENCH.reports.batch) {
        yield { events, leads, vitals };
        events = [];
        leads = [];
        vitals = [];
      }
    }
  }
  if (events.length > 0) yield { events, leads, vitals };
}

async function fill(store: AnalyticsStore, log: (line: string) => void): Promise<{ events: number; seconds: number }> {
  const { days } = ANALYTICS_BENCH.reports;
  // ANALYTICS_BENCH_EVENTS fills fewer events for a quick look; the budget is met at the full count only.
  const total = Number(process.env.ANALYTICS_BENCH_EVENTS) || ANALYTICS_BENCH.reports.events;
  const started = performance.now();
  const firstDay = Date.UTC(2025, 0, 1);
  let events = 0;
  let nextReport = 500_000;
  for (const batch of yearOfEvents(total, days, firstDay)) {
    await store.recordEvents(batch.events);
    await store.recordVitals(batch.vitals);
    for (const lead of batch.leads) {
      await store.recordLead({
        leadId: lead.id,
        at: lead.at,
        form: lead.form,
        keys: lead.keys,
        spam: false,
      });
      // Most leads reach the CRM; the rest fail or wait. One in four delivered books a meeting, and
      // one meeting in ten is cancelled again.
      if (lead.id.endsWith('7') === false) {
        await store.recordLeadDelivered(lead.id, lead.at + 2_000);
        if (lead.id.endsWith('1') || lead.id.endsWith('4') || lead.id.endsWith('8')) {
          await store.recordMeeting(lead.id, lead.at + 600_000, true);
          if (lead.id.endsWith('31')) await store.recordMeeting(lead.id, lead.at + 900_000, false);
        }
      }
    }
    events += batch.events.length;
    if (events >= nextReport) {
      const seconds = (performance.now() - started) / 1000;
      log(`  ${(events / 1e6).toFixed(1)} million events in ${seconds.toFixed(0)} s (${Math.round(events / seconds)} events/s)`);
      nextReport += 500_000;
    }
  }
  return { events, seconds: (performance.now() - started) / 1000 };
}

async function time(name: string, run: () => Promise<unknown>): Promise<Timing> {
  await run();
  const samples: number[] = [];
  for (let index = 0; index < ANALYTICS_BENCH.reports.runs; index++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (share: number) => samples[Math.min(samples.length - 1, Math.floor(share * samples.length))]!;
  return { name, medianMs: at(0.5), p95Ms: at(0.95), maxMs: samples[samples.length - 1]! };
}

/** The summary's filters the bench times: none, each kind alone, and the largest values combined. */
const SUMMARY_FILTERS: readonly (readonly [string, AnalyticsFilter])[] = [
  ['no filter', {}],
  ['campaign', { campaign: 'campaign-1' }],
  ['no campaign (most rows)', { campaign: '' }],
  ['source', { source: 'site-1.example.org' }],
  ['entry page', { page: '/' }],
  ['form', { form: 'home' }],
  ['source, entry page and form', { source: 'newsletter', page: '/', form: 'home' }],
];

async function measureReports(store: AnalyticsStore): Promise<Timing[]> {
  const first = Date.UTC(2025, 0, 1);
  const year: DayRange = { from: saltDay(first), to: saltDay(first + (ANALYTICS_BENCH.reports.days - 1) * DAY_MS) };
  const month: DayRange = { from: saltDay(first + (ANALYTICS_BENCH.reports.days - 30) * DAY_MS), to: year.to };
  const funnel = await store.funnel(year, 'none');
  if (funnel.length === 0 || (await store.pageTotals(year)).length === 0)
    throw new Error('The filled store reports nothing: the fill or the queries are wrong');
  const summary = await analyticsSummary(store, year, {});
  if (summary.conversions.length === 0 || !summary.figures.every((figure) => (figure.value ?? 0) > 0))
    throw new Error('The filled store has no summary: the fill or the summary queries are wrong');
  const timings: Timing[] = [];
  for (const [label, range] of [
    ['year', year],
    ['30 days', month],
  ] as const) {
    timings.push(
      await time(`Visitors and page views per day (${label})`, () => store.dayTotals(range)),
      await time(`Pages (${label})`, () => store.pageTotals(range)),
      await time(`Referrers (${label})`, () => store.referrerTotals(range)),
      await time(`Campaigns (${label})`, () => store.campaignTotals(range)),
      await time(`Entry pages (${label})`, () => store.entryTotals(range)),
    );
    for (const split of FUNNEL_SPLITS) timings.push(await time(`Funnel, split ${split} (${label})`, () => store.funnel(range, split)));
    // The Analytics screen's first view: key figures against the previous period, what converts and
    // the series, as the console asks for it, unfiltered and under each kind of filter.
    for (const [filterLabel, filter] of SUMMARY_FILTERS)
      timings.push(await time(`Summary, ${filterLabel} (${label})`, () => analyticsSummary(store, range, filter)));
    timings.push(
      await time(`Field speed (${label})`, () => store.vitals(range, 30)),
      await time(`Field speed of one page (${label})`, () => store.vitals(range, 30, '/')),
    );
  }
  // A year that does not start or end on a month's first or last day reads weeks and days besides months.
  const uneven: DayRange = { from: saltDay(first + DAY_MS), to: saltDay(first + (ANALYTICS_BENCH.reports.days - 2) * DAY_MS) };
  timings.push(await time('Field speed (the year less its first and last day)', () => store.vitals(uneven, 30)));
  if ((await store.vitals(year, 30)).length === 0)
    throw new Error('The filled store has no field speed: the fill or the queries are wrong');
  return timings;
}

async function benchSqlite(log: (line: string) => void): Promise<ReportBenchResult> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'analytics-report-bench-'));
  const file = path.join(folder, 'analytics.sqlite');
  try {
    log('SQLite: filling…');
    const filler = openSqliteAnalyticsStore(file);
    const filled = await fill(filler, log);
    await filler.close();
    const store = await openSqliteAnalyticsWorkerStore(file);
    try {
      return { store: 'SQLite (worker thread)', events: filled.events, fillSeconds: filled.seconds, timings: await measureReports(store) };
    } finally {
      await store.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function benchPostgres(baseUrl: string, log: (line: string) => void): Promise<ReportBenchResult> {
  const schema = `analytics_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  try {
    log('PostgreSQL: filling…');
    const store = await openPostgresAnalyticsStore(url.toString());
    try {
      const filled = await fill(store, log);
      const analyze = new pg.Client({ connectionString: url.toString() });
      await analyze.connect();
      await analyze.query('VACUUM ANALYZE');
      await analyze.end();
      return { store: 'PostgreSQL', events: filled.events, fillSeconds: filled.seconds, timings: await measureReports(store) };
    } finally {
      await store.close();
    }
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

/**
 * Both stores unless ANALYTICS_BENCH_STORES names one ("sqlite" or "postgres"), so the two fills can
 * run as two processes side by side on a machine with cores to spare.
 */
export async function runReportBench(log: (line: string) => void = console.log): Promise<ReportBenchResult[]> {
  const only = process.env.ANALYTICS_BENCH_STORES?.trim();
  const results = only === 'postgres' ? [] : [await benchSqlite(log)];
  // Each store's table as soon as it is measured: the PostgreSQL fill takes a while.
  if (results.length > 0) log(formatReportTable(results));
  const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
  if (only === 'sqlite') return results;
  if (postgresUrl) results.push(await benchPostgres(postgresUrl, log));
  else console.warn('PostgreSQL skipped: set TEST_DATABASE_URL (or DATABASE_URL) to a database the bench may add a schema to.');
  return results;
}

export function formatReportTable(results: readonly ReportBenchResult[]): string {
  const { runs, budgetMs } = ANALYTICS_BENCH.reports;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const lines = [
    `${runs} runs of each report after one warm-up; budget ${budgetMs} ms at p95.`,
    '',
    '| Store | Report | Median | p95 | Max | Budget |',
    '|---|---|--:|--:|--:|---|',
  ];
  for (const result of results)
    for (const timing of result.timings)
      lines.push(
        `| ${result.store} | ${timing.name} | ${ms(timing.medianMs)} | ${ms(timing.p95Ms)} | ${ms(timing.maxMs)} | ${timing.p95Ms <= budgetMs ? 'within' : '**over**'} |`,
      );
  lines.push(
    '',
    ...results.map(
      (result) =>
        `${result.store}: ${result.events.toLocaleString('en-US')} events counted through recordEvents in ${result.fillSeconds.toFixed(0)} s (${Math.round(result.events / result.fillSeconds).toLocaleString('en-US')} events/s).`,
    ),
  );
  return lines.join('\n');
}

export function reportsWithinBudget(results: readonly ReportBenchResult[]): boolean {
  return results.every((result) => result.timings.every((timing) => timing.p95Ms <= ANALYTICS_BENCH.reports.budgetMs));
}
