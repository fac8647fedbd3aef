// A web page on another site tries to publish or undo through the studio on this computer, the way
// an attacker would: a plain HTML form posted by the browser (no CORS needed), to every spelling of
// the path. Chromium sends it; the studio refuses it, and nothing reaches the live site or git.
import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';

let studio: RunningStudio;
let attacker: Server;
let attackerUrl: string;
/** The form the attacker's page posts, by name: action and enctype. */
const forms = new Map<string, { action: string; enctype: string }>();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  studio = await startStudio();
  const port = await freePort();
  // "localhost" and "127.0.0.1" are different sites to the browser, as evil.example would be.
  attackerUrl = `http://localhost:${port}`;
  attacker = createServer((request, response) => {
    const form = forms.get(new URL(request.url ?? '/', attackerUrl).searchParams.get('form') ?? '');
    response.writeHead(form ? 200 : 404, { 'content-type': 'text/html' });
    response.end(
      form
        ? `<!doctype html><title>Win a prize</title>
           <form id="f" method="post" action="${form.action}" enctype="${form.enctype}">
             <input name='{"publish":"' value='now"}'>
           </form>
           <script>document.getElementById('f').submit()</script>`
        : 'not found',
    );
  });
  await new Promise<void>((resolve) => attacker.listen(port, 'localhost', resolve));
});

test.afterAll(async () => {
  attacker?.close();
  await studio?.stop();
});

/** The studio's API as its own page uses it: a session and its CSRF token. */
async function studioApi(page: Page) {
  await page.goto(studio.url);
  const session = await page.evaluate(async () => (await fetch('/api/session')).json() as Promise<{ csrfToken: string }>);
  return (method: string, url: string, body?: unknown) =>
    page.evaluate(
      async ({ method, url, body, csrf }) => {
        const response = await fetch(url, {
          method,
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      },
      { method, url, body, csrf: session.csrfToken },
    );
}

/** Lets the attacker's page post its form to `path` as `enctype`; returns the studio's status. */
async function attack(page: Page, path: string, enctype: string): Promise<number> {
  const name = `${forms.size}`;
  forms.set(name, { action: `${studio.url}${path}`, enctype });
  const answered = page.waitForResponse((response) => response.url().startsWith(studio.url) && response.request().method() === 'POST');
  await page.goto(`${attackerUrl}/?form=${name}`);
  return (await answered).status();
}

const SPELLINGS = ['/%61pi/publish', '/api/publish', '/API/publish', '//api//publish', '/x/../api/publish', '/api/publish/'];
const ENCTYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'];

test('a form on another site cannot publish a draft or undo a publish, under any spelling of the path', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await studioApi(page);
  const opened = (await api('GET', '/api/file?path=content/pages/about.yaml')).body as { data: object; diskVersion: string };
  const live = studio.read('content/pages/about.yaml');
  // One legitimate publish, so there is something an undo could revert.
  const first = await api('PUT', '/api/file', {
    path: 'content/pages/about.yaml',
    data: { ...opened.data, title: 'About us, published' },
    revision: 0,
    diskVersion: opened.diskVersion,
  });
  expect(first.status).toBe(200);
  // The changes as the publish screen shows them, sent back with each text's fingerprint; a publish
  // is answered at once, and its run is read until it is done.
  const shown = (await api('GET', '/api/changes')).body as { files: { path: string; fingerprint: string }[] };
  const published0 = await api('POST', '/api/publish', { files: shown.files.map(({ path, fingerprint }) => ({ path, fingerprint })) });
  expect(published0.status, JSON.stringify(published0.body)).toBe(202);
  const runId = (published0.body.run as { id: string }).id;
  await expect
    .poll(async () => ((await api('GET', `/api/publish-runs/${runId}`)).body.run as { answer?: { ok: boolean } }).answer, {
      timeout: 60_000,
    })
    .toMatchObject({ ok: true });
  const published = studio.read('content/pages/about.yaml');
  expect(published).not.toBe(live);
  const commits = studio.git('log', '--format=%H');

  // An unapproved draft waits for review.
  const reopened = (await api('GET', '/api/file?path=content/pages/about.yaml')).body as { data: object; diskVersion: string };
  const draft = await api('PUT', '/api/file', {
    path: 'content/pages/about.yaml',
    data: { ...reopened.data, title: 'Unapproved draft' },
    revision: 0,
    diskVersion: reopened.diskVersion,
  });
  expect(draft.status).toBe(200);

  // Every spelling as the reported attack sent it (text/plain), and every form encoding on the
  // spelling that used to slip through.
  const attempts = [
    ...SPELLINGS.map((spelling) => [spelling, 'text/plain'] as const),
    ...ENCTYPES.map((enctype) => ['/%61pi/publish', enctype] as const),
  ];
  for (const [spelling, enctype] of attempts) {
    expect(await attack(page, spelling, enctype), `${spelling} as ${enctype}`).toBe(403);
    expect(await attack(page, spelling.replace('publish', 'undo'), enctype), `undo ${spelling} as ${enctype}`).toBe(403);
  }

  expect(studio.read('content/pages/about.yaml')).toBe(published);
  expect(studio.git('log', '--format=%H')).toBe(commits);
  // The draft is still there, waiting for its editor.
  const api2 = await studioApi(page);
  expect(((await api2('GET', '/api/changes')).body as { files: { path: string }[] }).files.map((file) => file.path)).toEqual([
    'content/pages/about.yaml',
  ]);
});
