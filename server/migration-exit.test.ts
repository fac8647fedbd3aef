import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.ts';
import { LEAD_SCHEMA_VERSIONS } from './store/lead-schema.ts';
import { MIGRATION_LOCK_ID } from './store/postgres-store.ts';
import { findFreePort, NODE_BINARY, parseLogLines, SERVER_MAIN, startServerProcess, type ServerProcess } from './testing/server-process.ts';
import { createSiteFixture, type SiteFixture } from './testing/site-fixture.ts';
import { announceSkip, ownPostgresDatabase, postgresHarness, type StoreHarness, type StoreDatabase } from './testing/store-harness.ts';

// `node server/main.ts` on a PostgreSQL database it must not (or cannot yet) migrate: one sentence on
// stderr and an exit code that tells a supervisor whether starting again can help, never a crash loop
// on a false "cannot be reached". `npm run leads` opens the same store and says the same. Each test has
// a PostgreSQL database of its own: the migration lock is per database, and another suite migrating
// its schema meanwhile would make a start wait (and say so) here.

const LATEST = LEAD_SCHEMA_VERSIONS.length;
const LEADS_CLI = fileURLToPath(new URL('./cli/leads.ts', import.meta.url));
const PROCESS_TEST_TIMEOUT_MS = 60_000;

type Ended = { code: number | null; stdout: string; stderr: string; endedAt: number };

let fixture: SiteFixture;
let workDir: string;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  fixture = await createSiteFixture();
  workDir = await mkdtemp(path.join(tmpdir(), 'migration-exit-'));
});
afterAll(async () => {
  await fixture.remove();
  await rm(workDir, { recursive: true, force: true });
});
afterEach(() => {
  for (const server of servers.splice(0))
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});

/** Runs `node <script> …args` to its end (at most 30 s). */
async function run(script: string, args: string[], env: Record<string, string>): Promise<Ended> {
  const child = spawn(NODE_BINARY, [script, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(await findFreePort()), DIST_DIR: fixture.distDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(kill);
  return { code, stdout, stderr, endedAt: Date.now() };
}

function expectOneSentence(stderr: string, sentence: string | RegExp): void {
  expect(stderr.endsWith('\n')).toBe(true);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  if (typeof sentence === 'string') expect(stderr.trimEnd()).toBe(sentence);
  else expect(stderr.trimEnd()).toMatch(sentence);
}

announceSkip(postgresHarness);

describe.skipIf(postgresHarness.skipReason !== undefined)('starting on a PostgreSQL database that refuses', () => {
  let own: { harness: StoreHarness; drop(): Promise<void> };
  let database: StoreDatabase;
  beforeAll(async () => {
    own = await ownPostgresDatabase();
  }, 60_000);
  afterAll(async () => {
    await own.drop();
  }, 60_000);
  beforeEach(async () => {
    database = await own.harness.createDatabase();
  });
  afterEach(async () => {
    await database.remove();
  });

  async function versionOf(): Promise<number> {
    return Math.max(...((await database.rows()).schema_migrations ?? []).map((row) => Number((row as { version: number }).version)));
  }

  it(
    'exits 65 on a database newer than this release, and `npm run leads` says the same',
    async () => {
      await (await database.open()).close();
      await database.execute(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from a later release', 0)`);
      const sentence =
        `The lead database is at schema version 99, newer than this release knows (${LATEST}): ` +
        'run the release that migrated it, or a later one, instead of this one.';

      const server = await run(SERVER_MAIN, [], { ...database.serverEnv, LOG_LEVEL: 'silent' });
      expect(server.code).toBe(EXIT_CODES.databaseNewer);
      expectOneSentence(server.stderr, sentence);

      const cli = await run(LEADS_CLI, ['list'], database.serverEnv);
      expect(cli.code).toBe(EXIT_CODES.databaseNewer);
      expectOneSentence(cli.stderr, sentence);
      expect(await versionOf()).toBe(99);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'exits 70 when a migration fails, keeping the database at its version with no table of the failed one',
    async () => {
      await (await database.openAtVersion(LATEST - 1)).close();
      await database.execute('CREATE TABLE job_runs (made_by_hand INTEGER)');
      // The analytics store (its own versions and lock) is migrated before the lead store: leave its tables out.
      const leadTables = async () =>
        Object.keys(await database.rows())
          .filter((table) => !table.startsWith('analytics_'))
          .sort();
      const tablesBefore = await leadTables();

      const server = await run(SERVER_MAIN, [], { ...database.serverEnv, LOG_LEVEL: 'silent' });
      expect(server.code).toBe(EXIT_CODES.migrationFailed);
      expectOneSentence(
        server.stderr,
        new RegExp(
          `^Migrating the lead database to schema version ${LATEST} failed \\(relation "job_runs" already exists\\), and nothing of it was kept: ` +
            `the database is still at version ${LATEST - 1}; fix what the error names, or run the release before this one\\.$`,
        ),
      );
      expect(await versionOf()).toBe(LATEST - 1);
      expect(await leadTables()).toEqual(tablesBefore);
      // The table made by hand is as it was: the migration's own job_runs never replaced it.
      const client = new pg.Client({ connectionString: database.serverEnv.DATABASE_URL });
      await client.connect();
      try {
        const { rows: columns } = await client.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'job_runs' AND table_schema = current_schema()`,
        );
        expect(columns.map((column) => column.column_name)).toEqual(['made_by_hand']);
      } finally {
        await client.end();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'exits 75 within the wait when another server holds the migration lock, saying once that it waits',
    async () => {
      const holder = new pg.Client({ connectionString: database.serverEnv.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        const env = { ...database.serverEnv, MIGRATION_LOCK_WAIT_SECONDS: '2' };
        const sentence =
          "Another server held the lead database's migration lock for more than 2 s (MIGRATION_LOCK_WAIT_SECONDS): " +
          'start this one again once that server has finished migrating.';

        const server = await run(SERVER_MAIN, [], env);
        expect(server.code).toBe(EXIT_CODES.migrationLockBusy);
        expectOneSentence(server.stderr, sentence);
        const waiting = parseLogLines(server.stdout).filter((line) => String(line.msg).startsWith('another server is migrating'));
        expect(waiting.map((line) => line.msg)).toEqual(['another server is migrating the lead database: waiting up to 2 s']);
        // From the moment it began to wait (the process's own start-up aside), it gave up after the 2 s.
        const waitedMs = server.endedAt - Number(waiting[0]!.time);
        expect(waitedMs).toBeGreaterThanOrEqual(1_900);
        expect(waitedMs).toBeLessThan(2_000 + 1_500);

        const cli = await run(LEADS_CLI, ['list'], env);
        expect(cli.code).toBe(EXIT_CODES.migrationLockBusy);
        expect(cli.stderr).toBe(`Another server is migrating the lead database: waiting up to 2 s.\n${sentence}\n`);
      } finally {
        await holder.end();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'brings up two servers started at once on an empty database: one migrates, the other waits and finds nothing to do',
    async () => {
      const env = { ...database.serverEnv, DIST_DIR: fixture.distDir };
      const both = await Promise.all([startServerProcess(env, workDir), startServerProcess(env, workDir)]);
      servers.push(...both);
      for (const server of both) expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      expect(await versionOf()).toBe(LATEST);
      expect(((await database.rows()).schema_migrations ?? []).length).toBe(LATEST);
      for (const server of both) server.child.kill('SIGTERM');
      expect(await Promise.all(both.map((server) => server.exited))).toEqual([0, 0]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
