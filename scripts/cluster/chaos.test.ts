import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../server/testing/server-process.ts';
import { createSiteFixture, type SiteFixture } from '../../server/testing/site-fixture.ts';
import { POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from '../../server/testing/store-harness.ts';
import { formatChaosTable, runChaos, type ChaosResult } from './chaos.ts';
import { findHaproxy, HAPROXY_MISSING } from './topology.ts';

// The replicas bench, short: three servers behind HAProxy on one PostgreSQL, a server SIGKILLed every
// 10 s three times and started again, then a rolling restart, with leads and beacons flowing and the
// CRM failing at times. It proves what the servers promise together: every acknowledged lead stored,
// each delivered and e-mailed once (once more at most for one in flight when its server was killed),
// every job once per period, no request lost in a rolling restart, and one rate limit for them all.
// It uses the fixture build (`npm run build` runs after the unit tests) and prints the figures.

const required = process.env.REQUIRE_POSTGRES === '1';
const haproxy = findHaproxy();
const skipReason =
  TEST_DATABASE_URL === undefined
    ? POSTGRES_SKIP_REASON
    : haproxy === undefined
      ? `${HAPROXY_MISSING} The cluster test is skipped.`
      : undefined;
if (skipReason !== undefined && !required) console.warn(`[skipped] cluster chaos test: ${skipReason}`);

const LEAD_RATE_LIMIT = 30;

describe.skipIf(skipReason !== undefined && !required)('three servers behind HAProxy, killed and restarted', () => {
  let fixture: SiteFixture;
  let runDir: string;
  let result: ChaosResult;

  beforeAll(async () => {
    if (TEST_DATABASE_URL === undefined) throw new Error(POSTGRES_SKIP_REASON);
    if (haproxy === undefined) throw new Error(HAPROXY_MISSING);
    fixture = await createSiteFixture();
    runDir = await mkdtemp(path.join(tmpdir(), 'cluster-chaos-'));
    const ports = [await findFreePort(), await findFreePort(), await findFreePort(), await findFreePort()];
    result = await runChaos({
      databaseUrl: TEST_DATABASE_URL,
      distDir: fixture.distDir,
      runDir,
      balancerPort: ports[0]!,
      serverPorts: ports.slice(1),
      chaosSeconds: 30,
      killEverySeconds: 10,
      leadsPerSecond: 4,
      beaconsPerSecond: 40,
      jobPeriodSeconds: 5,
      drainSeconds: 4,
      leadRateLimit: LEAD_RATE_LIMIT,
      rateProbeLeads: 4 * LEAD_RATE_LIMIT,
      flood: { seconds: 3, beaconsPerSecond: 800, leadsPerSecond: 5 },
      crmFailures: { unavailable: 0.2, hang: 0.01 },
      // A lead or e-mail held by a killed server waits out its lease (60 s, 2 min) before another takes it.
      settleTimeoutMs: 150_000,
      log: (line) => console.log(`[chaos] ${line}`),
    });
    console.log(`\n${formatChaosTable(result)}\n`);
    // The run's folder is removed afterwards: a server that stopped by itself leaves its last log lines here.
    for (const name of new Set(result.unexpectedExits.map((exit) => exit.split(' ')[0]!))) {
      const lines = await readFile(path.join(runDir, `${name}.log`), 'utf8').then(
        (text) => text.trimEnd().split('\n').slice(-20),
        () => [],
      );
      console.log(`[chaos] the last lines of ${name}'s log:\n${lines.join('\n')}`);
    }
  }, 330_000);

  afterAll(async () => {
    await fixture?.remove();
    if (runDir !== undefined) await rm(runDir, { recursive: true, force: true });
  });

  it('kept running: no server stopped on its own, and each left the rolling restart with exit code 0', () => {
    expect(result.kills).toBe(3);
    expect(result.unexpectedExits).toEqual([]);
    expect(result.rollingExitCodes).toEqual([0, 0, 0]);
  });

  it('stored every lead it acknowledged, and acknowledged every lead it stored, each once', () => {
    const { leads } = result;
    expect(leads.acknowledged).toBeGreaterThan(100);
    expect(leads).toMatchObject({ acknowledgedMissing: 0, storedUnacknowledged: 0, storedTwice: 0, gaveUp: 0 });
    expect(leads.stored).toBe(leads.acknowledged);
  });

  it('delivered every stored lead to the CRM with one 2xx (a second only after its sender was killed and its lease ran out)', () => {
    expect(result.crm.unavailable).toBeGreaterThan(0);
    expect(result.crm).toMatchObject({ never: 0, twiceOtherwise: 0 });
    expect(result.crm.once + result.crm.twice).toBe(result.leads.stored);
  });

  it('sent one new-lead e-mail per stored lead (a second only after its sender was killed and its lease ran out)', () => {
    expect(result.emails).toMatchObject({ never: 0, queued: 0, twiceOtherwise: 0 });
  });

  it('ran every background job once per period across the servers', () => {
    expect(result.jobs.length, 'no server logged "job run finished"').toBeGreaterThan(0);
    for (const job of result.jobs) expect(job, job.job).toMatchObject({ periodsRunTwice: 0 });
  });

  it('failed no request during the rolling restart', () => {
    expect(result.requests.duringRollingRestart.total).toBeGreaterThan(0);
    expect(result.requests.duringRollingRestart.failures).toEqual({});
  });

  it('held one address to LEAD_RATE_LIMIT across the three servers, within a few percent', () => {
    const { accepted, setting } = result.rateLimit;
    expect(Math.abs(accepted - setting)).toBeLessThanOrEqual(Math.max(1, Math.round(setting * 0.05)));
  });
});
