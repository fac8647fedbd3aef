import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSiteFixture } from './testing/site-fixture.ts';
import type { SiteFixture } from './testing/site-fixture.ts';

// The real process: `node server/main.ts` with the Node 24 binary the project pins.
const NODE = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const LARGE_FILE = { name: 'downloads/large.bin', bytes: 48 * 1024 * 1024 };

type Server = { child: ChildProcess; port: number; output: () => { stdout: string; stderr: string }; exited: Promise<number | null> };

let fixture: SiteFixture;
let workDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  fixture = await createSiteFixture({ largeFile: LARGE_FILE });
  // An empty working directory, so no developer `.env` leaks into these runs.
  workDir = await mkdtemp(path.join(tmpdir(), 'server-main-'));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await fixture.remove();
  await rm(workDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startServer(env: Record<string, string>, cwd = workDir): Promise<Server> {
  const port = Number(env.PORT ?? (await freePort()));
  const child = spawn(NODE, [MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), DIST_DIR: fixture.distDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, output: () => ({ stdout, stderr }), exited };
}

async function waitUntilHealthy(server: Server): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early: ${server.output().stderr}`);
    const response = await fetch(`http://127.0.0.1:${server.port}/healthz`).catch(() => undefined);
    if (response?.status === 200) {
      expect(await response.json()).toEqual({ status: 'ok' });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('server did not become healthy within 10 s');
}

function logLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('server/main.ts', () => {
  it('serves the build and logs its URL as one JSON line', async () => {
    const server = await startServer({});
    await waitUntilHealthy(server);
    const page = await fetch(`http://127.0.0.1:${server.port}/about`);
    expect(page.status).toBe(200);
    const listening = logLines(server.output().stdout).filter((line) => String(line.msg).includes(`http://127.0.0.1:${server.port}`));
    expect(listening).toHaveLength(1);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('exits 0 promptly on %s when idle', async (signal) => {
    const server = await startServer({ LOG_LEVEL: 'silent' });
    await waitUntilHealthy(server);
    const started = Date.now();
    server.child.kill(signal);
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('finishes a request that is in flight when SIGTERM arrives, refusing new connections meanwhile', async () => {
    const server = await startServer({ LOG_LEVEL: 'silent' });
    await waitUntilHealthy(server);

    // A large download read slowly stays in flight for as long as the client wants.
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet({ host: '127.0.0.1', port: server.port, path: `/${LARGE_FILE.name}` }, resolve).on('error', reject),
    );
    expect(response.statusCode).toBe(200);
    response.pause();

    server.child.kill('SIGTERM');
    // Once the listener is closed (new connections refused), the process must still be running for
    // the download in flight.
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${server.port}/healthz`).then(
            () => 'answered',
            () => 'refused',
          ),
        { timeout: 5_000 },
      )
      .toBe('refused');
    expect(server.child.exitCode).toBeNull();

    let received = 0;
    response.on('data', (chunk: Buffer) => (received += chunk.length));
    const ended = new Promise((resolve) => response.on('end', resolve));
    response.resume();
    await ended;
    expect(received).toBe(LARGE_FILE.bytes);
    expect(await server.exited).toBe(0);
  });

  it('exits 1 with a plain message when there is no build', async () => {
    const server = await startServer({ DIST_DIR: path.join(workDir, 'dist') });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr).toBe(`No build found in ${path.join(workDir, 'dist')}/: run \`npm run build\` first\n`);
  });

  it('exits 1 listing every invalid setting', async () => {
    const server = await startServer({ PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr).toBe(
      'Invalid configuration:\n' +
        '  - PORT must be a whole number between 1 and 65535, got "abc"\n' +
        '  - LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"\n',
    );
  });

  it('exits 1 with a plain message when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const server = await startServer({ PORT: String(port) });
      expect(await server.exited).toBe(1);
      expect(server.output().stderr).toBe(`127.0.0.1:${port} is already in use: stop the other server or set PORT\n`);
    } finally {
      blocker.close();
    }
  });

  it('reads .env from the working directory without overriding real environment variables', async () => {
    const envDir = await mkdtemp(path.join(tmpdir(), 'server-env-'));
    try {
      await writeFile(path.join(envDir, '.env'), `DIST_DIR=${fixture.distDir}\nPORT=1\nLOG_LEVEL=silent\n`);
      const port = await freePort();
      // DIST_DIR is left to .env; PORT from the real environment wins over the file's PORT=1.
      const child = spawn(NODE, [MAIN], { cwd: envDir, env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: 'ignore' });
      children.push(child);
      const server: Server = {
        child,
        port,
        output: () => ({ stdout: '', stderr: '' }),
        exited: new Promise((resolve) => child.on('exit', resolve)),
      };
      await waitUntilHealthy(server);
      child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await rm(envDir, { recursive: true, force: true });
    }
  });
});
