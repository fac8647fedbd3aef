// `npm run bench -- replicas [--minutes 5] [--kill-every 30]`: the chaos run at full length. Three
// servers behind HAProxy on one PostgreSQL (a schema of TEST_DATABASE_URL or DATABASE_URL), leads
// (5/s) and beacons (200/s) flowing, the CRM answering 20 % of deliveries 503 and leaving 2 %
// unanswered, every new lead e-mailed, every periodic job's period 10 s; one server SIGKILLed every
// 30 s for 5 minutes and started again, then a rolling restart; then one address sends four times
// LEAD_RATE_LIMIT, and the lead latency is measured for 15 s without and with 6,000 beacons a second.
// Exit code 1 when a goal is missed (the figures are printed either way).
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isBuild } from '../../content-model/load/build-files.ts';
import { findFreePort } from '../../server/testing/server-process.ts';
import { createSiteFixture } from '../../server/testing/site-fixture.ts';
import { formatChaosTable, runChaos, type ChaosResult } from '../cluster/chaos.ts';
import { findHaproxy, HAPROXY_MISSING } from '../cluster/topology.ts';

export const REPLICAS_BENCH_NEEDS_POSTGRES =
  'Set TEST_DATABASE_URL (or DATABASE_URL) to a PostgreSQL database the bench may add a schema to, e.g. TEST_DATABASE_URL=postgres://ci:ci@127.0.0.1:5432/leads_test.';

const LEAD_RATE_LIMIT = 30;

export async function runReplicasBench(args: readonly string[]): Promise<string> {
  const { values } = parseArgs({
    args: [...args],
    options: { minutes: { type: 'string', default: '5' }, 'kill-every': { type: 'string', default: '30' } },
  });
  const minutes = Number(values.minutes);
  const killEvery = Number(values['kill-every']);
  if (!(minutes > 0) || !(killEvery > 0)) throw new Error('--minutes and --kill-every must be positive numbers.');
  const databaseUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
  if (!databaseUrl) {
    process.exitCode = 1;
    return `Replicas: not run. ${REPLICAS_BENCH_NEEDS_POSTGRES}`;
  }
  if (findHaproxy() === undefined) {
    process.exitCode = 1;
    return `Replicas: not run. ${HAPROXY_MISSING}`;
  }
  const builtSite = isBuild(path.resolve('dist'));
  const fixture = builtSite ? undefined : await createSiteFixture();
  const runDir = await mkdtemp(path.join(os.tmpdir(), 'replicas-bench-'));
  try {
    const ports = [await findFreePort(), await findFreePort(), await findFreePort(), await findFreePort()];
    const result = await runChaos({
      databaseUrl,
      distDir: fixture?.distDir ?? path.resolve('dist'),
      runDir,
      balancerPort: ports[0]!,
      serverPorts: ports.slice(1),
      chaosSeconds: minutes * 60,
      killEverySeconds: killEvery,
      leadsPerSecond: 5,
      beaconsPerSecond: 200,
      jobPeriodSeconds: 10,
      leadRateLimit: LEAD_RATE_LIMIT,
      rateProbeLeads: 4 * LEAD_RATE_LIMIT,
      flood: { seconds: 15, beaconsPerSecond: 6_000, leadsPerSecond: 20 },
      crmFailures: { unavailable: 0.2, hang: 0.02 },
      settleTimeoutMs: 180_000,
      log: (line) => console.log(line),
    });
    if (!goalsMet(result)) process.exitCode = 1;
    return `Several servers (replicas) under chaos (logs kept in ${runDir})\n\n${formatChaosTable(result)}`;
  } finally {
    await fixture?.remove();
  }
}

/** The goals the cluster test asserts, and the bench's latency goal: p99 under the flood within twice alone. */
export function goalsMet(result: ChaosResult): boolean {
  const { leads, crm, emails, jobs, requests, rateLimit, latency } = result;
  return (
    result.unexpectedExits.length === 0 &&
    leads.acknowledgedMissing === 0 &&
    leads.storedUnacknowledged === 0 &&
    leads.storedTwice === 0 &&
    crm.never === 0 &&
    crm.twiceOtherwise === 0 &&
    emails.never === 0 &&
    emails.queued === 0 &&
    emails.twiceOtherwise === 0 &&
    jobs.length > 0 &&
    jobs.every((job) => job.periodsRunTwice === 0) &&
    requests.duringRollingRestart.failed === 0 &&
    Math.abs(rateLimit.accepted - rateLimit.setting) <= Math.max(1, Math.round(rateLimit.setting * 0.05)) &&
    latency.underFlood.p99 <= 2 * latency.alone.p99
  );
}
