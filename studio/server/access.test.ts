// Access to the studio under every spelling of every path: the decision is made on the route that
// runs, so percent-escapes, capitals, doubled slashes, dot segments and trailing slashes change
// nothing. Driven with `inject` against the real app; every route the app registers is tried.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import { buildStudioApp } from './app.ts';
import { createTeamStore, TEAM_PASSWORD as PASSWORD, type TeamStore } from '../testing/team-accounts.ts';

let project: StudioProject;
let team: TeamStore | undefined;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  await team?.remove();
  team = undefined;
  project?.remove();
});

const HOST = '127.0.0.1:4322';

async function setup(options: { users?: boolean } = {}) {
  project = createStudioProject({ git: true, copyPublic: true });
  const appDir = fakeStudioAppDir(project.root);
  mkdirSync(path.join(appDir, 'assets'), { recursive: true });
  writeFileSync(path.join(appDir, 'assets', 'app-AbC123.js'), 'console.log(1)');
  if (options.users) team = await createTeamStore({ 'maria@example.com': 'editor' });
  app = buildStudioApp({
    root: project.root,
    appDir,
    distDir: project.distDir,
    ...(team ? { accounts: team.store } : {}),
    localEditor: 'local',
    logLevel: 'silent',
    build: quickBuild,
    review: 'required',
  });
  await app.ready();
  // An unpublished draft, so a publish that slipped through would have something to publish.
  const session = await openSession(options.users ?? false);
  const opened = (await app.inject({ url: '/api/file?path=content/pages/about.yaml', headers: session.headers })).json() as {
    data: Record<string, unknown>;
    diskVersion: string;
  };
  const saved = await app.inject({
    method: 'PUT',
    url: '/api/file',
    headers: { ...session.headers, 'x-csrf-token': session.csrf },
    payload: {
      path: 'content/pages/about.yaml',
      data: { ...opened.data, title: 'Unapproved draft' },
      revision: 0,
      diskVersion: opened.diskVersion,
    },
  });
  expect(saved.statusCode).toBe(200);
  return session;
}

async function openSession(signIn: boolean) {
  const response = signIn
    ? await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { host: HOST },
        payload: { email: 'maria@example.com', password: PASSWORD },
      })
    : await app.inject({ url: '/api/session', headers: { host: HOST } });
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  return { headers: { cookie, host: HOST }, csrf: (response.json() as { csrfToken: string }).csrfToken };
}

/** The spellings of one path that a router may treat as that path. */
function spellingsOf(plain: string): string[] {
  const [first = '', ...rest] = plain.slice(1).split('/');
  const tail = rest.length ? `/${rest.join('/')}` : '';
  const encodedFirstLetter = `/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${tail}`;
  return [
    plain,
    encodedFirstLetter,
    `/${[...first].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('')}${tail}`,
    `/${[...first].map((c) => `%${c.charCodeAt(0).toString(16).toLowerCase()}`).join('')}${tail}`,
    plain.toUpperCase(),
    `/${first[0]!.toUpperCase()}${first.slice(1)}${tail}`,
    `/${plain}`,
    plain.replaceAll('/', '//'),
    `${plain}/`,
    `/.${plain}`,
    `/elsewhere/..${plain}`,
    `/assets/..${plain}`,
    `/%2e${plain}`,
    `/x/%2e%2e${plain}`,
    plain.replace(/\/(?=[^/]*$)/, '/./'),
    plain.replaceAll('/', '%2F').replace(/^%2F/, '/'),
    plain.replaceAll('/', '\\').replace(/^\\/, '/'),
  ];
}

/** Every route the app has that is not one of the app's own public files, with a concrete path. */
function protectedRoutes() {
  return app.studioRoutes
    .filter((route) => route.access !== 'public' && route.method !== 'HEAD')
    .map((route) => ({ ...route, path: route.url.replace('*', 'team/sarah-chen.svg') }));
}

function requestFor(route: { method: string; accepts: readonly string[] }, url: string, headers: Record<string, string>) {
  const type = route.accepts.includes('json') ? 'application/json' : 'image/png';
  const body = route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: '{}', headers: { 'content-type': type } };
  return {
    method: route.method as 'GET',
    url: `${url}${route.method === 'DELETE' ? '?path=content/pages/about.yaml' : ''}`,
    ...body,
    headers: { host: HOST, ...(body.headers ?? {}), ...headers },
  };
}

async function answer(request: ReturnType<typeof requestFor>) {
  const response = await app.inject(request);
  return { status: response.statusCode, body: response.body };
}

/** Nothing was published, committed or logged. */
function expectNothingPublished() {
  expect(project.git('log', '--format=%s')).toBe('Content as shipped\n');
  expect(existsSync(path.join(project.root, '.studio', 'publish-log.jsonl'))).toBe(false);
  // Nothing was asked for review or scheduled either.
  expect(existsSync(path.join(project.root, '.studio', 'reviews.json'))).toBe(false);
  expect(existsSync(path.join(project.root, '.studio', 'schedule.json'))).toBe(false);
  expect(project.read('content/pages/about.yaml')).not.toContain('Unapproved draft');
}

describe.each([
  ['with sign-in', true],
  ['on one computer, without sign-in', false],
])('every protected route %s', (_name, users) => {
  it('answers every spelling of its path without a session exactly as the plain path (401)', async () => {
    await setup({ users });
    const routes = protectedRoutes();
    // The list is the app's own: a route added later is tried too. These must be among them.
    expect(routes.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/entries',
        'GET /api/file',
        'PUT /api/file',
        'POST /api/publish',
        'POST /api/undo',
        'GET /api/appearance',
        'GET /api/appearance/card',
        'GET /api/reviews',
        'POST /api/reviews',
        'POST /api/reviews/send-back',
        'POST /api/reviews/approve',
        'GET /api/reviews/feedback',
        'GET /api/schedule',
        'POST /api/schedule',
        'POST /api/schedule/cancel',
        'POST /api/schedule/dismiss',
        'GET /images/*',
      ]),
    );
    for (const route of routes) {
      if (route.access === 'anyone') continue;
      const plain = await answer(requestFor(route, route.path, {}));
      expect(plain.status, `${route.method} ${route.path}`).toBe(401);
      for (const spelling of spellingsOf(route.path)) {
        expect(await answer(requestFor(route, spelling, {})), `${route.method} ${spelling}`).toEqual(plain);
      }
    }
    expectNothingPublished();
  });

  it('refuses every spelling of every change without the CSRF token, from another site, or as a plain form', async () => {
    const session = await setup({ users });
    const changes = protectedRoutes().filter((route) => route.method !== 'GET' && route.access === 'session');
    for (const route of changes) {
      for (const spelling of spellingsOf(route.path)) {
        const where = `${route.method} ${spelling}`;
        const noToken = await answer(requestFor(route, spelling, session.headers));
        expect(noToken.status, `${where} without token`).toBe(403);
        const otherSite = await answer(
          requestFor(route, spelling, { ...session.headers, 'x-csrf-token': session.csrf, origin: 'https://evil.example' }),
        );
        expect(otherSite.status, `${where} from another site`).toBe(403);
        // What a plain HTML form can send: never read, whatever it carries.
        for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
          const form = requestFor(route, spelling, { ...session.headers, 'x-csrf-token': session.csrf, 'content-type': type });
          expect((await answer({ ...form, payload: 'publish=1' })).status, `${where} as ${type}`).toBe(415);
        }
      }
    }
    expectNothingPublished();
  });
});

describe('what needs no session', () => {
  it("serves the app's own files and the sign-in state to anyone, and answers unknown paths 404", async () => {
    await setup({ users: true });
    for (const url of ['/', '/preview', '/assets/app-AbC123.js', '/ASSETS/app-AbC123.js', '//assets//app-AbC123.js']) {
      expect((await app.inject({ url, headers: { host: HOST } })).statusCode, url).not.toBe(401);
    }
    expect((await app.inject({ url: '/api/session', headers: { host: HOST } })).json()).toMatchObject({ signInRequired: true, user: null });
    expect((await app.inject({ url: '/api/nothing-here', headers: { host: HOST } })).statusCode).toBe(404);
  });

  it('signs in only with JSON: a plain form cannot post an address and password', async () => {
    await setup({ users: true });
    const form = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=maria%40example.com&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(form.statusCode).toBe(415);
  });
});
