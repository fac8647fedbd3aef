// The studio's HTTP surface: sessions, CSRF, sign-in limits, paths, uploads, and the editing API a
// browser uses. Built with `buildStudioApp` and driven with `inject`: nothing listens.
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import { readSchemaModel } from '../../content-model/load/schema-files.ts';
import { buildFormModel } from '../app/fields/form-model.ts';
import { buildStudioApp } from './app.ts';
import { hashPassword } from '../../back-office/accounts/passwords.ts';
import type { Role } from '../../back-office/roles.ts';
import { createTeamStore, TEAM_PASSWORD as PASSWORD, type TeamStore } from '../testing/team-accounts.ts';
import { SIGN_IN_MESSAGES } from './routes/session.ts';
import { publishThroughApi } from '../testing/publish-run.ts';

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

/** `users`: the team's accounts (maria an editor, unless `accounts` says otherwise); without: one person on this computer. */
async function setup(options: { users?: boolean; accounts?: Record<string, Role> } = {}) {
  project = createStudioProject({ git: true, copyPublic: true });
  const appDir = fakeStudioAppDir(project.root);
  if (options.users || options.accounts) team = await createTeamStore(options.accounts ?? { [MARIA]: 'editor' });
  app = buildStudioApp({
    root: project.root,
    appDir,
    distDir: project.distDir,
    ...(team ? { accounts: team.store } : {}),
    localEditor: 'local',
    logLevel: 'silent',
    build: quickBuild,
  });
  return app;
}

/** Opens a session as the browser app does: the cookie and the CSRF token. */
async function localSession() {
  const response = await app.inject({ url: '/api/session' });
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  return { cookie, csrf: (response.json() as { csrfToken: string }).csrfToken };
}

type Session = { cookie: string; csrf: string };
type Opened<T = Record<string, unknown>> = { data: T; revision: number; diskVersion: string };

/** GET /api/file: a content file as the editor opens it. */
async function openFile<T = Record<string, unknown>>({ cookie }: Session, file: string): Promise<Opened<T>> {
  return (await app.inject({ url: `/api/file?path=${file}`, headers: { cookie } })).json() as Opened<T>;
}

/** PUT /api/file: saves `data` as the draft of `file`, as a tab that has seen `seen` (revision and disk version). */
async function saveFile({ cookie, csrf }: Session, file: string, data: unknown, seen: { revision: number; diskVersion: string }) {
  return app.inject({
    method: 'PUT',
    url: '/api/file',
    headers: { cookie, 'x-csrf-token': csrf },
    payload: { path: file, data, revision: seen.revision, diskVersion: seen.diskVersion },
  });
}

async function signIn(email = MARIA, password = PASSWORD, address = '10.0.0.1') {
  return app.inject({ method: 'POST', url: '/api/session', payload: { email, password }, remoteAddress: address });
}

describe('one editor on this computer (no sign-in configured)', () => {
  it('opens a session on first visit and edits a page as a draft', async () => {
    await setup();
    const session = await localSession();
    const { cookie } = session;
    const opened = await openFile(session, 'content/pages/about.yaml');
    const saved = await saveFile(session, 'content/pages/about.yaml', { ...opened.data, title: 'About our team' }, opened);
    expect(saved.statusCode).toBe(200);
    const changes = (await app.inject({ url: '/api/changes', headers: { cookie } })).json() as {
      files: { path: string; hunks: { lines: { kind: string; text: string }[] }[] }[];
      publishable: boolean;
    };
    expect(changes.publishable).toBe(true);
    const changed = changes.files[0]!.hunks.flatMap((hunk) => hunk.lines).filter((line) => line.kind !== 'same');
    expect(changed.map((line) => line.text)).toEqual([expect.stringMatching(/^title: /), 'title: About our team']);
  });

  it('answers each change with the live file’s data and the draft’s, which the publish screen compares field by field', async () => {
    await setup();
    const session = await localSession();
    const about = 'content/pages/about.yaml';
    const opened = await openFile(session, about);
    await saveFile(session, about, { ...opened.data, title: 'About our team' }, opened);
    const created = await app.inject({
      method: 'POST',
      url: '/api/file',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
      payload: { kind: 'page', name: 'spring' },
    });
    expect(created.statusCode).toBe(200);
    const { files } = (await app.inject({ url: '/api/changes', headers: { cookie: session.cookie } })).json() as {
      files: { path: string; before: { title: string } | null; after: { title: string; path: string } | null }[];
    };
    const changed = files.find((file) => file.path === about)!;
    expect(changed.before?.title).toBe((opened.data as { title: string }).title);
    expect(changed.after?.title).toBe('About our team');
    // A new page had nothing before it.
    const added = files.find((file) => file.path === 'content/pages/spring.yaml')!;
    expect(added.before).toBeNull();
    expect(added.after?.path).toBe('/spring');
  });

  it('keeps the preview working while a page on disk has a mistake (after a git pull, say)', async () => {
    await setup();
    const { cookie } = await localSession();
    project.write(
      'content/pages/disclaimer.yaml',
      project.read('content/pages/disclaimer.yaml').replace(/^title: .*$/m, `title: ${'x'.repeat(80)}`),
    );
    const answer = await app.inject({ url: '/api/preview-data', headers: { cookie } });
    expect(answer.statusCode).toBe(200);
    expect((answer.json() as { site: { company: { name: string } } }).site.company.name).toBe('Premier AI Consulting');
  });

  it('keeps both versions when two tabs edit one page, never dropping the newer draft of the other tab', async () => {
    await setup();
    const session = await localSession();
    const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
    const opened = await openFile(session, 'content/pages/about.yaml');
    const saved = await saveFile(session, 'content/pages/about.yaml', { ...opened.data, title: 'About us (first tab)' }, opened);
    expect(saved.statusCode).toBe(200);
    // The second tab still has revision 0: it keeps its version as a copy.
    const secondTab = { ...opened.data, description: 'The second tab wrote this description, long enough to be a valid one.' };
    const kept = await app.inject({
      method: 'POST',
      url: '/api/keep-both',
      headers,
      payload: { path: 'content/pages/about.yaml', data: secondTab, revision: opened.revision },
    });
    expect(kept.json()).toMatchObject({ path: 'content/pages/about-copy.yaml' });
    expect((await openFile(session, 'content/pages/about.yaml')).data.title).toBe('About us (first tab)');

    // The site settings cannot be copied: the older tab is told to reload instead.
    const site = await openFile(session, 'content/site.yaml');
    await saveFile(session, 'content/site.yaml', { ...site.data, bookingUrl: 'https://example.com/book' }, site);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/keep-both',
      headers,
      payload: { path: 'content/site.yaml', data: site.data, revision: 0 },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: expect.stringContaining('newer draft from another tab or person') });
  });

  it('names what links to a page before it is deleted, and moves those links when its address changes', async () => {
    await setup();
    const session = await localSession();
    const { cookie, csrf } = session;
    const references = (await app.inject({ url: '/api/references?path=content/pages/about.yaml', headers: { cookie } })).json() as {
      references: { path: string; where: string[] }[];
    };
    // Each place named as the form names it, with labels read from the form model.
    const siteFields = buildFormModel(readSchemaModel(project.root).files).site.fields!;
    const label = (key: string) => siteFields.find((field) => field.key === key)!.label;
    expect(references.references).toContainEqual({
      path: 'content/site.yaml',
      title: 'Site settings',
      where: [label('navigation'), label('footer')],
    });

    const opened = await openFile(session, 'content/pages/about.yaml');
    const renamed = await app.inject({
      method: 'POST',
      url: '/api/rename',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { path: 'content/pages/about.yaml', address: '/about-us', revision: opened.revision, diskVersion: opened.diskVersion },
    });
    expect(renamed.json()).toMatchObject({ address: '/about-us', updated: expect.arrayContaining(['Site settings']) });
    const site = await openFile<{ navigation: { href: string }[]; footer: { groups: { links: { href: string }[] }[] } }>(
      session,
      'content/site.yaml',
    );
    expect(site.data.navigation.map((link) => link.href)).toContain('/about-us');
    expect(site.data.navigation.map((link) => link.href)).not.toContain('/about');
    expect(site.data.footer.groups.flatMap((group) => group.links.map((link) => link.href))).toContain('/about-us');
    // Everything still checks: publishing would be allowed.
    const changes = (await app.inject({ url: '/api/changes', headers: { cookie } })).json() as { publishable: boolean; issues: unknown[] };
    expect(changes).toMatchObject({ publishable: true });
  });

  it('moves links written as /about/, /about?x and /about#y with the page, keeping their query and part', async () => {
    await setup();
    const session = await localSession();
    const { cookie, csrf } = session;
    project.write('content/site.yaml', project.read('content/site.yaml').replace(/href: \/about$/m, 'href: /about/'));
    const voiceAi = project.read('content/pages/voice-ai.yaml');
    project.write(
      'content/pages/voice-ai.yaml',
      voiceAi.replace(/href: \/contact$/m, 'href: /about?from=voice-ai').replace(/href: \/contact$/m, 'href: /about#team'),
    );
    const opened = await openFile(session, 'content/pages/about.yaml');
    const renamed = await app.inject({
      method: 'POST',
      url: '/api/rename',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { path: 'content/pages/about.yaml', address: '/about-us', revision: opened.revision, diskVersion: opened.diskVersion },
    });
    expect(renamed.statusCode).toBe(200);
    const site = await openFile<{ navigation: { href: string }[] }>(session, 'content/site.yaml');
    expect(site.data.navigation.map((link) => link.href)).toContain('/about-us');
    const page = JSON.stringify((await openFile(session, 'content/pages/voice-ai.yaml')).data);
    expect(page).toContain('"/about-us?from=voice-ai"');
    expect(page).toContain('"/about-us#team"');
    expect(page).not.toMatch(/"\/about[/?#"]/);
    const changes = (await app.inject({ url: '/api/changes', headers: { cookie } })).json() as { publishable: boolean; issues: unknown[] };
    expect(changes).toMatchObject({ publishable: true, issues: [] });
  });

  it('lists the advice about the changed files beside the diff, and still lets them be published', async () => {
    await setup();
    const session = await localSession();
    const opened = await openFile<{ title: string; blocks: unknown[] }>(session, 'content/pages/about.yaml');
    const title = 'About the people who build AI that pays';
    const saved = await saveFile(session, 'content/pages/about.yaml', { ...opened.data, title }, opened);
    const { issues } = saved.json() as { issues: { severity?: string; segments?: unknown[]; message: string }[] };
    // Beside the field as advice, not as a mistake.
    expect(issues).toEqual([expect.objectContaining({ severity: 'warning', segments: ['title'] })]);
    const changes = (await app.inject({ url: '/api/changes', headers: { cookie: session.cookie } })).json() as {
      publishable: boolean;
      issues: unknown[];
      warnings: { file: string; message: string }[];
    };
    expect(changes.publishable).toBe(true);
    expect(changes.issues).toEqual([]);
    // Only the changed file's advice: the articles' long titles are not this publish's business.
    expect(changes.warnings.map((warning) => warning.file)).toEqual(['content/pages/about.yaml']);
    expect(changes.warnings[0]!.message).toMatch(/^This title is \d+ characters as search results show it/);
  });

  it('refuses a change without the CSRF token, or from another site', async () => {
    await setup();
    const { cookie, csrf } = await localSession();
    const payload = { path: 'content/pages/about.yaml', revision: 0 };
    expect((await app.inject({ method: 'POST', url: '/api/discard', headers: { cookie }, payload })).statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'POST', url: '/api/discard', headers: { cookie, 'x-csrf-token': 'guess' }, payload })).statusCode,
    ).toBe(403);
    const crossSite = await app.inject({
      method: 'POST',
      url: '/api/discard',
      headers: { cookie, 'x-csrf-token': csrf, origin: 'https://evil.example', host: 'localhost:4322' },
      payload,
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/discard', headers: { cookie, 'x-csrf-token': csrf }, payload })).statusCode).toBe(
      200,
    );
  });

  it('refuses any change without a session', async () => {
    await setup();
    const response = await app.inject({ method: 'POST', url: '/api/publish', payload: {} });
    expect(response.statusCode).toBe(401);
  });

  it('answers only requests addressed to this computer, so a page that points its own name at 127.0.0.1 gets nothing', async () => {
    await setup();
    const rebound = await app.inject({ url: '/api/session', headers: { host: 'attacker.example:4322' } });
    expect(rebound.statusCode).toBe(421);
    expect(rebound.headers['set-cookie']).toBeUndefined();
    expect(rebound.body).toContain('http://127.0.0.1:4322/');
    // The same-origin check alone would let this through: the page's origin and Host agree.
    const publish = await app.inject({
      method: 'POST',
      url: '/api/publish',
      headers: { host: 'attacker.example:4322', origin: 'http://attacker.example:4322' },
      payload: {},
    });
    expect(publish.statusCode).toBe(421);
    for (const host of ['127.0.0.1:4322', 'localhost:4322', '[::1]:4322', 'localhost']) {
      expect((await app.inject({ url: '/api/session', headers: { host } })).statusCode).toBe(200);
    }
  });

  it.each(['../package.json', 'content/pages/../../package.json', '/etc/passwd', 'content/../.env'])(
    'refuses the path %s',
    async (target) => {
      await setup();
      const { cookie } = await localSession();
      const response = await app.inject({ url: `/api/file?path=${encodeURIComponent(target)}`, headers: { cookie } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.stringContaining('is not a content file the studio edits') });
    },
  );

  it('sets strict headers on every answer', async () => {
    await setup();
    const response = await app.inject({ url: '/' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('a team (sign-in configured)', () => {
  it('asks for sign-in, and lets the right password in with a strict session cookie', async () => {
    await setup({ users: true });
    const anonymous = (await app.inject({ url: '/api/session' })).json();
    expect(anonymous).toEqual({ signInRequired: true, user: null, timeZone: expect.any(String) });
    expect((await app.inject({ url: '/api/entries' })).statusCode).toBe(401);
    const response = await signIn();
    expect(response.statusCode).toBe(200);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const session = cookie.split(';')[0]!;
    expect((await app.inject({ url: '/api/entries', headers: { cookie: session } })).statusCode).toBe(200);
  });

  it('refuses wrong passwords, then limits the attempts on that account from that address', async () => {
    await setup({ users: true });
    for (let attempt = 0; attempt < 5; attempt++) expect((await signIn(MARIA, `wrong password ${attempt}`)).statusCode).toBe(401);
    const limited = await signIn(MARIA, PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Someone guessing from elsewhere does not lock maria out where she works.
    expect((await signIn(MARIA, PASSWORD, '10.0.0.2')).statusCode).toBe(200);
  });

  it('answers an unknown address exactly like a wrong password', async () => {
    await setup({ users: true });
    const unknown = await signIn('nobody@example.com', PASSWORD);
    const wrong = await signIn(MARIA, 'not the password at all');
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({ message: SIGN_IN_MESSAGES.refused });
  });

  it('records who published', async () => {
    await setup({ users: true });
    const session = String((await signIn()).headers['set-cookie']).split(';')[0]!;
    const { csrfToken } = (await app.inject({ url: '/api/session', headers: { cookie: session } })).json() as { csrfToken: string };
    const headers = { cookie: session, 'x-csrf-token': csrfToken };
    const opened = (await app.inject({ url: '/api/file?path=content/pages/about.yaml', headers })).json() as {
      data: { title: string };
      revision: number;
      diskVersion: string;
    };
    await app.inject({
      method: 'PUT',
      url: '/api/file',
      headers,
      payload: {
        path: 'content/pages/about.yaml',
        data: { ...opened.data, title: 'About our team' },
        revision: 0,
        diskVersion: opened.diskVersion,
      },
    });
    const published = await publishThroughApi(app, headers);
    expect(published.answer).toMatchObject({ ok: true, record: { user: MARIA } });
    expect(project.git('log', '-1', '--format=%an')).toBe(`${MARIA}\n`);
  });
});

describe("the team's accounts decide who is in, on every request", () => {
  /** Signs in and answers the session's cookie and CSRF token. */
  async function signedIn(email = MARIA) {
    const response = await signIn(email);
    expect(response.statusCode).toBe(200);
    return { cookie: String(response.headers['set-cookie']).split(';')[0]!, csrf: (response.json() as { csrfToken: string }).csrfToken };
  }
  const entries = (cookie: string) => app.inject({ url: '/api/entries', headers: { cookie } }).then((answer) => answer.statusCode);

  it('ends the studio session of an account removed with `npm run users` at its next request', async () => {
    await setup({ users: true });
    const { cookie } = await signedIn();
    expect(await entries(cookie)).toBe(200);
    // Another connection to the same store, as the users command opens while the studio runs.
    const users = await team!.openAgain();
    await users.removeAccount(MARIA);
    expect(await entries(cookie)).toBe(401);
    expect((await app.inject({ url: '/api/session', headers: { cookie } })).json()).toEqual({
      signInRequired: true,
      user: null,
      timeZone: expect.any(String),
    });
  });

  it('ends it when the password changes, and lets the new password in', async () => {
    await setup({ users: true });
    const { cookie } = await signedIn();
    const newPassword = 'a brand new passphrase';
    await (await team!.openAgain()).setAccountPassword(MARIA, await hashPassword(newPassword), Date.now());
    expect(await entries(cookie)).toBe(401);
    expect((await signIn(MARIA, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(MARIA, newPassword)).statusCode).toBe(200);
  });

  it('ends it when the role changes to one that may not edit the site', async () => {
    await setup({ users: true });
    const { cookie } = await signedIn();
    await team!.store.setAccountRole(MARIA, 'viewer', Date.now());
    expect(await entries(cookie)).toBe(401);
  });

  it.each(['sales', 'viewer'] as const)('refuses a %s account with the right password: 403, a clear message, no session', async (role) => {
    await setup({ accounts: { 'sam@example.com': role } });
    const refused = await signIn('sam@example.com');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This account cannot edit the site: ask an admin to give it the editor role.' });
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await team!.store.findAccount('sam@example.com'))?.lastSignInAt).toBeUndefined();
    // A wrong password says nothing about the role.
    expect((await signIn('sam@example.com', 'not the password at all')).json()).toEqual({ message: SIGN_IN_MESSAGES.refused });
  });

  it('lets an admin in, and signs in with the address in any case', async () => {
    await setup({ accounts: { 'boss@example.com': 'admin' } });
    const response = await signIn('  Boss@Example.COM ');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ signInRequired: true, user: 'boss@example.com' });
  });

  it('signs out: the session ends in the store and the cookie is cleared', async () => {
    await setup({ users: true });
    const { cookie, csrf } = await signedIn();
    const out = await app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie, 'x-csrf-token': csrf } });
    expect(out.json()).toEqual({ user: null, ended: 1 });
    expect(String(out.headers['set-cookie'])).toMatch(/^studio_session=; Max-Age=0/);
    expect(await entries(cookie)).toBe(401);
  });
});

describe('one person on their own computer (no accounts)', () => {
  it('opens without sign-in on loopback, credits changes to the local editor, and refuses sign-in', async () => {
    await setup();
    const answer = await app.inject({ url: '/api/session', headers: { host: '127.0.0.1:4322' } });
    expect(answer.json()).toMatchObject({ signInRequired: false, user: 'local' });
    const cookie = String(answer.headers['set-cookie']).split(';')[0]!;
    expect(await app.inject({ url: '/api/entries', headers: { cookie } }).then((response) => response.statusCode)).toBe(200);
    expect((await signIn()).json()).toEqual({ message: SIGN_IN_MESSAGES.notConfigured });
    // Anything not addressed to this computer is refused.
    expect((await app.inject({ url: '/api/session', headers: { host: 'studio.example.com' } })).statusCode).toBe(421);
  });
});

describe('pictures', () => {
  it('serves the library with a policy that lets an SVG draw but never run script', async () => {
    await setup();
    const { cookie } = await localSession();
    const answer = await app.inject({ url: '/images/team/sarah-chen.svg', headers: { cookie } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect((await app.inject({ url: '/images/..%2f..%2fpackage.json', headers: { cookie } })).statusCode).toBe(404);
    // Unpublished uploads live there too: only for people with a session.
    expect((await app.inject({ url: '/images/team/sarah-chen.svg' })).statusCode).toBe(401);
  });

  it('refuses an SVG with a script, named .png, and keeps nothing', async () => {
    await setup();
    const { cookie, csrf } = await localSession();
    const response = await app.inject({
      method: 'POST',
      url: '/api/images?name=photo.png',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ message: expect.stringContaining('SVG pictures are refused') });
  });

  it('refuses an upload over 10 MB', async () => {
    await setup();
    const { cookie, csrf } = await localSession();
    const response = await app.inject({
      method: 'POST',
      url: '/api/images?name=big.png',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(11 * 1024 * 1024),
    });
    expect(response.statusCode).toBe(413);
  });
});
