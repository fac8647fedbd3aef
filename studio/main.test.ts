import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';

// The real process, `node studio/main.ts`, meeting a port another program holds: one plain sentence
// and exit 1 within seconds, never a stack trace.

const NODE = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

let workDir: string;
let blocker: Server;
beforeEach(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'studio-main-'));
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
});
afterEach(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  await rm(workDir, { recursive: true, force: true });
});

it('exits 1 with one plain sentence when the studio port is taken', async () => {
  const { port } = blocker.address() as AddressInfo;
  const started = Date.now();
  const child = spawn(NODE, [MAIN], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH ?? '',
      STUDIO_PORT: String(port),
      // A prebuilt app (here an empty folder) skips building the browser app: the test is about listening.
      STUDIO_APP_DIR: workDir,
      LEADS_DB_FILE: path.join(workDir, 'leads.sqlite'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(1);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(stderr).toBe(`The studio did not start: 127.0.0.1:${port} is already in use: stop the other studio or set STUDIO_PORT\n`);
});
