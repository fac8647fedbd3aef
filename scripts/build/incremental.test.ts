// An incremental build (what a studio publish runs) must give exactly the files a full build gives
// for the same content: every file, byte for byte. Each case edits the content and builds
// incrementally from the build before; the last case builds the edited content in full and compares
// the two folders. A full build takes most of a minute on two cores, so one comparison covers the
// chain: each case writes other files (a page, the blog list and its feed, an article), and a file an
// incremental build got wrong is carried unchanged into the next, so it still differs at the end.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteBuilder, runFullBuild, type BuildReport } from '../../studio/server/site-builder.ts';
import { loadContent } from '../../content-model/load/load-content.ts';
import { readPublicSettings } from '../../renderer/build-settings.ts';
import { buildInputs, codeFingerprint, readBuildState } from './build-inputs.ts';
import { buildIncrementally, createPrerenderCache } from './incremental.ts';

const root = path.resolve(import.meta.dirname, '../..');
const BUILD_TIMEOUT_MS = 240_000;

/**
 * Files that may legitimately differ between the two builds, relative to the build folder (a file
 * holding the time of its build would be one). None today.
 */
// The build file says when each build ran.
const MAY_DIFFER: readonly string[] = ['client/build.json'];

let work: string;
let env: NodeJS.ProcessEnv;
let builder: ReturnType<typeof createSiteBuilder>;
/** The build each case starts from: the full build at first, then the previous case's incremental build. */
let live: string;
/** The project's code fingerprint before the first build. */
let codeBefore: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'incremental-build-test-'));
  cpSync(path.join(root, 'content'), path.join(work, 'content'), { recursive: true });
  // As the studio runs builds: without the test runner's NODE_ENV (the bundler then sets it).
  env = { ...process.env, CONTENT_DIR: path.join(work, 'content') };
  delete env.NODE_ENV;
  builder = createSiteBuilder({ root, env, log: () => {} });
  live = path.join(work, 'base');
  codeBefore = codeFingerprint(root);
  await runFullBuild(root, live, env);
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  builder?.close();
  rmSync(work, { recursive: true, force: true });
});

function edit(file: string, from: string, to: string) {
  const target = path.join(work, 'content', file);
  const text = readFileSync(target, 'utf8');
  expect(text).toContain(from);
  writeFileSync(target, text.replace(from, to));
}

/** Every file under `dir` (relative, with `/`) with a digest of its bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      if (statSync(file).isDirectory()) visit(file);
      else files.set(path.relative(dir, file).split(path.sep).join('/'), createHash('sha256').update(readFileSync(file)).digest('hex'));
    }
  };
  visit(dir);
  return files;
}

function differences(a: string, b: string): string[] {
  const left = snapshot(a);
  const right = snapshot(b);
  const names = [...new Set([...left.keys(), ...right.keys()])].sort();
  return names.filter((name) => !MAY_DIFFER.includes(name) && left.get(name) !== right.get(name));
}

/** Builds incrementally from the live build, which becomes the new live build, and returns the report. */
async function publish(name: string, changed: string[]): Promise<BuildReport & { kind: 'incremental' }> {
  const before = snapshot(live);
  const incremental = path.join(work, `${name}-incremental`);
  const report = await builder.build(incremental, { changed, previous: live });
  expect(report.kind, report.kind === 'full' ? report.reason : '').toBe('incremental');
  // The live build (being served) was not touched.
  expect(snapshot(live)).toEqual(before);
  live = incremental;
  return report as BuildReport & { kind: 'incremental' };
}

describe('`npm run build` and the studio agree on what a build was made from', () => {
  it('records the inputs the studio computes (it runs with NODE_ENV=production), and leaves the code fingerprint as it was', () => {
    const recorded = readBuildState(live)!.inputs;
    const contentDir = path.join(work, 'content');
    const asTheStudio = buildInputs({
      root,
      content: loadContent({ root, contentDir }),
      settings: readPublicSettings(env),
      nodeEnv: 'production',
      skip: [contentDir],
    });
    expect(asTheStudio).toEqual(recorded);
    expect(codeFingerprint(root)).toBe(codeBefore);
  });
});

describe('an incremental build gives the same files as a full build', () => {
  it(
    'for a page text edit: that page is rendered again, nothing else',
    async () => {
      edit('pages/home.yaml', 'heading: Transform Your Business with Premier AI', 'heading: Transform Your Business, Incrementally');
      const report = await publish('text', ['content/pages/home.yaml']);
      expect(report.rendered).toBe(1);
      expect(report.written).toContain('client/index.html');
      expect(report.written.filter((file) => file.startsWith('client/og/'))).toEqual([]);
      expect(readFileSync(path.join(live, 'client/index.html'), 'utf8')).toContain('Transform Your Business, Incrementally');
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'for a page title edit: its Open Graph picture is drawn again, and the feed that names the blog page written again',
    async () => {
      edit('pages/blog.yaml', 'title: AI Insights & Resources', 'title: Notes, Insights & Resources');
      const report = await publish('title', ['content/pages/blog.yaml']);
      expect(report.rendered).toBe(1);
      expect([...report.written].sort()).toEqual(
        expect.arrayContaining(['client/blog/index.html', 'client/blog/rss.xml', 'client/og/blog.png']),
      );
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "for an article's text: only that article is rendered again",
    async () => {
      edit('blog/what-is-ai-consulting.md', 'Most business owners we talk to', 'Most of the business owners we talk to');
      const report = await publish('article', ['content/blog/what-is-ai-consulting.md']);
      expect(report.rendered).toBe(1);
      expect(report.written).toContain('client/blog/what-is-ai-consulting/index.html');
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'the incremental builds in a row give the files a full build of the edited content gives',
    async () => {
      expect(live).toBe(path.join(work, 'article-incremental'));
      const full = path.join(work, 'full');
      await runFullBuild(root, full, env);
      expect(differences(live, full)).toEqual([]);
    },
    BUILD_TIMEOUT_MS,
  );
});

describe('a change that reaches the bundles takes the full build', () => {
  const cache = createPrerenderCache();
  afterAll(() => cache.close());

  async function decide(file: string, from: string, to: string) {
    const target = path.join(work, 'content', file);
    const text = readFileSync(target, 'utf8');
    edit(file, from, to);
    const outDir = path.join(work, 'not-built');
    try {
      const result = await buildIncrementally({ root, env, outDir, previous: live, cache });
      expect(existsSync(outDir)).toBe(false);
      return result;
    } finally {
      writeFileSync(target, text);
    }
  }

  it('a site settings edit', async () => {
    const result = await decide('site.yaml', 'tagline: ', 'tagline: Edited, ');
    expect(result).toEqual({ kind: 'full', reason: 'the site settings changed' });
  });

  it("an article's title (the blog list block carries it to the browser)", async () => {
    const result = await decide('blog/what-is-ai-consulting.md', 'title: What Is AI Consulting?', 'title: What Is AI Consulting, Really?');
    expect(result).toMatchObject({ kind: 'full', reason: expect.stringContaining('article list') });
  });

  it('a new page', async () => {
    const page = path.join(work, 'content/pages/new-page.yaml');
    writeFileSync(
      page,
      readFileSync(path.join(work, 'content/pages/disclaimer.yaml'), 'utf8').replace('path: /disclaimer', 'path: /new-page'),
    );
    try {
      const result = await buildIncrementally({ root, env, outDir: path.join(work, 'not-built'), previous: live, cache });
      expect(result).toMatchObject({ kind: 'full', reason: expect.stringContaining('routes') });
    } finally {
      rmSync(page);
    }
  });

  it('a live build whose browser bundle holds page texts', async () => {
    const other = path.join(work, 'pages-in-bundle');
    cpSync(live, other, { recursive: true });
    const record = path.join(other, 'incremental.json');
    const state = JSON.parse(readFileSync(record, 'utf8')) as { chunks: { contentModules: string[] } };
    state.chunks.contentModules.push('virtual:content/routes');
    writeFileSync(record, JSON.stringify(state));
    const result = await buildIncrementally({ root, env, outDir: path.join(work, 'not-built'), previous: other, cache });
    expect(result).toEqual({ kind: 'full', reason: 'the browser bundle holds virtual:content/routes' });
  });

  it('a build with no record of what it was made from', async () => {
    const bare = path.join(work, 'bare');
    cpSync(live, bare, { recursive: true });
    rmSync(path.join(bare, 'incremental.json'));
    const result = await buildIncrementally({ root, env, outDir: path.join(work, 'not-built'), previous: bare, cache });
    expect(result).toMatchObject({ kind: 'full' });
  });
});
