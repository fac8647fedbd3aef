// /api/file with a body or an address of the wrong shape: a plain 400 naming the field, before
// anything runs, and nothing written (no draft, the content file as it was).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalStudio } from '../../testing/local-studio.ts';
import { createStudioProject, type StudioProject } from '../../testing/studio-project.ts';
import type { buildStudioApp } from '../app.ts';

let project: StudioProject;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  project?.remove();
});

const ABOUT = 'content/pages/about.yaml';

async function setup() {
  project = createStudioProject({ git: true });
  const studio = await openLocalStudio(project);
  app = studio.app;
  const opened = (await app.inject({ url: `/api/file?path=${ABOUT}`, headers: { cookie: studio.headers.cookie } })).json() as {
    data: Record<string, unknown>;
    diskVersion: string;
  };
  return { headers: studio.headers, opened, before: project.read(ABOUT) };
}

/** No draft was kept and no content file changed. */
function expectNothingChanged(before: string) {
  expect(readdirSync(path.join(project.root, '.studio', 'drafts'))).toEqual([]);
  expect(project.read(ABOUT)).toBe(before);
  expect(project.git('status', '--porcelain', 'content')).toBe('');
}

describe('PUT /api/file with a body of the wrong shape', () => {
  it.each([
    ['without a path', (data: unknown) => ({ data, revision: 0 }), '"path" is missing from the request.'],
    ['with a path that is not text', (data: unknown) => ({ path: [ABOUT], data, revision: 0 }), '"path" in the request must be text.'],
    [
      'with a revision that is text',
      (data: unknown) => ({ path: ABOUT, data, revision: '1' }),
      'The revision must be a whole number of 0 or more.',
    ],
    [
      'with a negative revision',
      (data: unknown) => ({ path: ABOUT, data, revision: -1 }),
      'The revision must be a whole number of 0 or more.',
    ],
    ['with a list as the data', () => ({ path: ABOUT, data: [], revision: 0 }), 'The page data is missing.'],
    [
      'with a disk version that is a number',
      (data: unknown) => ({ path: ABOUT, data, diskVersion: 7 }),
      '"diskVersion" in the request must be text.',
    ],
    ['that is not an object', () => [ABOUT], 'The request must carry a JSON object.'],
  ])('%s is refused with 400, saying why, and nothing is saved', async (_case, body, message) => {
    const { headers, opened, before } = await setup();
    const answer = await app.inject({
      method: 'PUT',
      url: '/api/file',
      headers,
      payload: body({ ...opened.data, title: 'Never saved' }),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message });
    expectNothingChanged(before);
  });
});

describe('DELETE /api/file with an address of the wrong shape', () => {
  it.each([
    [`?path=${ABOUT}&revision=first`, 'The revision must be a whole number of 0 or more.'],
    [`?path=${ABOUT}&path=content/pages/home.yaml`, '"path" must be given once in the address.'],
    ['?revision=0', '"path" is missing from the address.'],
  ])('%s is refused with 400, saying why, and nothing is deleted', async (query, message) => {
    const { headers, before } = await setup();
    const answer = await app.inject({ method: 'DELETE', url: `/api/file${query}`, headers });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message });
    expectNothingChanged(before);
    expect((await app.inject({ url: '/api/changes', headers })).json()).toMatchObject({ files: [] });
  });

  it('still deletes with a well-formed address (the draft deletes the page)', async () => {
    const { headers, opened } = await setup();
    const answer = await app.inject({
      method: 'DELETE',
      url: `/api/file?path=${ABOUT}&revision=0&diskVersion=${opened.diskVersion}`,
      headers,
    });
    expect(answer.json()).toEqual({ deleted: true });
    expect((await app.inject({ url: '/api/changes', headers })).json()).toMatchObject({ files: [{ path: ABOUT, change: 'deleted' }] });
  });
});

describe('POST /api/file with a body of the wrong shape', () => {
  it('refuses a kind that is neither a page nor an article, and creates nothing', async () => {
    const { headers, before } = await setup();
    const answer = await app.inject({ method: 'POST', url: '/api/file', headers, payload: { kind: 'video', name: 'spring-offer' } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message: '"kind" in the request must be "page" or "article".' });
    expectNothingChanged(before);
  });
});

describe('POST /api/file copying an article', () => {
  it('puts the copy after every other article, so its order is no other article’s', async () => {
    const { headers } = await setup();
    const copied = await app.inject({
      method: 'POST',
      url: '/api/file',
      headers,
      payload: { kind: 'article', name: 'what-is-ai-consulting-again', copyFrom: 'content/blog/what-is-ai-consulting.md' },
    });
    expect(copied.statusCode).toBe(200);
    const orders = readdirSync(path.join(project.root, 'content', 'blog')).map((file) =>
      Number(/^order: (\d+)$/m.exec(project.read(`content/blog/${file}`))?.[1]),
    );
    const copy = (await app.inject({ url: '/api/file?path=content/blog/what-is-ai-consulting-again.md', headers })).json() as {
      data: { frontMatter: { order: number } };
      issues: { severity?: string }[];
    };
    expect(copy.data.frontMatter.order).toBe(Math.max(...orders) + 1);
    // No mistake (the copy keeps the original's advice, such as a title longer than a search result shows).
    expect(copy.issues.filter((issue) => issue.severity !== 'warning')).toEqual([]);
  });
});

describe('GET /api/file of a draft whose file changed since it was started', () => {
  it('says so and compares the new version with the draft, line by line', async () => {
    const { headers, opened, before } = await setup();
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/file',
      headers,
      payload: {
        path: ABOUT,
        data: { ...opened.data, title: 'About the team | Premier AI Consulting' },
        revision: 0,
        diskVersion: opened.diskVersion,
      },
    });
    expect(saved.statusCode).toBe(200);
    expect((await app.inject({ url: `/api/file?path=${ABOUT}`, headers })).json()).not.toHaveProperty('diskChanged');

    // Someone else's version arrives (a pull, or a publish from elsewhere).
    project.write(ABOUT, before.replace(/^title: .*$/m, 'title: About Ana | Premier AI Consulting'));
    const answer = (await app.inject({ url: `/api/file?path=${ABOUT}`, headers })).json() as {
      diskChanged: { message: string; hunks: { lines: { kind: string; text: string }[] }[] };
    };

    expect(answer.diskChanged.message).toBe(`"About" changed since your draft was started: someone published another version.`);
    const changed = answer.diskChanged.hunks.flatMap((hunk) => hunk.lines).filter((line) => line.kind !== 'same');
    expect(changed).toEqual([
      { kind: 'removed', text: 'title: About Ana | Premier AI Consulting', oldLine: 3 },
      { kind: 'added', text: 'title: About the team | Premier AI Consulting', newLine: 3 },
    ]);
  });
});
