// The console's journeys run against a server of their own: a fresh lead database (SQLite or
// PostgreSQL), a CRM whose answers each test decides, and the build every browser test shares. The
// test process opens the same database to create accounts and to wait for deliveries, as an
// operator's `npm run users` would.
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { hashPassword } from '../../back-office/accounts/passwords.ts';
import type { Role } from '../../back-office/roles.ts';
import type { Database } from '../../server/store/database.ts';
import { startCrmReceiver, type CrmReceiver } from '../../server/testing/crm-receiver.ts';
import { startServerProcess, type ServerProcess } from '../../server/testing/server-process.ts';
import { postgresHarness, sqliteHarness, type StoreDatabase, type StoreHarness } from '../../server/testing/store-harness.ts';

export const REPO = path.resolve(import.meta.dirname, '../..');

/** The stores the journeys run on; PostgreSQL only where TEST_DATABASE_URL is set (CI requires it). */
export const CONSOLE_STORES: readonly StoreHarness[] = [sqliteHarness, postgresHarness];

export type ConsoleServer = {
  readonly url: string;
  readonly crm: CrmReceiver;
  /** The server's database, opened by the test process. */
  readonly store: Database;
  /** The settings that point another process (the studio) at the same database. */
  readonly env: Readonly<Record<string, string>>;
  addAccount(email: string, role: Role, password: string): Promise<void>;
  /** Runs SQL past the store, as an operator at the database would (the store's own placeholders not used). */
  execute(sql: string): Promise<void>;
  /** What the server printed (for the message of a failing test). */
  output(): string;
  stop(): Promise<void>;
};

export async function startConsoleServer(harness: StoreHarness, env: Record<string, string> = {}): Promise<ConsoleServer> {
  const database: StoreDatabase = await harness.createDatabase();
  const crm = await startCrmReceiver();
  let server: ServerProcess | undefined;
  try {
    const store = await database.open();
    server = await startServerProcess(
      {
        ...database.serverEnv,
        LOG_LEVEL: 'info',
        CRM_WEBHOOK_URL: crm.url,
        CRM_RETRY_DELAYS_MS: '300,300,300',
        ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}),
        ...env,
      },
      REPO,
    );
    const running = server;
    return {
      url: running.baseUrl,
      crm,
      store,
      env: database.serverEnv,
      async addAccount(email, role, password) {
        const created = await store.createAccount({ email, role, passwordHash: await hashPassword(password), now: Date.now() });
        if (created.kind !== 'created') throw new Error(`${email} already has an account`);
      },
      execute: (sql) => database.execute(sql),
      output: () => running.output().stdout + running.output().stderr,
      async stop() {
        running.child.kill('SIGTERM');
        await running.exited;
        await crm.close();
        await database.remove();
      },
    };
  } catch (error) {
    server?.child.kill('SIGKILL');
    await crm.close();
    await database.remove();
    throw error;
  }
}

/**
 * Signs a person in on the console's sign-in screen at `address` (the console, or a screen of it the
 * sign-in then opens) and waits until that screen has loaded.
 */
export async function signInToConsole(page: Page, address: string, email: string, password: string): Promise<void> {
  await page.goto(address);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
}
