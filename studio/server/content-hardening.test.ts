// Content files as a `git pull` or a careless edit could leave them: a page taking an address
// something else answers, a picture path climbing out of public/images/, a link to a file outside
// content/, anchors repeated without end. Each is a mistake named in plain words, the rest of the
// studio keeps working, and no answer is an error page or holds the server up.
import { execFile } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { machineSlowdown } from '../../lead/testing/machine-speed.ts';
import { createStudioProject, fakeStudioAppDir, quickBuild, REPO_ROOT, type StudioProject } from '../testing/studio-project.ts';
import { buildStudioApp } from './app.ts';
import { publishThroughApi } from '../testing/publish-run.ts';

let project: StudioProject;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  project?.remove();
});

/** The "billion laughs": nine lists, each repeating the one before nine times (387 million words once expanded). */
const ALIAS_BOMB = `${[
  'a: &a [x,x,x,x,x,x,x,x,x]',
  ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
].join('\n')}\n`;
const ALIAS_MESSAGE =
  'this file repeats anchors (&name / *name) too many times: write each part out in full instead of repeating it with *name.';
const LINK_MESSAGE = 'This file is a link to a file kept elsewhere, which the site does not read: replace it with the file itself.';

type Session = { cookie: string; csrf: string };

async function setup(): Promise<Session> {
  project = createStudioProject({ git: true, copyPublic: true });
  const appDir = fakeStudioAppDir(project.root);
  app = buildStudioApp({
    root: project.root,
    appDir,
    distDir: project.distDir,
    localEditor: 'local',
    logLevel: 'silent',
    build: quickBuild,
  });
  const response = await app.inject({ url: '/api/session' });
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  return { cookie, csrf: (response.json() as { csrfToken: string }).csrfToken };
}

/** GET `url` three times: the answer, and the shortest time taken (a request's work runs in one go, so that is how long it held the server). */
async function timedGet({ cookie }: Session, url: string) {
  let fastest = Infinity;
  let response;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    response = await app.inject({ url, headers: { cookie } });
    fastest = Math.min(fastest, performance.now() - started);
  }
  return { response: response!, milliseconds: fastest };
}

/** Saves `file`, with its data changed by `change`, as a draft; returns the content mistakes the studio then shows for it. */
async function saveAndCheck({ cookie, csrf }: Session, file: string, change: (data: Record<string, unknown>) => Record<string, unknown>) {
  const opened = (await app.inject({ url: `/api/file?path=${file}`, headers: { cookie } })).json() as {
    data: Record<string, unknown>;
    revision: number;
    diskVersion: string;
  };
  const saved = await app.inject({
    method: 'PUT',
    url: '/api/file',
    headers: { cookie, 'x-csrf-token': csrf },
    payload: { path: file, data: change(opened.data), revision: opened.revision, diskVersion: opened.diskVersion },
  });
  expect(saved.statusCode).toBe(200);
  return (saved.json() as { issues: { message: string }[] }).issues.map((issue) => issue.message);
}

describe('page addresses in the studio', () => {
  it.each([
    ['/blog/what-is-ai-consulting', 'The address "/blog/what-is-ai-consulting" is already the address of an article: choose another.'],
    ['/api', 'The address "/api" is used by the site\'s server (the lead form sends to it): choose another, such as "/api-services".'],
    ['/:x', 'The address "/:x" has a part starting with ":"'],
  ])('shows a page saved at %s as a mistake, and does not publish it', async (address, message) => {
    const session = await setup();
    const issues = await saveAndCheck(session, 'content/pages/about.yaml', (data) => ({ ...data, path: address }));
    expect(issues).toContainEqual(expect.stringContaining(message));
    const published = await publishThroughApi(app, { cookie: session.cookie, 'x-csrf-token': session.csrf });
    expect(published.answer).toMatchObject({ ok: false, reason: 'invalid' });
    expect(published.steps.at(-1)).toMatchObject({ label: 'Checking the content', state: 'stopped' });
  });
});

describe("changing a page's address", () => {
  it.each([
    ['/blog/what-is-ai-consulting', 'is already the address of an article'],
    ['/api/leads', "is used by the site's server"],
    ['/images', "is used by the site's pictures"],
  ])("refuses %s with the content check's own words, and changes nothing", async (address, message) => {
    const { cookie, csrf } = await setup();
    const opened = (await app.inject({ url: '/api/file?path=content/pages/about.yaml', headers: { cookie } })).json() as {
      revision: number;
      diskVersion: string;
    };
    const renamed = await app.inject({
      method: 'POST',
      url: '/api/rename',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { path: 'content/pages/about.yaml', address, revision: opened.revision, diskVersion: opened.diskVersion },
    });
    expect(renamed.statusCode).toBe(400);
    expect((renamed.json() as { message: string }).message).toContain(message);
    expect((await app.inject({ url: '/api/changes', headers: { cookie } })).json()).toMatchObject({ files: [] });
  });
});

describe('picture paths in the studio', () => {
  it('shows a picture path climbing out of public/images/ as a mistake', async () => {
    const session = await setup();
    const issues = await saveAndCheck(session, 'content/pages/about.yaml', (data) => ({
      ...data,
      image: { src: '/images/../../package.json.png', alt: 'Nothing' },
    }));
    expect(issues).toContainEqual(
      expect.stringMatching(/^"\/images\/\.\.\/\.\.\/package\.json\.png" is not the address of one of the site's pictures/),
    );
  });
});

describe('a content file that is a link to a file outside content/', () => {
  it('is never read: opening it says what to do, and the navigator, preview and changes keep working', async () => {
    const session = await setup();
    writeFileSync(path.join(project.root, 'secret.yaml'), 'path: /leak\ntitle: Top Secret Words\n');
    symlinkSync(path.join(project.root, 'secret.yaml'), path.join(project.root, 'content/pages/leak.yaml'));

    const opened = await app.inject({ url: '/api/file?path=content/pages/leak.yaml', headers: { cookie: session.cookie } });
    expect(opened.statusCode).toBe(400);
    expect(opened.json()).toEqual({
      message:
        '"Leak" is a link to a file kept elsewhere, which the studio does not read: a developer must replace it with the file itself.',
    });
    for (const url of ['/api/entries', '/api/preview-data', '/api/changes', '/api/references?path=content/pages/about.yaml']) {
      const response = await app.inject({ url, headers: { cookie: session.cookie } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('Top Secret');
    }
    const entries = (await app.inject({ url: '/api/entries', headers: { cookie: session.cookie } })).json() as {
      entries: { path: string }[];
    };
    expect(entries.entries.map((entry) => entry.path)).toContain('content/pages/about.yaml');
    const changes = (await app.inject({ url: '/api/changes', headers: { cookie: session.cookie } })).json() as {
      issues: { file: string; message: string }[];
    };
    expect(changes.issues).toContainEqual(expect.objectContaining({ file: 'content/pages/leak.yaml', message: LINK_MESSAGE }));
  });
});

describe('a content file repeating anchors without end (a "billion laughs")', () => {
  it.each([
    ['a page', 'content/pages/bomb.yaml', ALIAS_BOMB, 2],
    ['an article', 'content/blog/bomb.md', `---\n${ALIAS_BOMB}---\n\nText.\n`, 3],
  ])('in %s is a located mistake; every answer is quick, none is an error page', async (_case, file, text, line) => {
    const session = await setup();
    // A draft elsewhere, so the list of changes has something to show beside the mistake.
    await saveAndCheck(session, 'content/pages/about.yaml', (data) => ({ ...data, title: 'About our team' }));

    const urls = [`/api/file?path=${file}`, '/api/preview-data', '/api/changes', '/api/entries', '/api/file?path=content/pages/about.yaml'];
    // Checking the whole content takes tens of milliseconds by itself: the file may add no more than
    // 100 on an idle machine, stretched by how busy this one is while the answers are timed.
    const slowdownBefore = machineSlowdown();
    const before = new Map<string, number>();
    for (const url of urls) before.set(url, (await timedGet(session, url.replace(file, 'content/pages/about.yaml'))).milliseconds);
    project.write(file, text);
    const added = new Map<string, number>();
    for (const url of urls) {
      const { response, milliseconds } = await timedGet(session, url);
      expect(response.statusCode, url).toBe(200);
      added.set(url, milliseconds - before.get(url)!);
    }
    const budgetMs = 100 * Math.max(slowdownBefore, machineSlowdown());
    for (const [url, ms] of added) expect(ms, url).toBeLessThan(budgetMs);
    const opened = (await app.inject({ url: `/api/file?path=${file}`, headers: { cookie: session.cookie } })).json() as {
      issues: { line: number; column: number; message: string }[];
    };
    expect(opened.issues).toEqual([expect.objectContaining({ line, column: 8, message: ALIAS_MESSAGE })]);
    const changes = (await app.inject({ url: '/api/changes', headers: { cookie: session.cookie } })).json() as {
      files: { path: string }[];
      issues: { file: string; message: string }[];
    };
    expect(changes.files.map((change) => change.path)).toEqual(['content/pages/about.yaml']);
    expect(changes.issues).toContainEqual(expect.objectContaining({ file, message: ALIAS_MESSAGE }));
  });

  it.each([
    ['a page', 'content/pages/bomb.yaml', ALIAS_BOMB, { path: '/bomb', title: 'Bomb' }],
    ['an article', 'content/blog/bomb.md', `---\n${ALIAS_BOMB}---\n\nText.\n`, { frontMatter: { title: 'Bomb' }, body: 'Text.\n' }],
  ])('in %s can be saved over from the form, or is refused as changed on disk, never an error page', async (_case, file, text, data) => {
    const { cookie, csrf } = await setup();
    project.write(file, text);
    const opened = (await app.inject({ url: `/api/file?path=${file}`, headers: { cookie } })).json() as { diskVersion: string };
    const save = (diskVersion: string) =>
      app.inject({
        method: 'PUT',
        url: '/api/file',
        headers: { cookie, 'x-csrf-token': csrf },
        payload: { path: file, data, revision: 0, diskVersion },
      });
    // A tab opened before a `git pull` brought the file.
    expect((await save('an-older-version')).statusCode).toBe(409);
    expect((await save(opened.diskVersion)).statusCode).toBe(200);
    expect(project.read(file)).toBe(text);
  });

  it('says so in plain words when the file is opened, instead of drawing a form', async () => {
    const { cookie } = await setup();
    project.write('content/pages/bomb.yaml', ALIAS_BOMB);
    const opened = (await app.inject({ url: '/api/file?path=content/pages/bomb.yaml', headers: { cookie } })).json() as {
      parseError: string;
    };
    expect(opened.parseError).toBe(
      `This file has a mistake the studio cannot show as a form: ${ALIAS_MESSAGE} Fix it in a text editor, or discard the draft.`,
    );
  });

  it('in the site settings: the preview says what to fix, by the name the studio gives it (never an error page), the rest keeps working', async () => {
    const { cookie } = await setup();
    project.write('content/site.yaml', ALIAS_BOMB);
    const preview = await app.inject({ url: '/api/preview-data', headers: { cookie } });
    expect(preview.statusCode).toBe(422);
    expect((preview.json() as { message: string }).message).toContain(`The preview cannot be drawn: Site settings: ${ALIAS_MESSAGE}`);
    expect((await app.inject({ url: '/api/entries', headers: { cookie } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/file?path=content/pages/about.yaml', headers: { cookie } })).statusCode).toBe(200);
  });

  it('makes `npm run check:content` name the mistake, without a stack trace', async () => {
    project = createStudioProject();
    project.write('content/pages/bomb.yaml', ALIAS_BOMB);
    const result = await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'scripts/validate-content.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, CONTENT_DIR: path.join(project.root, 'content') },
    }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
    );
    expect(result.code).toBe(1);
    const relative = path.relative(REPO_ROOT, path.join(project.root, 'content/pages/bomb.yaml'));
    expect(result.output).toBe(`Content check failed (1 problem):\n  ${relative}:2:8 ${ALIAS_MESSAGE}\n`);
  });
});
