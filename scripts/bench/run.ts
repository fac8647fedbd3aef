import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { formatIngestTable, formatReportTable, reportsWithinBudget, runIngestBench, runReportBench } from './analytics.ts';
import { formatConsoleBenchTable, runConsoleBench, withinBudget } from './console.ts';
import { formatLeadBenchTable, runLeadBench } from './leads.ts';
import {
  formatSpeedBenchTable,
  runSpeedToLeadBench,
  SPEED_BENCH_NEEDS_POSTGRES,
  speedBenchDatabaseUrl,
  speedGoalsMet,
} from './speed-to-lead.ts';
import { runReplicasBench } from './replicas.ts';
import { runStudioBench } from './studio.ts';

/** Runs a bench script in its own process (it prints its own table) and reports how it ended. */
function runScript(script: string, title: string): Promise<string> {
  const result = spawnSync(process.execPath, [path.join(import.meta.dirname, script)], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${title} failed with exit code ${result.status}`);
  return Promise.resolve(`${title}: table above (also written to docs/performance.md with --write-docs).`);
}

// `npm run bench [-- <name>… [--option value…]]`: every load run (or only the named ones), each
// printing its table. Options after the names go to the runs that take them (replicas). Not part of
// `npm test`. Add a run by adding an entry.

const args = process.argv.slice(2);
const firstOption = args.findIndex((arg) => arg.startsWith('--'));
const requested = firstOption === -1 ? args : args.slice(0, firstOption);
const options = firstOption === -1 ? [] : args.slice(firstOption);

const BENCHES: Record<string, () => Promise<string>> = {
  leads: async () => `Lead API (POST /api/leads)\n\n${formatLeadBenchTable(await runLeadBench())}`,
  // The same, every lead without campaign words (sent after a reload): no slower than the others.
  'leads-without-campaign': async () =>
    `Lead API (POST /api/leads), leads without campaign words\n\n${formatLeadBenchTable(await runLeadBench({ withoutCampaign: true }))}`,
  // Lighthouse per route, mobile and desktop, against the existing build (run `npm run build` first).
  pages: () => runScript('lighthouse.ts', 'Pages (Lighthouse)'),
  // The content studio: keystroke to preview, and publish to live (on a copy of this checkout).
  studio: runStudioBench,
  // The console's inbox at a million leads, on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
  console: async () => {
    const results = await runConsoleBench();
    if (!withinBudget(results)) process.exitCode = 1;
    return `Console inbox at a million leads\n\n${formatConsoleBenchTable(results)}`;
  },
  // Analytics: beacons at 6,000/s beside leads (lead latency alone and under them), then every report
  // over ten million events on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
  analytics: async () => {
    const ingest = await runIngestBench();
    const reports = await runReportBench();
    if (!reportsWithinBudget(reports) || ingest.countedPerSecond < 5_000) process.exitCode = 1;
    return `Analytics ingest beside leads\n\n${formatIngestTable(ingest)}\n\nAnalytics reports at ten million events\n\n${formatReportTable(reports)}`;
  },
  // Only the first part of the above: lead latency alone, under the beacons and beside a 429 flood.
  'analytics-ingest': async () => {
    const ingest = await runIngestBench();
    if (ingest.countedPerSecond < 5_000 || ingest.leadsStored < ingest.leadsAnswered) process.exitCode = 1;
    return `Analytics ingest beside leads\n\n${formatIngestTable(ingest)}`;
  },
  // Speed to lead: a seeded week of 1,000 leads through two server processes on one PostgreSQL
  // (TEST_DATABASE_URL or DATABASE_URL): assignment times, the escalation ladder, duplicate notices,
  // and the console's speed figures against the bench's own computation.
  'speed-to-lead': async () => {
    if (speedBenchDatabaseUrl() === undefined) {
      process.exitCode = 1;
      return `Speed to lead: not run. ${SPEED_BENCH_NEEDS_POSTGRES}`;
    }
    const result = await runSpeedToLeadBench();
    if (!speedGoalsMet(result)) process.exitCode = 1;
    return `Speed to lead\n\n${formatSpeedBenchTable(result)}`;
  },
  // Three servers behind HAProxy on one PostgreSQL, killed and restarted under leads and beacons:
  // every lead stored and delivered once, jobs once per period, the shared rate limit, lead latency
  // beside a beacon flood (`--minutes 5 --kill-every 30`; needs TEST_DATABASE_URL or DATABASE_URL).
  replicas: () => runReplicasBench(options),
};

const unknown = requested.filter((name) => !Object.hasOwn(BENCHES, name));
if (unknown.length > 0) {
  console.error(`Unknown bench ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
for (const name of requested.length > 0 ? requested : Object.keys(BENCHES)) {
  console.log(`\n${await BENCHES[name]!()}\n`);
}
