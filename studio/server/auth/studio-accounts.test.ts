// How the studio starts, from the team's accounts in a real lead store: one person's studio on this
// computer without accounts, the team's sign-in with them, a refusal to listen beyond this computer
// without an account that may edit the site, and the one-time import of the old STUDIO_USERS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../back-office/accounts/passwords.ts';
import { createTeamStore, TEAM_PASSWORD, teamPasswordHash, type TeamStore } from '../../testing/team-accounts.ts';
import { readOldAccounts } from './old-accounts.ts';
import { decideStudioUse } from './studio-accounts.ts';

let team: TeamStore;
let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), 'studio-state-'));
});
afterEach(async () => {
  await team?.remove();
  rmSync(stateDir, { recursive: true, force: true });
});

const start = (host: string, env: NodeJS.ProcessEnv = {}) =>
  decideStudioUse({ store: team.store, host, oldAccounts: readOldAccounts(env), stateDir });

describe('without accounts', () => {
  it("is one person's studio on this computer, as before", async () => {
    team = await createTeamStore({});
    expect(await start('127.0.0.1')).toEqual({ kind: 'local', editors: 0, importNotice: undefined });
    expect((await start('localhost')).kind).toBe('local');
  });

  it('refuses any other address, naming the command that creates an editor', async () => {
    team = await createTeamStore({});
    expect(await start('0.0.0.0')).toEqual({
      kind: 'refused',
      reason:
        'STUDIO_HOST is 0.0.0.0, but no account in the lead store may edit the site, so nobody could sign in. ' +
        'Create one with `npm run users -- add <email> --role editor` or listen on 127.0.0.1.',
      importNotice: undefined,
    });
  });
});

describe("with the team's accounts", () => {
  it('asks everyone to sign in, even on this computer', async () => {
    team = await createTeamStore({ 'maria@example.com': 'editor', 'ana@example.com': 'sales', 'boss@example.com': 'admin' });
    expect(await start('127.0.0.1')).toEqual({ kind: 'team', editors: 2, importNotice: undefined });
    expect(await start('0.0.0.0')).toEqual({ kind: 'team', editors: 2, importNotice: undefined });
  });

  it('listens beyond this computer only when an account may edit the site', async () => {
    team = await createTeamStore({ 'ana@example.com': 'sales', 'vic@example.com': 'viewer' });
    expect((await start('0.0.0.0')).kind).toBe('refused');
    expect(await start('127.0.0.1')).toEqual({ kind: 'team', editors: 0, importNotice: undefined });
  });
});

describe('the one-time import of STUDIO_USERS', () => {
  it('imports e-mail entries as editors with their passwords, and reports every other entry and what to do', async () => {
    team = await createTeamStore({ 'ana@example.com': 'sales' });
    const hash = await teamPasswordHash();
    const env = { STUDIO_USERS: `Maria@Example.com:${hash},li:${hash},ana@example.com:${hash},kim@example.com:not-a-hash` };
    const use = await start('0.0.0.0', env);
    expect(use).toMatchObject({ kind: 'team', editors: 1 });
    expect(use.importNotice).toBe(
      [
        "STUDIO_USERS is no longer read: the studio signs people in with the team's accounts in the lead store (`npm run users`).",
        'Imported 1 account(s) as editors, with their passwords: maria@example.com.',
        'Skipped 3:',
        '  - "li": not an e-mail address, so it cannot become an account: create one with `npm run users -- add <email> --role editor`',
        '  - "ana@example.com": already has an account, kept as it is',
        '  - "kim@example.com": has no valid password hash: create the account with `npm run users -- add <email> --role editor`',
        "Remove STUDIO_USERS from the studio's settings.",
        '',
      ].join('\n'),
    );
    const maria = await team.store.findAccount('maria@example.com');
    expect(maria?.role).toBe('editor');
    expect(await verifyPassword(TEAM_PASSWORD, maria?.passwordHash)).toBe(true);
    // The sales account was left as it was.
    expect((await team.store.findAccount('ana@example.com'))?.role).toBe('sales');
  });

  it('imports nothing at the next start, and never brings back an account an admin removed', async () => {
    team = await createTeamStore({});
    const env = { STUDIO_USERS: `maria@example.com:${await teamPasswordHash()}` };
    expect((await start('127.0.0.1', env)).importNotice).toContain('Imported 1 account(s)');
    const second = await start('127.0.0.1', env);
    expect(second.importNotice).toContain('Imported no account.');
    expect(second.importNotice).toContain('"maria@example.com": already has an account, kept as it is');

    await team.store.removeAccount('maria@example.com');
    const third = await start('127.0.0.1', env);
    expect(third.importNotice).toContain('"maria@example.com": was imported before and has since been removed: not imported again');
    expect(await team.store.findAccount('maria@example.com')).toBeUndefined();
    // Sign-in was wanted: with the old setting still there, the studio never opens without it.
    expect(third.kind).toBe('team');
  });

  it('never stops the studio over an entry, and names both settings when both are set', async () => {
    team = await createTeamStore({});
    const use = await decideStudioUse({
      store: team.store,
      host: '127.0.0.1',
      oldAccounts: readOldAccounts({ STUDIO_USERS: 'li', STUDIO_USERS_FILE: 'users.txt' }, () => '# nobody yet\n'),
      stateDir,
    });
    expect(use).toMatchObject({ kind: 'team', editors: 0 });
    expect(use.importNotice).toContain('STUDIO_USERS and STUDIO_USERS_FILE are no longer read');
    expect(use.importNotice).toContain('Remove STUDIO_USERS and STUDIO_USERS_FILE');
  });
});
