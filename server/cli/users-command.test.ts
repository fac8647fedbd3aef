import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../back-office/accounts/passwords.ts';
import type { Database } from '../store/database.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import pino from 'pino';
import { createAssigner } from '../sales/assigner.ts';
import { runUsersCommand } from './users-command.ts';

const NOW = Date.UTC(2025, 0, 15, 9, 0, 0);
const NODE = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));
const CLI = fileURLToPath(new URL('./users.ts', import.meta.url));
const PASSWORD = 'correct horse battery staple';
const OTHER_PASSWORD = 'a different long password';

let folder: string;
let file: string;
let store: Database;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'users-cli-'));
  file = path.join(folder, 'leads.sqlite');
  store = openSqliteStore(file);
});
afterEach(async () => {
  await store.close();
  await rm(folder, { recursive: true, force: true });
});

type Run = { code: number; out: string; err: string; prompts: string[] };

/** Runs one command; `answers` are the passwords typed (interactive) or the lines piped in. */
async function run(argv: string[], { answers = [] as string[], interactive = false } = {}): Promise<Run> {
  const result: Run = { code: 0, out: '', err: '', prompts: [] };
  const queue = [...answers];
  result.code = await runUsersCommand(argv, store, {
    out: (text) => (result.out += text),
    err: (text) => (result.err += text),
    now: () => NOW,
    actor: 'command line (tester)',
    interactive,
    readPassword: async (prompt) => {
      result.prompts.push(prompt);
      return queue.shift() ?? '';
    },
  });
  return result;
}

async function addAccount(email: string, role: 'admin' | 'sales' | 'editor' | 'viewer', password = PASSWORD): Promise<void> {
  await store.createAccount({ email, role, passwordHash: await hashPassword(password), now: NOW - 1_000 });
}

describe('users add', () => {
  it('creates the account from a piped password, read once, with a hash that verifies it', async () => {
    const result = await run(['add', ' Ana@Example.com ', '--role', 'admin'], { answers: [PASSWORD] });
    expect(result).toMatchObject({ code: 0, out: 'Account ana@example.com created with the role admin.\n', err: '' });
    expect(result.prompts).toHaveLength(1);
    const account = await store.findAccount('ana@example.com');
    expect(account).toMatchObject({ email: 'ana@example.com', role: 'admin', createdAt: NOW });
    expect(await verifyPassword(PASSWORD, account?.passwordHash)).toBe(true);
  });

  it('asks a person at a terminal for the password twice', async () => {
    const result = await run(['add', 'li@example.com', '--role', 'sales'], { answers: [PASSWORD, PASSWORD], interactive: true });
    expect(result.code).toBe(0);
    expect(result.prompts).toEqual(['New password for li@example.com (at least 12 characters): ', 'The same password again: ']);
    expect(await verifyPassword(PASSWORD, (await store.findAccount('li@example.com'))?.passwordHash)).toBe(true);
  });

  it.each([
    ['passwords that differ', [PASSWORD, OTHER_PASSWORD], true, 'The two passwords differ: nothing was changed.\n'],
    [
      'a short password',
      ['too short', 'too short'],
      true,
      'The password is too short: use at least 12 characters (nothing was changed).\n',
    ],
    [
      'a password longer than sign-in reads',
      ['x'.repeat(1_025), 'x'.repeat(1_025)],
      true,
      'The password is too long: use at most 1,024 characters (nothing was changed).\n',
    ],
    ['empty standard input', [], false, 'Standard input held no password: pipe the password as its first line.\n'],
  ])('refuses %s and creates nothing', async (_, answers, interactive, message) => {
    const result = await run(['add', 'ana@example.com', '--role', 'admin'], { answers, interactive });
    expect(result).toMatchObject({ code: 1, out: '', err: message });
    expect(await store.listAccounts()).toEqual([]);
  });

  it('refuses an address that has an account, in any case, before asking for a password', async () => {
    await addAccount('ana@example.com', 'viewer');
    const result = await run(['add', 'ANA@example.com', '--role', 'admin'], { answers: [PASSWORD] });
    expect(result).toMatchObject({
      code: 1,
      out: '',
      err: 'An account for ana@example.com already exists: change it with `role` or `password`.\n',
      prompts: [],
    });
    expect((await store.findAccount('ana@example.com'))?.role).toBe('viewer');
  });

  it.each([
    [['add', 'ana.example.com', '--role', 'admin'], '"ana.example.com" is not an e-mail address.'],
    [['add', 'ana@example.com', '--role', 'owner'], 'Unknown role "owner": use admin, sales, editor, viewer.'],
    [['add', 'ana@example.com'], 'add needs --role (admin, sales, editor, viewer).'],
    [['add', '--role', 'admin'], 'add needs one e-mail address and --role <role>.'],
    [['add', 'ana@example.com', 'li@example.com', '--role', 'admin'], 'add needs one e-mail address and --role <role>.'],
    [['add', 'ana@example.com', '--role', 'admin', '--force'], "Unknown option '--force'"],
    [['adduser', 'ana@example.com'], 'Unknown command "adduser".'],
  ])('answers %j with a usage error, asking nothing and storing nothing', async (argv, message) => {
    const result = await run(argv, { answers: [PASSWORD] });
    expect(result.code).toBe(2);
    expect(result.err.split('\n')[0]).toContain(message);
    expect(result.err).toContain('Usage: npm run users -- <command>');
    expect(result.prompts).toEqual([]);
    expect(await store.listAccounts()).toEqual([]);
  });

  it('shows an address with control characters as visible escapes', async () => {
    const result = await run(['add', 'ana\u001b[2J@example.com', '--role', 'admin']);
    expect(result.err).toContain('"ana\\x1B[2J@example.com" is not an e-mail address.');
    expect(result.err).not.toContain('\u001b');
  });
});

describe('users list', () => {
  it('shows each account with its role, creation and last sign-in, and never a hash', async () => {
    await addAccount('zoe@example.com', 'viewer');
    await addAccount('ana@example.com', 'admin');
    await store.createSession((await store.findAccount('ana@example.com'))!, 'console', NOW);
    const { code, out } = await run(['list']);
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual([
      'EMAIL            ROLE    CREATED                   LAST SIGN-IN',
      'ana@example.com  admin   2025-01-15T08:59:59.000Z  2025-01-15T09:00:00.000Z',
      'zoe@example.com  viewer  2025-01-15T08:59:59.000Z  -',
      '',
      '2 account(s).',
      '',
    ]);
    expect(out).not.toContain('scrypt');
  });

  it('says how to create the first account when there is none', async () => {
    expect(await run(['list'])).toMatchObject({
      code: 0,
      out: 'No accounts yet: create the first with `npm run users -- add you@example.com --role admin`.\n',
    });
  });
});

describe('users role', () => {
  it('changes the role and ends the sessions open under the old one', async () => {
    await addAccount('ana@example.com', 'viewer');
    const session = await store.createSession((await store.findAccount('ana@example.com'))!, 'console', NOW);
    expect(await run(['role', 'Ana@example.com', 'sales'])).toMatchObject({
      code: 0,
      out: 'ana@example.com now has the role sales; their sessions have ended, so they sign in again.\n',
    });
    expect(await store.findSession(session!.id, 'console', NOW + 1)).toBeUndefined();
    expect(await run(['role', 'ana@example.com', 'sales'])).toMatchObject({
      code: 0,
      out: 'ana@example.com already had the role sales.\n',
    });
  });

  it('never demotes the only admin, and says how to hand the role on first', async () => {
    await addAccount('ana@example.com', 'admin');
    await addAccount('li@example.com', 'sales');
    expect(await run(['role', 'ana@example.com', 'sales'])).toMatchObject({
      code: 1,
      out: '',
      err:
        'ana@example.com is the only admin, so nothing was changed: make another account admin first ' +
        '(npm run users -- role <email> admin), so someone can still manage the accounts.\n',
    });
    expect((await store.findAccount('ana@example.com'))?.role).toBe('admin');
    expect((await run(['role', 'li@example.com', 'admin'])).code).toBe(0);
    expect(await run(['role', 'ana@example.com', 'sales'])).toMatchObject({
      code: 0,
      out: 'ana@example.com now has the role sales; their sessions have ended, so they sign in again.\n',
    });
  });

  it('refuses an unknown role, an unknown account and a missing argument', async () => {
    await addAccount('ana@example.com', 'viewer');
    expect((await run(['role', 'ana@example.com', 'boss'])).err).toContain('Unknown role "boss": use admin, sales, editor, viewer.');
    expect(await run(['role', 'li@example.com', 'sales'])).toMatchObject({ code: 1, err: 'No account for li@example.com.\n' });
    expect((await run(['role', 'ana@example.com'])).code).toBe(2);
    expect((await store.findAccount('ana@example.com'))?.role).toBe('viewer');
  });
});

describe('users password', () => {
  it('sets a new password and ends every session of the account', async () => {
    await addAccount('ana@example.com', 'admin');
    const session = await store.createSession((await store.findAccount('ana@example.com'))!, 'console', NOW);
    const result = await run(['password', 'ana@example.com'], { answers: [OTHER_PASSWORD, OTHER_PASSWORD], interactive: true });
    expect(result).toMatchObject({
      code: 0,
      out: 'The password of ana@example.com is changed, and every session it had has ended.\n',
      prompts: ['New password for ana@example.com (at least 12 characters): ', 'The same password again: '],
    });
    const hash = (await store.findAccount('ana@example.com'))?.passwordHash;
    expect(await verifyPassword(OTHER_PASSWORD, hash)).toBe(true);
    expect(await verifyPassword(PASSWORD, hash)).toBe(false);
    expect(await store.findSession(session!.id, 'console', NOW + 1)).toBeUndefined();
  });

  it('changes nothing when the passwords differ, and asks nothing for an unknown account', async () => {
    await addAccount('ana@example.com', 'admin');
    const session = await store.createSession((await store.findAccount('ana@example.com'))!, 'console', NOW);
    const differ = await run(['password', 'ana@example.com'], { answers: [OTHER_PASSWORD, PASSWORD], interactive: true });
    expect(differ).toMatchObject({ code: 1, err: 'The two passwords differ: nothing was changed.\n' });
    expect(await verifyPassword(PASSWORD, (await store.findAccount('ana@example.com'))?.passwordHash)).toBe(true);
    expect(await store.findSession(session!.id, 'console', NOW + 1)).toBeDefined();
    const unknown = await run(['password', 'li@example.com'], { answers: [OTHER_PASSWORD] });
    expect(unknown).toMatchObject({ code: 1, err: 'No account for li@example.com.\n', prompts: [] });
  });
});

describe('users remove', () => {
  it('deletes the account and ends its sessions', async () => {
    await addAccount('ana@example.com', 'admin');
    await addAccount('li@example.com', 'admin');
    const session = await store.createSession((await store.findAccount('ana@example.com'))!, 'console', NOW);
    expect(await run(['remove', 'ANA@example.com'])).toMatchObject({
      code: 0,
      out: 'Account ana@example.com removed, and every session it had has ended.\n',
    });
    expect((await store.listAccounts()).map((account) => account.email)).toEqual(['li@example.com']);
    expect(await store.findSession(session!.id, 'console', NOW + 1)).toBeUndefined();
    expect(await run(['remove', 'ana@example.com'])).toMatchObject({ code: 1, err: 'No account for ana@example.com.\n' });
  });

  it('never removes the only admin, and says how to hand the role on first', async () => {
    await addAccount('ana@example.com', 'admin');
    await addAccount('li@example.com', 'sales');
    const session = await store.createSession((await store.findAccount('ana@example.com'))!, 'console', NOW);
    expect(await run(['remove', 'ana@example.com'])).toMatchObject({
      code: 1,
      out: '',
      err:
        'ana@example.com is the only admin, so nothing was changed: make another account admin first ' +
        '(npm run users -- role <email> admin), so someone can still manage the accounts.\n',
    });
    expect(await store.findSession(session!.id, 'console', NOW + 1)).toBeDefined();
    expect(await run(['remove', 'li@example.com'])).toMatchObject({ code: 0 });
  });
});

describe('users remove and role, for a person in sales', () => {
  const EVERY_HOUR = { timeZone: 'UTC', windows: [] };
  const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 }));

  async function salesPerson(email: string): Promise<string> {
    await addAccount(email, 'sales');
    const id = (await store.findAccount(email))!.id;
    await store.setAvailability({ accountId: id, timeZone: 'UTC', windows: ALL_WEEK, away: false }, NOW, undefined);
    return id;
  }

  it("hands the removed or demoted person's open leads to the next available person, audited as the command line", async () => {
    await addAccount('admin@example.com', 'admin');
    const ana = await salesPerson('ana@example.com');
    const bo = await salesPerson('bo@example.com');
    await store.replaceRules([{ kind: 'form', value: 'Contact Page Form', ownerId: ana }], undefined);
    const leadId = '00000000-0000-4000-8000-000000000001';
    await store.insertLead({
      id: leadId,
      receivedAt: Date.now(),
      source: 'Contact Page Form',
      email: 'lead@example.com',
      payload: { email: 'lead@example.com', lead_id: leadId },
      spamReason: undefined,
      initialState: 'pending',
    });
    const log = pino({ level: 'silent' });
    await createAssigner({ store, siteHours: () => EVERY_HOUR, log, now: () => Date.now() }).runOnce();
    expect((await store.findLeadSales(leadId))?.ownerId).toBe(ana);

    expect(await run(['remove', 'ana@example.com'])).toMatchObject({ code: 0 });
    expect((await store.findLeadSales(leadId))?.ownerId).toBe(bo);
    const audit = (await store.listAudit(undefined, 20)).entries;
    expect(audit.some((entry) => entry.action === 'lead.release' && entry.actor === 'command line (tester)')).toBe(true);

    // Bo becomes a viewer: nobody else works leads, so the lead waits unassigned.
    expect(await run(['role', 'bo@example.com', 'viewer'])).toMatchObject({ code: 0 });
    expect((await store.findLeadSales(leadId))?.ownerId).toBeUndefined();
  });
});

describe('npm run users (the process)', () => {
  it('reads the password from the first line of standard input, on the store LEADS_DB_FILE names', async () => {
    await store.close();
    const env = { PATH: process.env.PATH ?? '', LEADS_DB_FILE: file };
    const added = spawnSync(NODE, [CLI, 'add', 'ana@example.com', '--role', 'admin'], {
      cwd: folder,
      env,
      encoding: 'utf8',
      input: `${PASSWORD}\r\nthis second line is never read\n`,
    });
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    const listed = spawnSync(NODE, [CLI, 'list'], { cwd: folder, env, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^ana@example\.com\s+admin\s/m);
    const unknown = spawnSync(NODE, [CLI, 'frobnicate'], { cwd: folder, env, encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    store = openSqliteStore(file);
    expect(await verifyPassword(PASSWORD, (await store.findAccount('ana@example.com'))?.passwordHash)).toBe(true);
  });
});
