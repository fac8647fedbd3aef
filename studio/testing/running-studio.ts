// The studio under test: a copy of this checkout in a temp folder (its own content, git history and
// build, so journeys can publish without touching the repository), with `npm run studio` running in
// it. The studio's browser app is built once (STUDIO_APP_DIR) for every studio a run starts. The
// copy's lead store (a SQLite file in it, shared with the site server started there) holds the
// team's accounts a journey asks for; without any, the studio is one person's, on this computer. A
// copy may get a bare repository as its git remote (origin/main, the branch's upstream), which the
// studio then pushes every publish to.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from '../../back-office/accounts/passwords.ts';
import type { Role } from '../../back-office/roles.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import { addBareRemote, type BareRemote } from './bare-remote.ts';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const STUDIO_APP_DIR = path.join(REPO, '.tmp', 'studio-app');

export type RunningStudio = {
  url: string;
  root: string;
  read(relative: string): string;
  write(relative: string, text: string): void;
  git(...args: string[]): string;
  /** With `remote: true`: the bare repository the copy pushes its publishes to. */
  remote?: BareRemote;
  /** The studio's output so far (for messages when a test fails). */
  output(): string;
  /** The status of each scheduled publish the copy's lead store keeps, in the order they were scheduled. */
  scheduleStatuses(): string[];
  /** Stops the studio and starts it again on the same copy, address and settings (what it keeps must survive). */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

/** How long a studio told to stop may take before it is killed. */
const STOP_PATIENCE_MS = 15_000;

/** The lead store of a copy, relative to it: the studio and the site server started in it share it. */
const LEADS_DB_FILE = '.tmp-leads.sqlite';

export type TeamAccount = { readonly email: string; readonly role: Role; readonly password: string };

/** Creates the accounts in the copy's lead store, as `npm run users -- add` would. */
export async function addAccounts(root: string, accounts: readonly TeamAccount[]): Promise<void> {
  const store = openSqliteStore(path.join(root, LEADS_DB_FILE));
  try {
    for (const { email, role, password } of accounts) {
      await store.createAccount({ email, role, passwordHash: await hashPassword(password), now: Date.now() });
    }
  } finally {
    await store.close();
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A copy of the checkout: the files git knows (tracked or not ignored), node_modules linked, the current build copied, content committed. */
export function copyCheckout(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'studio-e2e-'));
  const files = execFileSync('git', ['-C', REPO, 'ls-files', '-co', '--exclude-standard', '-z'], { encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (file.startsWith('tests/') || file.startsWith('docs/')) continue;
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    try {
      cpSync(path.join(REPO, file), path.join(root, file));
    } catch {
      // deleted in the working tree but still in the index
    }
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  cpSync(path.join(REPO, 'dist'), path.join(root, 'dist'), { recursive: true, dereference: true });
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  git('init', '--quiet', '--initial-branch=main');
  git('config', 'user.email', 'developer@example.com');
  git('config', 'user.name', 'Developer');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'The site as shipped');
  return root;
}

export async function startStudio(
  options: { env?: Record<string, string>; root?: string; accounts?: readonly TeamAccount[]; remote?: boolean } = {},
): Promise<RunningStudio> {
  const root = options.root ?? copyCheckout();
  const remote = options.remote ? addBareRemote(root) : undefined;
  if (options.accounts) await addAccounts(root, options.accounts);
  let port = await freePort();
  let output = '';
  const spawnStudio = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['studio/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        STUDIO_PORT: String(port),
        STUDIO_APP_DIR,
        LOG_LEVEL: 'warn',
        // The copy's own store, whatever the environment running the tests names.
        DATABASE_URL: '',
        LEADS_DB_FILE: path.join(root, LEADS_DB_FILE),
        STUDIO_USERS: '',
        STUDIO_USERS_FILE: '',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let started = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The studio did not start:\n${output}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        started += chunk.toString();
        if (started.includes('Content studio ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`The studio exited with ${code}:\n${output}`));
      });
    });
    return child;
  };
  const stopChild = async (running: ChildProcess) => {
    if (running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    // A studio still closing after this long (a build it was preparing, a connection the browser
    // keeps open, a machine under load) is killed: a journey's clean-up must not hang the run.
    const patience = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), STOP_PATIENCE_MS).unref());
    if ((await Promise.race([exited, patience])) === 'late') {
      output += `\n[the studio had not stopped ${STOP_PATIENCE_MS / 1000} s after SIGTERM: killed]\n`;
      running.kill('SIGKILL');
      await exited;
    }
  };
  let child = await onAFreePort(spawnStudio, async () => {
    port = await freePort();
  });
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    read: (relative) => readFileSync(path.join(root, relative), 'utf8'),
    write: (relative, text) => writeFileSync(path.join(root, relative), text),
    git: (...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }),
    ...(remote ? { remote } : {}),
    output: () => output,
    scheduleStatuses() {
      const db = new DatabaseSync(path.join(root, LEADS_DB_FILE), { readOnly: true });
      try {
        return db
          .prepare('SELECT status FROM studio_schedule ORDER BY seq')
          .all()
          .map((row) => String(row.status));
      } finally {
        db.close();
      }
    },
    async restart() {
      await stopChild(child);
      child = await spawnStudio();
    },
    async stop() {
      await stopChild(child);
      if (!options.root) rmSync(root, { recursive: true, force: true });
      remote?.remove();
    },
  };
}

export type RunningSite = { url: string; get(route: string): Promise<{ status: number; text: string }>; stop(): Promise<void> };

/**
 * Starts a server on a port `freePort` found free. Another process may take that port before the
 * server listens on it: then the server exits saying EADDRINUSE, and it is started again on another.
 */
async function onAFreePort<T>(start: () => Promise<T>, nextPort: () => Promise<void>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= 4 || !String(error).includes('EADDRINUSE')) throw error;
      await nextPort();
    }
  }
}

/**
 * `npm run serve` in a studio's checkout: the live site publishing switches under it, and the
 * notifier that sends the studio's e-mails (`env`: its SMTP settings).
 */
export async function startSite(root: string, env: Record<string, string> = {}): Promise<RunningSite> {
  let port = await freePort();
  return onAFreePort(
    () => startSiteOn(root, port, env),
    async () => {
      port = await freePort();
    },
  );
}

async function startSiteOn(root: string, port: number, env: Record<string, string>): Promise<RunningSite> {
  let output = '';
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      LEADS_DB_FILE: path.join(root, LEADS_DB_FILE),
      // stop() means "stop now": no load balancer waits for /readyz to fail.
      DRAIN_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The site server exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`The site server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async get(route) {
      const response = await fetch(`${url}${route}`);
      return { status: response.status, text: await response.text() };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
