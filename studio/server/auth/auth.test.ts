import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../back-office/accounts/passwords.ts';
import { createTeamStore, teamPasswordHash, type TeamStore } from '../../testing/team-accounts.ts';
import { createLocalSession } from './local-session.ts';
import { checkSameOrigin } from './sessions.ts';
import { createTeamSessions } from './team-sessions.ts';
import { createGate } from '../../../back-office/concurrency.ts';
import { readStudioSettings } from './studio-settings.ts';

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one or a malformed hash', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await verifyPassword('anything', 'scrypt$1$1$1$x$y')).toBe(false);
    expect(await verifyPassword('anything', 'not a hash')).toBe(false);
  });

  it('refuses to hash a short password', async () => {
    await expect(hashPassword('short')).rejects.toThrow('at least 12 characters');
  });
});

describe('settings', () => {
  it('listens on this computer by default, with the lead store the site server uses', () => {
    expect(readStudioSettings({})).toEqual({
      host: '127.0.0.1',
      port: 4322,
      leadStore: { kind: 'sqlite', file: './data/leads.sqlite' },
      secureCookies: false,
      trustProxy: false,
      review: 'off',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      url: 'http://127.0.0.1:4322',
    });
    expect(readStudioSettings({ DATABASE_URL: 'postgres://ci@db/leads', LEADS_DB_FILE: 'x.sqlite' }).leadStore).toEqual({
      kind: 'postgres',
      url: 'postgres://ci@db/leads',
      // The studio waits for another process's migration as the server does (MIGRATION_LOCK_WAIT_SECONDS).
      migrationLockWaitMs: 120_000,
    });
    expect(readStudioSettings({ LEADS_DB_FILE: 'team.sqlite', STUDIO_SECURE_COOKIES: 'true' })).toMatchObject({
      leadStore: { kind: 'sqlite', file: 'team.sqlite' },
      secureCookies: true,
    });
  });

  it('reads TRUST_PROXY as the site server does, so sign-in limits count each person behind a proxy', () => {
    expect(readStudioSettings({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readStudioSettings({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(readStudioSettings({ TRUST_PROXY: '' }).trustProxy).toBe(false);
  });

  it('reads whether changes need review and the time zone scheduled publishes are set in', () => {
    expect(readStudioSettings({ STUDIO_REVIEW: 'required', STUDIO_TIME_ZONE: 'Europe/Berlin' })).toMatchObject({
      review: 'required',
      timeZone: 'Europe/Berlin',
    });
    expect(readStudioSettings({ STUDIO_REVIEW: ' Off ', STUDIO_TIME_ZONE: 'utc' })).toMatchObject({ review: 'off', timeZone: 'UTC' });
  });

  it('reads the live site to watch after each publish, 15 minutes at most unless told otherwise', () => {
    expect(readStudioSettings({}).live).toBeUndefined();
    expect(readStudioSettings({ STUDIO_LIVE_URL: 'https://www.example.com' }).live).toEqual({
      url: 'https://www.example.com/',
      timeoutMs: 900_000,
    });
    expect(readStudioSettings({ STUDIO_LIVE_URL: 'https://www.example.com', STUDIO_LIVE_TIMEOUT: '90s' }).live?.timeoutMs).toBe(90_000);
  });

  it("reads the studio's address for the links in the team's e-mails, from where it listens unless told", () => {
    expect(readStudioSettings({ STUDIO_PORT: '5000' }).url).toBe('http://127.0.0.1:5000');
    expect(readStudioSettings({ STUDIO_HOST: '::1' }).url).toBe('http://[::1]:4322');
    expect(readStudioSettings({ STUDIO_URL: ' https://Studio.Example.com/ ' }).url).toBe('https://studio.example.com');
    expect(readStudioSettings({ STUDIO_HOST: '0.0.0.0' }).url).not.toContain('0.0.0.0');
  });

  it.each([
    [
      'STUDIO_URL',
      'studio.example.com',
      "STUDIO_URL must be the studio's address as the team opens it, such as https://studio.example.com",
    ],
    ['STUDIO_URL', 'ftp://studio.example.com', "STUDIO_URL must be the studio's address"],
    ['STUDIO_URL', 'https://studio.example.com/edit', "STUDIO_URL must be the studio's address"],
    ['STUDIO_URL', 'https://ana:secret@studio.example.com', "STUDIO_URL must be the studio's address"],
    ['STUDIO_REVIEW', 'yes', 'STUDIO_REVIEW must be "required" or "off", not "yes".'],
    ['STUDIO_TIME_ZONE', 'Mars/Olympus', 'STUDIO_TIME_ZONE must be a time zone name such as Europe/Berlin or UTC, not "Mars/Olympus".'],
    ['TRUST_PROXY', 'everyone', 'TRUST_PROXY must be the number of proxies in front of the server'],
    ['STUDIO_PORT', '99999', 'STUDIO_PORT must be a port number'],
    ['DATABASE_URL', 'mysql://db/leads', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['STUDIO_LIVE_TIMEOUT', '900', 'STUDIO_LIVE_TIMEOUT must be a duration with its unit, from 10s to 24h, such as 90s, 15m or 1h'],
    ['STUDIO_LIVE_URL', 'www.example.com', 'STUDIO_LIVE_URL must be the address of the live site'],
  ])('%s=%s is refused', (name, value, message) => {
    expect(() => readStudioSettings({ [name]: value })).toThrow(message);
  });

  it('reads the old account settings as written, without refusing a mistake in them', () => {
    const file = '# team\nmaria@example.com:scrypt$32768$8$1$c2FsdA==$a2V5\n\nli\n';
    const settings = readStudioSettings(
      { STUDIO_USERS: 'bad name:x, ana@example.com:scrypt$1', STUDIO_USERS_FILE: 'users.txt' },
      () => file,
    );
    expect(settings.oldAccounts).toEqual({
      settings: ['STUDIO_USERS', 'STUDIO_USERS_FILE'],
      entries: [
        { name: 'bad name', hash: 'x' },
        { name: 'ana@example.com', hash: 'scrypt$1' },
        { name: 'maria@example.com', hash: 'scrypt$32768$8$1$c2FsdA==$a2V5' },
        { name: 'li', hash: '' },
      ],
    });
  });

  it('refuses to start when the old accounts file cannot be read, saying what to do', () => {
    const unreadable = () => {
      throw new Error('EACCES');
    };
    expect(() => readStudioSettings({ STUDIO_USERS_FILE: '/etc/studio-users' }, unreadable)).toThrow(
      'STUDIO_USERS_FILE: /etc/studio-users cannot be read. Remove the setting (accounts are now managed with `npm run users`)',
    );
  });
});

describe('the one local session (no accounts, this computer only)', () => {
  it('is one session for every visit, found by its id only, opened again after signing out', async () => {
    const local = createLocalSession('maria');
    const session = local.open();
    expect(local.open()).toBe(session);
    expect(await local.find(session.id)).toEqual({ id: session.id, user: 'maria' });
    expect(await local.find(`${session.id.slice(1)}x`)).toBeUndefined();
    expect(await local.endEverywhere(session)).toBe(1);
    expect(await local.find(session.id)).toBeUndefined();
    expect(local.open().id).not.toBe(session.id);
  });

  it('checks the origin of a change', () => {
    expect(checkSameOrigin({ origin: 'http://127.0.0.1:4322', host: '127.0.0.1:4322' })).toBe(true);
    expect(checkSameOrigin({ origin: 'https://evil.example', host: '127.0.0.1:4322' })).toBe(false);
    expect(checkSameOrigin({ 'sec-fetch-site': 'cross-site', host: '127.0.0.1:4322' })).toBe(false);
    // A sibling subdomain is same-site, not same-origin: it may not sign anyone in, as in the console.
    expect(checkSameOrigin({ 'sec-fetch-site': 'same-site', host: '127.0.0.1:4322' })).toBe(false);
    expect(checkSameOrigin({ 'sec-fetch-site': 'none', host: '127.0.0.1:4322' })).toBe(false);
    expect(checkSameOrigin({ 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:4322', host: '127.0.0.1:4322' })).toBe(true);
  });
});

describe("the team's studio sessions (in the lead store)", () => {
  let team: TeamStore;
  afterEach(() => team?.remove());

  it('names the account by its e-mail address with its role, and ends for good when its role changes', async () => {
    team = await createTeamStore({ 'maria@example.com': 'editor' });
    const sessions = createTeamSessions(team.store);
    const signedIn = { email: 'maria@example.com', passwordHash: await teamPasswordHash() };
    const opened = await team.store.createSession(signedIn, 'studio', Date.now());
    expect(await sessions.find(opened!.id)).toEqual({ id: opened!.id, user: 'maria@example.com', role: 'editor' });
    // A console session of the same account is no studio session.
    const inConsole = await team.store.createSession(signedIn, 'console', Date.now());
    expect(await sessions.find(inConsole!.id)).toBeUndefined();
    await team.store.setAccountRole('maria@example.com', 'sales', Date.now());
    expect(await sessions.find(opened!.id)).toBeUndefined();
    // Promoted again, the session that was open stays ended: a demotion is never undone by a promotion.
    await team.store.setAccountRole('maria@example.com', 'admin', Date.now());
    expect(await sessions.find(opened!.id)).toBeUndefined();
    const again = await team.store.createSession(signedIn, 'studio', Date.now());
    expect(await sessions.find(again!.id)).toEqual({ id: again!.id, user: 'maria@example.com', role: 'admin' });
  });
});

describe('concurrency gate', () => {
  it('runs at most `running` tasks at once, queues `waiting` more, refuses the rest at once', async () => {
    const gate = createGate({ running: 2, waiting: 1 });
    let active = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      new Promise<string>((resolve) => {
        active += 1;
        most = Math.max(most, active);
        releases.push(() => {
          active -= 1;
          resolve('done');
        });
      });
    const results = [gate.run(task), gate.run(task), gate.run(task), gate.run(task)];
    expect(await results[3]).toBeUndefined();
    while (releases.length > 0 || active > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      releases.shift()?.();
      // A newcomer arriving while a slot is handed over must not push the count past the limit.
      void gate.run(async () => 'late');
    }
    expect(await Promise.all(results.slice(0, 3))).toEqual(['done', 'done', 'done']);
    expect(most).toBe(2);
  });
});
