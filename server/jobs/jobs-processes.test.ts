// Three real server processes on one PostgreSQL database, each running every background job, with
// JOB_PERIOD_SECONDS=2 so a period passes every 2 seconds; one is killed with SIGKILL half-way. Every
// (job, period) is finished once across the three logs, each period while servers ran is finished
// (unless its run died with the killed server, whose row then still says so), the rows match the
// lines, and the retention purge wrote one audit entry per period it ran.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../store/database.ts';
import { fixedPeriods } from './periods.ts';
import { HELD_LOOP_PERIOD } from './job-runner.ts';
import { parseLogLines, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { createSiteFixture, type SiteFixture } from '../testing/site-fixture.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../testing/smtp-receiver.ts';
import { postgresHarness, type StoreDatabase } from '../testing/store-harness.ts';

const PERIOD_SECONDS = 2;
const RUN_MS = 12_000;
const PERIODIC_JOBS = ['retention', 'analytics-forgetting', 'spam-daily', 'weekly-summary'];
const LOOPS = ['notifier-scan', 'escalation'];
// Three server starts on a machine shared with other work, 12 s of jobs, and the stops.
const TEST_TIMEOUT_MS = 120_000;
const SERVERS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let fixture: SiteFixture;
let smtp: SmtpReceiver;
let database: StoreDatabase | undefined;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(async () => {
  await fixture.remove();
});
afterEach(async () => {
  for (const server of servers.splice(0))
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await smtp?.close();
  await database?.remove();
  database = undefined;
});

type Finished = { job: string; period: string; holder: string; server: number };

describe('every background job once across three servers on PostgreSQL', () => {
  it.skipIf(postgresHarness.skipReason)(
    'finishes each job once per period, through a SIGKILL of one server',
    async () => {
      database = await postgresHarness.createDatabase();
      smtp = await startSmtpReceiver();
      const env = {
        ...database.serverEnv,
        DIST_DIR: fixture.distDir,
        JOB_PERIOD_SECONDS: String(PERIOD_SECONDS),
        SMTP_URL: smtp.url,
        NOTIFY_TO: 'sales@example.com',
        LOG_LEVEL: 'info',
        DRAIN_SECONDS: '0',
      };
      // Each on a free port, so the test never collides with another running beside it.
      for (let started = 0; started < SERVERS; started += 1) servers.push(await startServerProcess(env, process.cwd()));
      const allUp = Date.now();
      await sleep(RUN_MS / 2);
      const killed = servers[1]!;
      killed.child.kill('SIGKILL');
      await killed.exited;
      const killedAt = Date.now();
      await sleep(RUN_MS / 2);
      const stoppedAt = Date.now();
      for (const server of [servers[0]!, servers[2]!]) server.child.kill('SIGTERM');
      expect(await Promise.all([servers[0]!.exited, servers[2]!.exited])).toEqual([0, 0]);

      const lines = servers.map((server) => parseLogLines(server.output().stdout));
      const finished: Finished[] = lines.flatMap((log, server) =>
        log
          .filter((line) => line.msg === 'job run finished')
          .map((line) => ({ job: String(line.job), period: String(line.period), holder: String(line.holder), server })),
      );

      // Each (job, period) finished once across the three logs.
      const counts = new Map<string, number>();
      for (const { job, period } of finished) counts.set(`${job} ${period}`, (counts.get(`${job} ${period}`) ?? 0) + 1);
      expect([...counts].filter(([, count]) => count !== 1)).toEqual([]);
      // More than one server did some of the work: the runs are shared, not one server's.
      expect(new Set(finished.map((run) => run.server)).size).toBeGreaterThan(1);

      const store: Database = await database.open();
      const rows = await store.listJobRuns();
      // The rows say the same: each finished line is a done row, and each done row has its line.
      const done = rows.filter((row) => row.state === 'done' && row.period !== HELD_LOOP_PERIOD);
      expect(done.map((row) => `${row.job} ${row.period}`).sort()).toEqual([...counts.keys()].sort());

      // Every period that began and ended while servers ran was finished, unless its run died with
      // the killed server (its row is then still running, held by that server).
      const survivors = new Set(finished.filter((run) => run.server !== 1).map((run) => run.holder));
      const periods = fixedPeriods(PERIOD_SECONDS);
      const expected: string[] = [];
      for (let period = periods(allUp + PERIOD_SECONDS * 1000); period.end <= stoppedAt - 500; period = periods(period.end)) {
        expected.push(period.key);
      }
      expect(expected.length).toBeGreaterThanOrEqual(4);
      for (const job of PERIODIC_JOBS) {
        const missing = expected.filter((period) => !counts.has(`${job} ${period}`));
        const diedWithTheKilled = rows.filter(
          (row) => row.job === job && missing.includes(row.period) && row.state === 'running' && !survivors.has(row.holder),
        );
        expect({ job, missing }).toEqual({ job, missing: diedWithTheKilled.map((row) => row.period) });
        // At most the one run under way when the server died.
        expect(missing.length).toBeLessThanOrEqual(1);
      }

      // The retention purge's audit entry: one per period it ran, none twice in a period.
      const audit = (await store.listAudit(undefined, 200)).entries.filter((entry) => entry.action === 'retention.purge');
      const auditPeriods = audit.map((entry) => periods(entry.at).key).sort();
      expect(auditPeriods).toEqual(
        finished
          .filter((run) => run.job === 'retention')
          .map((run) => run.period)
          .sort(),
      );

      // Each held loop was held by one server at a time: before the kill, only one server took it.
      for (const job of LOOPS) {
        const takers = lines
          .map((log, server) => ({
            server,
            taken: log.filter(
              (line) => line.msg === 'job lease taken: this server runs it' && line.job === job && Number(line.time) < killedAt,
            ),
          }))
          .filter(({ taken }) => taken.length > 0);
        expect(takers.map(({ server }) => server)).toHaveLength(1);
        expect(rows.filter((row) => row.job === job).map((row) => row.period)).toEqual([HELD_LOOP_PERIOD]);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
