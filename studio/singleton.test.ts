import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSchema, POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from '../server/testing/store-harness.ts';

// One studio per site, with real processes (`node studio/main.ts`): a second studio on the same lead
// store is refused with one sentence and exit code 1 while the first carries on, and once the first
// is killed (SIGKILL: no clean-up of its own) a new one starts at once. On SQLite (LEADS_DB_FILE) and
// on PostgreSQL (DATABASE_URL, with TEST_DATABASE_URL).

const NODE = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
/** The first half of the one-studio lock's key on PostgreSQL (the second is the schema's hash). */
const STUDIO_LOCK_CLASS = 4_201_740;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Studio = { child: ChildProcess; port: number; exited: Promise<number | null>; output: () => string };

async function startStudio(workDir: string, store: Record<string, string>): Promise<Studio> {
  const port = await freePort();
  const child = spawn(NODE, [MAIN], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH ?? '',
      STUDIO_PORT: String(port),
      // A prebuilt app (here an empty folder) skips building the browser app: the test is about starting.
      STUDIO_APP_DIR: workDir,
      LEADS_DB_FILE: path.join(workDir, 'leads.sqlite'),
      ...store,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await Promise.race([
    exited,
    new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (output.includes('Content studio ready')) {
          clearInterval(check);
          resolve();
        }
      }, 20);
      void exited.then(() => clearInterval(check));
    }),
  ]);
  return { child, port, exited, output: () => output };
}

const ENGINES = [
  { kind: 'sqlite', skip: undefined },
  { kind: 'postgres', skip: TEST_DATABASE_URL === undefined && process.env.REQUIRE_POSTGRES !== '1' ? POSTGRES_SKIP_REASON : undefined },
] as const;

for (const engine of ENGINES) {
  describe.skipIf(engine.skip !== undefined)(`one studio per site: ${engine.kind}`, () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('refuses a second studio on the same store with one sentence and exit 1, and lets one start once the first died', async () => {
      const workDir = await mkdtemp(path.join(tmpdir(), 'studio-single-'));
      cleanups.push(() => rm(workDir, { recursive: true, force: true }));
      let store: Record<string, string> = {};
      let setting = `LEADS_DB_FILE, ${path.join(workDir, 'leads.sqlite')}`;
      if (engine.kind === 'postgres') {
        const schema = await createTestSchema(TEST_DATABASE_URL!, 'studio_single');
        cleanups.push(() => schema.drop());
        store = { DATABASE_URL: schema.url.toString() };
        setting = 'DATABASE_URL';
      }
      const stopAll: Studio[] = [];
      cleanups.push(async () => {
        for (const studio of stopAll) {
          studio.child.kill('SIGKILL');
          await studio.exited;
        }
      });

      const first = await startStudio(workDir, store);
      stopAll.push(first);
      expect(first.output()).toContain('Content studio ready');

      const started = Date.now();
      const second = await startStudio(workDir, store);
      stopAll.push(second);
      expect(await second.exited).toBe(1);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(second.output()).toBe(
        `The studio did not start: another studio is already running on this site's lead store (${setting}), and a site has one studio: use that one, or stop it before starting this one.\n`,
      );
      // The first is unaffected.
      expect((await fetch(`http://127.0.0.1:${first.port}/api/session`)).status).toBe(200);
      expect(first.child.exitCode).toBeNull();

      // Killed without a chance to let go, the first frees the store at once: the next studio starts.
      first.child.kill('SIGKILL');
      await first.exited;
      const third = await startStudio(workDir, store);
      stopAll.push(third);
      expect(third.output()).toContain('Content studio ready');
      expect((await fetch(`http://127.0.0.1:${third.port}/api/session`)).status).toBe(200);
    }, 60_000);

    it.skipIf(engine.kind !== 'postgres')(
      'stops with one sentence and exit 1 when its connection holding the lock ends',
      async () => {
        const workDir = await mkdtemp(path.join(tmpdir(), 'studio-single-'));
        cleanups.push(() => rm(workDir, { recursive: true, force: true }));
        const schema = await createTestSchema(TEST_DATABASE_URL!, 'studio_single');
        cleanups.push(() => schema.drop());
        const studio = await startStudio(workDir, { DATABASE_URL: schema.url.toString() });
        cleanups.push(async () => {
          studio.child.kill('SIGKILL');
          await studio.exited;
        });
        expect(studio.output()).toContain('Content studio ready');

        // The database ends the session holding the lock (a restart of PostgreSQL does the same).
        const admin = new pg.Client({ connectionString: schema.url.toString() });
        await admin.connect();
        try {
          const { rows } = await admin.query<{ ended: boolean }>(
            `SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
           WHERE locktype = 'advisory' AND classid = $1 AND objid = hashtext($2)::oid AND granted`,
            [STUDIO_LOCK_CLASS, schema.schema],
          );
          expect(rows).toEqual([{ ended: true }]);
        } finally {
          await admin.end();
        }
        expect(await studio.exited).toBe(1);
        expect(studio.output()).toContain(
          'The studio stopped: its connection to the lead store (DATABASE_URL) ended, so it no longer knows it is the only studio; start it again.\n',
        );
      },
      60_000,
    );
  });
}
