// Several real server processes (`node server/main.ts`) on one PostgreSQL database behind a real
// HAProxy from the system, as compose.yaml runs them in containers: the one place that starts, kills
// and restarts them, used by `npm run cluster`, the replicas bench and the cluster test.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { NODE_BINARY, SERVER_MAIN } from '../../server/testing/server-process.ts';
import { haproxyConfig } from './haproxy-config.ts';

export const DEFAULT_HAPROXY = '/usr/sbin/haproxy';

/** Where HAProxy is: HAPROXY when set, else the system package's path; undefined when neither exists. */
export function findHaproxy(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidate = env.HAPROXY?.trim() || DEFAULT_HAPROXY;
  return existsSync(candidate) ? candidate : undefined;
}

export const HAPROXY_MISSING = `HAProxy was not found (HAPROXY, else ${DEFAULT_HAPROXY}): install it (apt-get install haproxy) or set HAPROXY to its path.`;
export const DATABASE_URL_MISSING =
  'DATABASE_URL is not set: several servers share one PostgreSQL database, so set DATABASE_URL=postgres://user:password@host:5432/database.';

export type ClusterOptions = {
  /** How many servers (each its own process, port and log file). */
  readonly servers: number;
  readonly databaseUrl: string;
  /** The balancer's port on 127.0.0.1. */
  readonly port: number;
  /** The servers' ports, one each. */
  readonly serverPorts: readonly number[];
  /** Where the balancer's configuration and every log file go. */
  readonly runDir: string;
  readonly distDir: string;
  /** Settings every server gets besides DATABASE_URL, HOST, PORT, DIST_DIR and TRUST_PROXY. */
  readonly env?: Readonly<Record<string, string>>;
  readonly haproxy?: string;
  /** The working directory of the servers (a `.env` there is read). */
  readonly cwd?: string;
};

export type ClusterServer = {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly logFile: string;
  /** Whether its process is running. */
  readonly running: boolean;
};

export type Cluster = {
  /** The balancer's address. */
  readonly url: string;
  readonly servers: readonly ClusterServer[];
  readonly haproxyLog: string;
  readonly configFile: string;
  /** Starts server `index` (again) and resolves once its /readyz answers 200. */
  start(index: number): Promise<void>;
  /** Sends the signal and resolves with the exit code once the process is gone. */
  stop(index: number, signal: NodeJS.Signals): Promise<number | null>;
  /** Resolves once the balancer has had time to see every started server ready (one check more than `rise`). */
  settle(): Promise<void>;
  /** Every JSON line every server logged so far, with the server's name, across restarts. */
  logLines(): Array<Record<string, unknown> & { server: string }>;
  /** Called with a server's name and exit code when one exits without being asked to. */
  onUnexpectedExit: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
  /** Stops every server (SIGTERM) and the balancer. */
  close(): Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const haproxyPath = options.haproxy ?? findHaproxy();
  if (haproxyPath === undefined) throw new Error(HAPROXY_MISSING);
  if (options.serverPorts.length !== options.servers) throw new Error(`${options.servers} servers need ${options.servers} ports`);
  await mkdir(options.runDir, { recursive: true });

  type Slot = {
    readonly server: ClusterServer;
    child: ChildProcess | undefined;
    exited: Promise<void>;
    expectingExit: boolean;
    exitCode: number | null;
  };
  const slots: Slot[] = options.serverPorts.map((port, index) => {
    const name = `app${index + 1}`;
    const slot: Slot = {
      server: {
        name,
        port,
        url: `http://127.0.0.1:${port}`,
        logFile: path.join(options.runDir, `${name}.log`),
        get running() {
          return slot.child !== undefined;
        },
      },
      child: undefined,
      exited: Promise.resolve(),
      expectingExit: false,
      exitCode: null,
    };
    return slot;
  });

  const configFile = path.join(options.runDir, 'haproxy.cfg');
  writeFileSync(
    configFile,
    haproxyConfig({
      bind: `127.0.0.1:${options.port}`,
      servers: slots.map(({ server }) => ({ name: server.name, address: `127.0.0.1:${server.port}` })),
    }),
  );
  const haproxyLog = path.join(options.runDir, 'haproxy.log');
  const haproxyOut = openSync(haproxyLog, 'a');
  // -db: stay in the foreground and log to stdout (the log file), as the official image does.
  // Each process in a process group of its own (detached), so a Ctrl-C at the terminal reaches only
  // the script that started them, which stops the servers first and the balancer last.
  const balancer = spawn(haproxyPath, ['-db', '-f', configFile], { stdio: ['ignore', haproxyOut, haproxyOut], detached: true });
  closeSync(haproxyOut);
  const balancerExited = new Promise<void>((resolve) => balancer.once('exit', () => resolve()));
  let closing = false;
  // Detached processes outlive the one that started them: should it end without close() (an uncaught
  // error), they are killed on its way out rather than left holding ports and the database.
  const killLeftovers = () => {
    for (const slot of slots) slot.child?.kill('SIGKILL');
    if (balancer.exitCode === null) balancer.kill('SIGKILL');
  };
  process.once('exit', killLeftovers);

  const cluster: Cluster = {
    url: `http://127.0.0.1:${options.port}`,
    servers: slots.map((slot) => slot.server),
    haproxyLog,
    configFile,
    onUnexpectedExit: () => undefined,
    async start(index) {
      const slot = slots[index]!;
      if (slot.child !== undefined) throw new Error(`${slot.server.name} is already running`);
      const out = openSync(slot.server.logFile, 'a');
      const child = spawn(NODE_BINARY, [SERVER_MAIN], {
        cwd: options.cwd ?? process.cwd(),
        env: {
          PATH: process.env.PATH ?? '',
          ...options.env,
          HOST: '127.0.0.1',
          PORT: String(slot.server.port),
          DATABASE_URL: options.databaseUrl,
          DIST_DIR: options.distDir,
          // Behind the balancer: the visitor's address is the last X-Forwarded-For entry, the one it adds.
          TRUST_PROXY: '1',
        },
        stdio: ['ignore', out, out],
        detached: true,
      });
      closeSync(out);
      slot.child = child;
      slot.expectingExit = false;
      slot.exited = new Promise<void>((resolve) =>
        child.once('exit', (code, signal) => {
          slot.child = undefined;
          slot.exitCode = code;
          if (!slot.expectingExit && !closing) cluster.onUnexpectedExit(slot.server.name, code, signal);
          resolve();
        }),
      );
      await waitUntilReady(slot.server, () => slot.child === child);
    },
    async stop(index, signal) {
      const slot = slots[index]!;
      if (slot.child === undefined) return slot.exitCode;
      slot.expectingExit = true;
      slot.child.kill(signal);
      await slot.exited;
      return slot.exitCode;
    },
    async settle() {
      await sleep(1_500);
    },
    logLines() {
      return slots.flatMap(({ server }) => parseJsonLines(server.logFile).map((line) => ({ ...line, server: server.name })));
    },
    async close() {
      closing = true;
      await Promise.all(slots.map((_, index) => cluster.stop(index, 'SIGTERM')));
      if (balancer.exitCode === null) balancer.kill('SIGTERM');
      await balancerExited;
      process.off('exit', killLeftovers);
    },
  };

  try {
    await waitForPort(options.port, balancer).catch((error: unknown) => {
      const said = existsSync(haproxyLog) ? readFileSync(haproxyLog, 'utf8').trim().split('\n').slice(-3).join(' ') : '';
      throw new Error(`${error instanceof Error ? error.message : String(error)}${said ? `: ${said}` : ''}`);
    });
    for (let index = 0; index < slots.length; index++) await cluster.start(index);
    await cluster.settle();
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}

async function waitUntilReady(server: ClusterServer, stillOurs: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!stillOurs()) throw new Error(`${server.name} exited while starting: see ${server.logFile}`);
    const status = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.status)
      .catch(() => undefined);
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error(`${server.name} was not ready within ${timeoutMs / 1000} s: see ${server.logFile}`);
}

async function waitForPort(port: number, balancer: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (balancer.exitCode !== null) throw new Error(`HAProxy stopped at start (exit code ${balancer.exitCode})`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`HAProxy did not listen on 127.0.0.1:${port} within ${timeoutMs / 1000} s`);
}

/** The JSON lines of a log file (pino's), skipping anything else a process printed. */
export function parseJsonLines(file: string): Array<Record<string, unknown>> {
  if (!existsSync(file)) return [];
  const lines: Array<Record<string, unknown>> = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut short by SIGKILL.
    }
  }
  return lines;
}
