import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
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
    // No drain unless a test asks for one: these tests' SIGTERM means "stop now".
    env: { PATH: process.env.PATH ?? '', PORT: String(port), DIST_DIR: fixture.distDir, DRAIN_SECONDS: '0', ...env },
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

/** How a start that must fail ended: its exit code, how long it took, and what it printed on stderr. */
async function failedStart(env: Record<string, string>): Promise<{ code: number | null; ms: number; stderr: string }> {
  const started = Date.now();
  const server = await startServer({ LOG_LEVEL: 'info', ...env });
  const code = await server.exited;
  return { code, ms: Date.now() - started, stderr: server.output().stderr };
}

/** A TCP server that takes connections and never says a word: a database that does not answer. */
async function silentServer(): Promise<{ port: number; connections: () => number; close: () => void }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => sockets.size,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('a start that cannot succeed', () => {
  // One plain sentence an operator can act on: no stack trace, no JSON log line, no second line.
  function expectOnePlainLine(stderr: string, says: RegExp) {
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/^\s+at |\{"level"/m);
    expect(stderr).toMatch(says);
  }

  it('ends at once when the lead database folder cannot be created', async () => {
    const result = await failedStart({ LEADS_DB_FILE: '/proc/no-such-folder/leads.sqlite' });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(10_000);
    expectOnePlainLine(
      result.stderr,
      /^The (lead|analytics) database \((LEADS|ANALYTICS)_DB_FILE.*\) cannot be opened at \/proc\/no-such-folder\/\w+\.sqlite: the folder \/proc\/no-such-folder cannot be created \(ENOENT\)$/m,
    );
  });

  it('ends at once when the lead database path runs through a file', async () => {
    const file = path.join(workDir, 'a-file');
    await writeFile(file, 'not a folder');
    const result = await failedStart({ LEADS_DB_FILE: path.join(file, 'leads.sqlite') });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(10_000);
    expectOnePlainLine(
      result.stderr,
      new RegExp(
        `^The (lead|analytics) database \\((LEADS|ANALYTICS)_DB_FILE.*\\) cannot be opened at ${file}/\\w+\\.sqlite: ${file} is a file, not a folder$`,
        'm',
      ),
    );
  });

  it('ends at once when PostgreSQL refuses the connection', async () => {
    const port = await freePort();
    const result = await failedStart({ DATABASE_URL: `postgres://leads:secret-pw@127.0.0.1:${port}/leads` });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(10_000);
    expectOnePlainLine(
      result.stderr,
      new RegExp(`^The database in DATABASE_URL cannot be reached at 127\\.0\\.0\\.1:${port}: nothing accepts connections there`),
    );
    expect(result.stderr).not.toContain('secret-pw');
  });

  it('ends within seconds when PostgreSQL takes the connection but never answers', async () => {
    const silent = await silentServer();
    try {
      const result = await failedStart({ DATABASE_URL: `postgres://leads:secret-pw@127.0.0.1:${silent.port}/leads` });
      expect(result.code).toBe(1);
      expect(result.ms).toBeLessThan(20_000);
      expectOnePlainLine(
        result.stderr,
        new RegExp(
          `^The database in DATABASE_URL cannot be reached at 127\\.0\\.0\\.1:${silent.port}: the server took the connection but did not answer in time$`,
          'm',
        ),
      );
    } finally {
      silent.close();
    }
  });

  it('ends at once when HOST is a name that does not resolve', async () => {
    const result = await failedStart({ HOST: 'no-such-host.invalid' });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(10_000);
    expectOnePlainLine(
      result.stderr,
      /^HOST "no-such-host\.invalid" does not resolve to an address \((ENOTFOUND|EAI_AGAIN)\): set HOST to an address of this machine/,
    );
  });

  it('ends on SIGTERM while it is still starting', async () => {
    const silent = await silentServer();
    try {
      const server = await startServer({ DATABASE_URL: `postgres://leads:pw@127.0.0.1:${silent.port}/leads`, LOG_LEVEL: 'silent' });
      // It is waiting for the database's answer: the start is under way.
      await expect.poll(() => silent.connections(), { timeout: 10_000 }).toBeGreaterThan(0);
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(2_000);
    } finally {
      silent.close();
    }
  });
});
