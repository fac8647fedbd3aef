// Every command of `npm run leads` and `npm run users` that changes data leaves its entry in the audit
// log, as the console's changes do: run as the operator runs them (the process, on the store the
// environment names), each is found afterwards with its actor (the person at the terminal), its
// action and its detail, in the console's words. A command that changes nothing writes nothing.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { shippedRoiParameters } from '../../content-model/testing/shipped-content.ts';
import { ROI_PARAMETERS_FILE } from '../../content-model/load/build-files.ts';
import type { Database as LeadStore } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { VALID_VALUES } from '../testing/lead-bodies.ts';
import { announceSkip, postgresHarness, sqliteHarness, type StoreDatabase, type StoreHarness } from '../testing/store-harness.ts';
import { terminalActor } from './subcommands.ts';

const NOW = Date.UTC(2025, 0, 15, 9, 0, 0);
const NODE = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));
const LEADS_CLI = fileURLToPath(new URL('./leads.ts', import.meta.url));
const USERS_CLI = fileURLToPath(new URL('./users.ts', import.meta.url));
const PASSWORD = 'correct horse battery staple';
/** The name the processes below give the person running them (this test's system user). */
const ACTOR = terminalActor();

let folder: string | undefined;
let database: StoreDatabase | undefined;

afterEach(async () => {
  await database?.remove();
  database = undefined;
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

function lead(id: string, overrides: Partial<NewLead> = {}): NewLead {
  return {
    id,
    receivedAt: NOW + Number(id.replace(/\D/g, '')),
    source: 'Contact Page Form',
    email: `${id}@example.com`,
    payload: { name: 'Ana Lima', lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

/** lead1 failed, lead4 delivered-test, lead2 spam (a contact form's values), lead3 waiting, lead5 to be erased. */
async function seed(store: LeadStore): Promise<void> {
  await store.insertLead(lead('lead1'));
  await store.insertLead(lead('lead4'));
  await store.claimDue({ now: NOW + 500, limit: 100, owner: 'w', leaseMs: 1 });
  const attempt = (status: number) => ({ attemptedAt: NOW + 500, durationMs: 5, status, responseBody: '', error: undefined });
  await store.recordResults([
    { leadId: 'lead1', owner: 'w', attempt: attempt(410), nextState: 'failed', nextAttemptAt: undefined },
    { leadId: 'lead4', owner: 'w', attempt: attempt(200), nextState: 'delivered-test', nextAttemptAt: undefined },
  ]);
  const payload = { ...VALID_VALUES.contact, source: 'Contact Page Form' };
  await store.insertLead(lead('lead2', { payload, email: VALID_VALUES.contact.email, initialState: 'spam', spamReason: 'honeypot' }));
  await store.insertLead(lead('lead3'));
  await store.insertLead(lead('lead5', { email: 'gone@example.com' }));
}

describe.each([
  ['SQLite', sqliteHarness],
  ['PostgreSQL', postgresHarness],
] as const satisfies readonly (readonly [string, StoreHarness])[])('npm run leads and npm run users on %s', (_name, harness) => {
  announceSkip(harness);

  it.skipIf(harness.skipReason)(
    'write each change to the audit log with the person at the terminal, the action and its detail',
    { timeout: 120_000 },
    async () => {
      database = await harness.createDatabase();
      const store = await database.open();
      await seed(store);
      const work = await mkdtemp(path.join(tmpdir(), 'cli-audit-'));
      folder = work;
      // The build's ROI numbers, which a lead forwarded by not-spam is computed with again.
      const distDir = path.join(work, 'dist');
      await mkdir(distDir);
      await writeFile(path.join(distDir, ROI_PARAMETERS_FILE), JSON.stringify(shippedRoiParameters()));
      const env = { PATH: process.env.PATH ?? '', ...database.serverEnv, DIST_DIR: distDir };

      const entries = async () => (await store.listAudit(undefined, 100)).entries;
      /** Runs one command as the operator would, and returns the entries it added, oldest first. */
      const run = async (cli: string, argv: string[], input?: string) => {
        const before = (await entries()).length;
        const done = spawnSync(NODE, [cli, ...argv], { cwd: work, env, encoding: 'utf8', input });
        // Test files share one PostgreSQL database, and its migration lock: while another file migrates
        // (or holds the lock on purpose), the command says it is waiting, which is no error.
        const stderr = done.stderr.replace(/^Another server is migrating the lead database: waiting up to \d+ s\.\n/gm, '');
        expect({ argv, status: done.status, stderr }).toEqual({ argv, status: 0, stderr: '' });
        const after = await entries();
        return after.slice(0, after.length - before).reverse();
      };
      const leads = (...argv: string[]) => run(LEADS_CLI, argv);
      const users = (argv: string[], input?: string) => run(USERS_CLI, argv, input);

      expect(ACTOR).toMatch(/^command line \(.+\)$/);
      const by = (action: string, detail: string) => [{ actor: ACTOR, action, detail }];

      expect(await leads('list')).toEqual([]);
      expect(await leads('export', '--format', 'csv', '--state', 'failed')).toMatchObject(by('leads.export', 'csv: state=failed'));
      expect(await leads('export', '--format', 'json')).toMatchObject(by('leads.export', 'json: all leads'));
      expect(await leads('retry', '--failed')).toMatchObject(by('lead.retry', 'every failed lead: sent 1 lead(s): lead1 (1 failed)'));
      expect(await leads('retry', 'lead3')).toMatchObject(by('lead.retry', 'sent 1 lead(s): lead3 (1 waiting)'));
      expect(await leads('retry', 'lead4', '--send-again')).toMatchObject(
        by('lead.send-again', 'lead4 (the CRM had it only as a test; it gets it again)'),
      );
      expect(await leads('not-spam', 'lead2')).toMatchObject(by('lead.not-spam', 'lead2'));
      // The entry gives the count, never the address.
      expect(await leads('erase', '--email', 'gone@example.com')).toMatchObject(by('leads.erase', '1 lead(s)'));

      expect(await users(['add', 'ana@example.com', '--role', 'admin'], `${PASSWORD}\n`)).toMatchObject(
        by('account.add', 'ana@example.com as admin'),
      );
      expect(await users(['add', 'li@example.com', '--role', 'sales'], `${PASSWORD}\n`)).toMatchObject(
        by('account.add', 'li@example.com as sales'),
      );
      expect(await users(['role', 'li@example.com', 'admin'])).toMatchObject(by('account.role', 'li@example.com: sales → admin'));
      expect(await users(['password', 'ana@example.com'], `${PASSWORD} again\n`)).toMatchObject(by('account.password', 'ana@example.com'));
      expect(await users(['remove', 'ana@example.com'])).toMatchObject(by('account.remove', 'ana@example.com'));
      expect(await users(['list'])).toEqual([]);

      // A command refused for what the store holds changes nothing and writes nothing.
      const refused = spawnSync(NODE, [USERS_CLI, 'remove', 'li@example.com'], { cwd: work, env, encoding: 'utf8' });
      expect(refused.status).toBe(1);
      expect((await entries()).length).toBe(12);
      expect(JSON.stringify(await entries())).not.toContain('gone@example.com');
    },
  );
});
