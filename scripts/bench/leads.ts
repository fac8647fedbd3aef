import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Result } from 'autocannon';
import { ATTRIBUTION_QUERY_PARAMS } from '../../lead/attribution.ts';
import { LEAD_FORM_IDS } from '../../lead/rules.ts';
import { startCrmReceiver } from '../../server/testing/crm-receiver.ts';
import { validLeadBody } from '../../server/testing/lead-bodies.ts';
import { startServerProcess } from '../../server/testing/server-process.ts';
import { createSiteFixture } from '../../server/testing/site-fixture.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import { isBuild } from '../../content-model/load/build-files.ts';

// Lead-API load run: autocannon against a real server process with the SQLite store
// (WAL, synchronous=FULL: every 201 is on disk) and a local CRM receiver, while a second client keeps
// requesting a page. Everything runs on 127.0.0.1 and stops by itself.

export const LEAD_BENCH = {
  warmUpSeconds: 3,
  durationSeconds: 20,
  connections: 16,
  pageConnections: 2,
  pageRequestsPerSecond: 50,
  distinctBodies: 2_000,
  drainTimeoutMs: 60_000,
} as const;

export type LeadBenchOptions = {
  /**
   * Leads without campaign words or click ids, as sent after a reload of a page opened without them:
   * the relay once waited for the analytics (up to 250 ms) on exactly these, so this run shows that
   * they are answered as fast as any other.
   */
  readonly withoutCampaign?: boolean;
};

// Sent with every lead, as a browser does: the analytics count a request only when it names its browser.
const BENCH_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

export type LeadBenchResult = {
  readonly leads: Result;
  readonly pages: Result;
  readonly stored: number;
  readonly delivered: number;
  readonly drainMs: number;
  readonly crmRequests: number;
  readonly siteSource: string;
  readonly withoutCampaign: boolean;
  /** 1-minute load average when the run started: other work on this machine skews every figure. */
  readonly loadAtStart: number;
  /** CPU used during the measured run, in cores: the server process, this process (autocannon and the CRM receiver), everything else. */
  readonly cpuCores: { readonly server: number; readonly bench: number; readonly others: number } | undefined;
};

export async function runLeadBench(options: LeadBenchOptions = {}, log: (line: string) => void = console.log): Promise<LeadBenchResult> {
  const withoutCampaign = options.withoutCampaign ?? false;
  const loadAtStart = os.loadavg()[0] ?? 0;
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'lead-bench-'));
  const dbFile = path.join(workDir, 'leads.sqlite');
  const builtSite = isBuild(path.resolve('dist'));
  const fixture = builtSite ? undefined : await createSiteFixture();
  const distDir = fixture?.distDir ?? path.resolve('dist');
  const crm = await startCrmReceiver({ record: false });
  const server = await startServerProcess(
    { DIST_DIR: distDir, LEADS_DB_FILE: dbFile, CRM_WEBHOOK_URL: crm.url, LEAD_RATE_LIMIT: '1000000000', LOG_LEVEL: 'info' },
    workDir,
    { keepOutput: false },
  );
  try {
    const bodies = Array.from({ length: LEAD_BENCH.distinctBodies }, (_, index) => {
      const body: Record<string, unknown> = {
        ...validLeadBody(LEAD_FORM_IDS[index % LEAD_FORM_IDS.length] ?? 'home'),
        email: `bench-${index}@example.com`,
      };
      if (withoutCampaign) for (const field of ATTRIBUTION_QUERY_PARAMS) delete body[field];
      return JSON.stringify(body);
    });
    let next = 0;
    const leadRequest = {
      method: 'POST',
      path: '/api/leads',
      headers: { 'content-type': 'application/json', 'user-agent': BENCH_USER_AGENT },
      setupRequest: (request: Record<string, unknown>) => ({ ...request, body: bodies[(next += 1) % bodies.length] }),
    };
    log(`warm-up ${LEAD_BENCH.warmUpSeconds} s…`);
    await autocannon({
      url: server.baseUrl,
      connections: LEAD_BENCH.connections,
      duration: LEAD_BENCH.warmUpSeconds,
      requests: [leadRequest],
    });
    const storedBefore = await countStored(dbFile);

    log(
      `lead run ${LEAD_BENCH.durationSeconds} s, ${LEAD_BENCH.connections} connections, pages at ${LEAD_BENCH.pageRequestsPerSecond}/s alongside…`,
    );
    const cpuBefore = await sampleCpu(server.child.pid);
    const [leads, pages] = await Promise.all([
      autocannon({
        url: server.baseUrl,
        connections: LEAD_BENCH.connections,
        duration: LEAD_BENCH.durationSeconds,
        requests: [leadRequest],
      }),
      autocannon({
        url: `${server.baseUrl}/`,
        connections: LEAD_BENCH.pageConnections,
        duration: LEAD_BENCH.durationSeconds,
        overallRate: LEAD_BENCH.pageRequestsPerSecond,
      }),
    ]);
    const runEnded = Date.now();
    const cpuAfter = await sampleCpu(server.child.pid);

    // Every 201 must be in the store, and the outbox must forward every stored lead.
    let storedTotal = 0;
    let delivered = 0;
    while (Date.now() - runEnded < LEAD_BENCH.drainTimeoutMs) {
      storedTotal = await countStored(dbFile);
      delivered = await countDelivered(dbFile);
      if (delivered >= storedTotal) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      leads,
      pages,
      stored: storedTotal - storedBefore,
      delivered: delivered - storedBefore,
      drainMs: Date.now() - runEnded,
      crmRequests: crm.received(),
      siteSource: builtSite ? 'dist/ (npm run build)' : 'test fixture build',
      withoutCampaign,
      loadAtStart,
      cpuCores: describeCpu(cpuBefore, cpuAfter),
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await crm.close();
    await fixture?.remove();
    await rm(workDir, { recursive: true, force: true });
  }
}

type CpuSample = { at: number; busyMs: number; serverMs: number; benchMs: number } | undefined;

// Linux /proc accounting in clock ticks (USER_HZ, 100 a second on Linux); undefined elsewhere.
const MS_PER_TICK = 10;

async function sampleCpu(serverPid: number | undefined): Promise<CpuSample> {
  try {
    const [cpuLine] = (await readFile('/proc/stat', 'utf8')).split('\n');
    const [, user, nice, system, , , irq, softirq, steal] = (cpuLine ?? '').trim().split(/\s+/).map(Number);
    const serverStat = (await readFile(`/proc/${serverPid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
    const own = process.cpuUsage();
    return {
      at: performance.now(),
      busyMs: ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * MS_PER_TICK,
      serverMs: (Number(serverStat[11]) + Number(serverStat[12])) * MS_PER_TICK,
      benchMs: (own.user + own.system) / 1000,
    };
  } catch {
    return undefined;
  }
}

function describeCpu(before: CpuSample, after: CpuSample): LeadBenchResult['cpuCores'] {
  if (before === undefined || after === undefined) return undefined;
  const wallMs = after.at - before.at;
  const server = (after.serverMs - before.serverMs) / wallMs;
  const bench = (after.benchMs - before.benchMs) / wallMs;
  const busy = (after.busyMs - before.busyMs) / wallMs;
  return { server, bench, others: Math.max(0, busy - server - bench) };
}

async function countStored(dbFile: string): Promise<number> {
  const store = openSqliteStore(dbFile);
  try {
    return Object.values(await store.countByState()).reduce((sum, count) => sum + count, 0);
  } finally {
    await store.close();
  }
}

async function countDelivered(dbFile: string): Promise<number> {
  const store = openSqliteStore(dbFile);
  try {
    return (await store.countByState()).delivered ?? 0;
  } finally {
    await store.close();
  }
}

export function formatLeadBenchTable(result: LeadBenchResult): string {
  const { leads, pages } = result;
  const seconds = leads.duration;
  const rows = [
    ['Lead posts answered 201 per second', `${Math.round(leads['2xx'] / seconds)}`],
    ['Lead latency p50 / p99 / max', `${leads.latency.p50} ms / ${leads.latency.p99} ms / ${leads.latency.max} ms`],
    ['Lead posts: 201 / other / errors', `${leads['2xx']} / ${leads.non2xx} / ${leads.errors + leads.timeouts}`],
    ['Leads stored (durable, in SQLite)', `${result.stored}`],
    ['Leads delivered to the CRM receiver', `${result.delivered} (outbox drained ${(result.drainMs / 1000).toFixed(1)} s after the run)`],
    [
      'Page GET / alongside: req/s, p50 / p99',
      `${Math.round(pages['2xx'] / pages.duration)}/s, ${pages.latency.p50} ms / ${pages.latency.p99} ms (non-2xx ${pages.non2xx}, errors ${pages.errors})`,
    ],
  ];
  const cpu = os.cpus();
  const header = [
    `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}; ` +
      `1-minute load average ${result.loadAtStart.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end (the run itself adds about 2)`,
    `Run: ${seconds} s, ${LEAD_BENCH.connections} connections, SQLite WAL + synchronous=FULL, LOG_LEVEL=info, site from ${result.siteSource}, ` +
      (result.withoutCampaign ? 'leads without campaign words or click ids' : 'leads with campaign words'),
    result.cpuCores === undefined
      ? 'CPU use during the run: not measured (no /proc)'
      : `CPU use during the run, in cores of 2: server ${result.cpuCores.server.toFixed(2)}, autocannon + CRM receiver ${result.cpuCores.bench.toFixed(2)}, ` +
        `other processes on the machine ${result.cpuCores.others.toFixed(2)}`,
    '',
    '| Measure | Result |',
    '| --- | --- |',
    ...rows.map(([measure, value]) => `| ${measure} | ${value} |`),
  ];
  return header.join('\n');
}
