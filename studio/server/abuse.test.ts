// What a hostile client can do to the studio short of breaking in: race the sign-in limits, lock a
// team out from behind a proxy, send bodies that are small but costly, send slowly, open sessions
// without end. Each answer must come at once, say what happened, and leave the studio working.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionLimits } from '../../back-office/http/connection-limits.ts';
import type { TrustProxy } from '../../back-office/http/trust-proxy.ts';
import { timeAgainstBudget } from '../../lead/testing/machine-speed.ts';
import { createStudioProject, fakeStudioAppDir, type StudioProject } from '../testing/studio-project.ts';
import { buildStudioApp } from './app.ts';
import { createTeamStore, TEAM_PASSWORD as PASSWORD, type TeamStore } from '../testing/team-accounts.ts';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, MAX_KEY_CHARACTERS, MAX_LIST_ITEMS, MAX_OBJECT_KEYS, MAX_TEXT_LINES } from './json-body.ts';
import { MAX_DRAFTS } from './workspace.ts';

let project: StudioProject;
let team: TeamStore | undefined;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  await team?.remove();
  team = undefined;
  project?.remove();
});

const MARIA = 'maria@example.com';

async function setup(options: { users?: boolean; trustProxy?: TrustProxy; connectionLimits?: ConnectionLimits } = {}) {
  project = createStudioProject({ git: false });
  const appDir = fakeStudioAppDir(project.root);
  if (options.users) team = await createTeamStore({ [MARIA]: 'editor' });
  app = buildStudioApp({
    root: project.root,
    appDir,
    distDir: project.distDir,
    ...(team ? { accounts: team.store } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.connectionLimits ? { connectionLimits: options.connectionLimits } : {}),
    logLevel: 'silent',
  });
  return app;
}

const signIn = (password: string, email = MARIA, headers: Record<string, string> = {}, remoteAddress = '10.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/session', payload: { email, password }, headers, remoteAddress });

async function localSession() {
  const response = await app.inject({ url: '/api/session' });
  return { cookie: String(response.headers['set-cookie']).split(';')[0]!, csrf: (response.json() as { csrfToken: string }).csrfToken };
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('sign-in under a burst of attempts', () => {
  it('lets at most 5 of 15 attempts sent together on one account be checked', async () => {
    await setup({ users: true });
    const statuses = (await Promise.all(Array.from({ length: 15 }, (_, i) => signIn(`wrong password ${i}`)))).map((r) => r.statusCode);
    expect(count(statuses, 401)).toBeLessThanOrEqual(5);
    expect(count(statuses, 200)).toBe(0);
    expect(count(statuses, 429)).toBeGreaterThanOrEqual(10);
  });

  it('hashes at most two passwords at once with eight waiting, and tells the rest the studio is busy', async () => {
    await setup({ users: true });
    const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => signIn('wrong password', `person${i}@example.com`)))).map(
      (r) => r.statusCode,
    );
    // Two hashes at once and eight waiting: the rest are told the studio is busy, and not counted.
    expect(count(statuses, 401)).toBeLessThanOrEqual(10);
    expect(count(statuses, 503)).toBeGreaterThan(0);
    expect(count(statuses, 200)).toBe(0);
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  const lockOut = async () => {
    for (let i = 0; i < 20; i++) await signIn('wrong password', `guess${i}@example.com`, { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1');
    return signIn(PASSWORD, MARIA, { 'x-forwarded-for': '198.51.100.4' }, '127.0.0.1');
  };

  // Twenty password checks one after another take seconds on a busy machine.
  it("counts each person's own address, so one stranger's wrong passwords do not lock the team out", { timeout: 60_000 }, async () => {
    await setup({ users: true, trustProxy: ['127.0.0.1'] });
    expect((await lockOut()).statusCode).toBe(200);
  });

  it('without it, everyone behind the proxy is one address (which is why the setting exists)', { timeout: 60_000 }, async () => {
    await setup({ users: true });
    expect((await lockOut()).statusCode).toBe(429);
  });
});

describe('bodies that are small but costly', () => {
  it.each([
    ['nested 3,000 deep', `${'['.repeat(3000)}${']'.repeat(3000)}`],
    ['nested one level too deep', JSON.stringify({ data: JSON.parse(`${'['.repeat(MAX_JSON_DEPTH)}1${']'.repeat(MAX_JSON_DEPTH)}`) })],
    [
      'with too many values',
      JSON.stringify({ data: Array.from({ length: 20 }, () => Array.from({ length: MAX_JSON_VALUES / 20 }, () => 1)) }),
    ],
    ['with a list too long', JSON.stringify({ data: { items: Array.from({ length: MAX_LIST_ITEMS + 1 }, () => 'a') } })],
    ['with a text too long', JSON.stringify({ data: { body: 'line\n'.repeat(MAX_TEXT_LINES + 1) } })],
    [
      'with a group of too many properties',
      JSON.stringify({ data: Object.fromEntries(Array.from({ length: MAX_OBJECT_KEYS + 1 }, (_, index) => [`k${index}`, 1])) }),
    ],
    ['with a property name too long', JSON.stringify({ data: { ['k'.repeat(MAX_KEY_CHARACTERS + 1)]: 1 } })],
    ['with a property name of several lines', JSON.stringify({ data: { 'a\nb': 1 } })],
  ])('refuses a change %s at once with 400, and keeps working', async (_name, body) => {
    await setup();
    const { cookie, csrf } = await localSession();
    const {
      result: response,
      ms,
      budgetMs,
    } = await timeAgainstBudget(100, () =>
      app.inject({
        method: 'PUT',
        url: '/api/file',
        headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        payload: body.startsWith('{') ? body.replace('{', '{"path":"content/pages/about.yaml","revision":0,') : body,
      }),
    );
    expect(ms).toBeLessThan(budgetMs);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: expect.stringMatching(
        /nested more than 24 levels|more than 5,000 values|more than 500 entries|longer than 2,000 lines|more than 200 properties|property name/,
      ),
    });
    expect((await app.inject({ url: '/api/entries', headers: { cookie } })).statusCode).toBe(200);
  });

  it('says a large change is too large as a change, not as a picture', async () => {
    await setup();
    const { cookie, csrf } = await localSession();
    const response = await app.inject({
      method: 'PUT',
      url: '/api/file',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      payload: JSON.stringify({ path: 'content/pages/about.yaml', data: { title: 'x'.repeat(3 * 1024 * 1024) } }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'That change is too large: the studio takes at most 1 MB at once.' });
  });
});

describe('sessions', () => {
  it('on one computer, gives every visit the one local session, so a thousand more end nothing', async () => {
    await setup();
    const first = await localSession();
    for (let i = 0; i < 1_001; i++) await app.inject({ url: '/api/session' });
    expect((await localSession()).cookie).toBe(first.cookie);
    expect((await app.inject({ url: '/api/entries', headers: { cookie: first.cookie } })).statusCode).toBe(200);
  });

  it('signs out everywhere: every session of the person ends at once', async () => {
    await setup({ users: true });
    const open = async (email: string) => {
      const response = await signIn(PASSWORD, email);
      return { cookie: String(response.headers['set-cookie']).split(';')[0]!, csrf: (response.json() as { csrfToken: string }).csrfToken };
    };
    const laptop = await open(MARIA);
    const phone = await open(MARIA);
    const ended = await app.inject({
      method: 'DELETE',
      url: '/api/session?everywhere=true',
      headers: { cookie: laptop.cookie, 'x-csrf-token': laptop.csrf },
    });
    expect(ended.json()).toEqual({ user: null, ended: 2 });
    for (const session of [laptop, phone]) {
      expect((await app.inject({ url: '/api/entries', headers: { cookie: session.cookie } })).statusCode).toBe(401);
    }
  });

  it('gives a new session at sign-in, ending the one the browser had before', async () => {
    await setup({ users: true });
    const first = await signIn(PASSWORD);
    const before = String(first.headers['set-cookie']).split(';')[0]!;
    const second = await signIn(PASSWORD, MARIA, { cookie: before });
    expect(String(second.headers['set-cookie']).split(';')[0]).not.toBe(before);
    expect((await app.inject({ url: '/api/entries', headers: { cookie: before } })).statusCode).toBe(401);
  });
});

describe('slow clients', () => {
  // The site server's limits scaled down so the test takes seconds, with the same relations between them.
  const LIMITS: ConnectionLimits = {
    headersTimeoutMs: 800,
    requestTimeoutMs: 1_500,
    idleTimeoutMs: 1_500,
    keepAliveTimeoutMs: 400,
    checkIntervalMs: 100,
  };

  it('cuts off a client that sends its headers one byte at a time', async () => {
    await setup({ connectionLimits: LIMITS });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const started = performance.now();
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const socket: Socket = connect(port, '127.0.0.1');
      const text = 'GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(200);
      let index = 0;
      const timer = setInterval(() => {
        if (!socket.destroyed && index < text.length) socket.write(text[index++]!);
      }, 100);
      const giveUp = setTimeout(() => reject(new Error('the studio kept a slow client for 10 s')), 10_000);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(giveUp);
        resolve(performance.now() - started);
      });
    });
    expect(closedAfter).toBeLessThan(LIMITS.headersTimeoutMs + 1_000);
  });
});

describe('odd requests get plain answers', () => {
  it('refuses keeping both versions of a page or an article without real data, with 400', async () => {
    await setup();
    const { cookie, csrf } = await localSession();
    for (const [file, data] of [
      ['content/pages/about.yaml', null],
      ['content/pages/about.yaml', 'x'],
      ['content/blog/what-is-ai-consulting.md', {}],
      ['content/blog/what-is-ai-consulting.md', { frontMatter: [], body: 'x' }],
    ] as const) {
      const kept = await app.inject({
        method: 'POST',
        url: '/api/keep-both',
        headers: { cookie, 'x-csrf-token': csrf },
        payload: { path: file, data, revision: 0 },
      });
      expect(kept.statusCode, `${file} ${JSON.stringify(data)}`).toBe(400);
    }
    expect((await app.inject({ url: '/api/changes', headers: { cookie } })).json()).toMatchObject({ files: [] });
  });

  it('keeps session-only pictures out of shared caches, and answers unknown paths without repeating them', async () => {
    await setup();
    const { cookie } = await localSession();
    const picture = await app.inject({ url: '/images/team/sarah-chen.svg', headers: { cookie } });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['cache-control']).toBe('private, no-store');
    const unknown = await app.inject({ url: '/no-such-place<script>', headers: { cookie } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Not found' });
  });

  it(`keeps at most ${MAX_DRAFTS} unpublished files, and says what to do`, async () => {
    await setup();
    const { cookie, csrf } = await localSession();
    const create = (name: string) =>
      app.inject({ method: 'POST', url: '/api/file', headers: { cookie, 'x-csrf-token': csrf }, payload: { kind: 'page', name } });
    for (let i = 0; i < MAX_DRAFTS; i++) expect((await create(`page-${i}`)).statusCode).toBe(200);
    const refused = await create('one-more');
    expect(refused.statusCode).toBe(409);
    expect((refused.json() as { message: string }).message).toBe(
      `There are ${MAX_DRAFTS} files with unpublished changes already: publish or discard some before changing another.`,
    );
  });

  it('refuses a rename that would pass the draft limit before writing anything, so no link is left behind', async () => {
    await setup();
    const { cookie, csrf } = await localSession();
    const create = (name: string) =>
      app.inject({ method: 'POST', url: '/api/file', headers: { cookie, 'x-csrf-token': csrf }, payload: { kind: 'page', name } });
    // Room for one more draft, but the rename needs the page and every file that links to it.
    for (let i = 0; i < MAX_DRAFTS - 1; i++) expect((await create(`page-${i}`)).statusCode).toBe(200);
    const opened = (await app.inject({ url: '/api/file?path=content/pages/about.yaml', headers: { cookie } })).json() as {
      revision: number;
      diskVersion: string;
    };
    const renamed = await app.inject({
      method: 'POST',
      url: '/api/rename',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { path: 'content/pages/about.yaml', address: '/about-us', revision: opened.revision, diskVersion: opened.diskVersion },
    });
    expect(renamed.statusCode).toBe(409);
    const drafts = readdirSync(path.join(project.root, '.studio', 'drafts'));
    expect(drafts).toHaveLength(MAX_DRAFTS - 1);
    const about = (await app.inject({ url: '/api/file?path=content/pages/about.yaml', headers: { cookie } })).json() as {
      data: { path: string };
    };
    expect(about.data.path).toBe('/about');
  });
});
