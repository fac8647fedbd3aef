import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const BUILD_TIMEOUT_MS = 240_000;
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'build-test-'));
  cpSync(path.join(root, 'content'), path.join(work, 'content'), { recursive: true });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of this checkout at `project`, without node_modules, builds, git or local data. */
function copyCheckout(project: string) {
  const skipped = new Set(['node_modules', 'dist', '.git', '.tmp', '.studio', 'test-results', 'playwright-report', 'data']);
  cpSync(root, project, { recursive: true, filter: (source) => !skipped.has(path.basename(source)) || path.dirname(source) !== root });
}

function build(env: Record<string, string>) {
  return run('npm', ['run', 'build'], {
    cwd: root,
    env: { ...process.env, ...env, NODE_ENV: 'production', CONTENT_DIR: path.join(work, 'content') },
    maxBuffer: 64 * 1024 * 1024,
  });
}

describe('the build reads the YAML content', () => {
  it(
    'an edited YAML value appears in the prerendered page',
    async () => {
      const home = path.join(work, 'content/pages/home.yaml');
      writeFileSync(
        home,
        readFileSync(home, 'utf8').replace('heading: Transform Your Business with Premier AI', 'heading: Edited By The Build Test'),
      );
      const outDir = path.join(work, 'dist');
      await build({ OUT_DIR: outDir });
      const html = readFileSync(path.join(outDir, 'client/index.html'), 'utf8');
      expect(html).toMatch(/<h1[^>]*>Edited By The Build Test<\/h1>/);
      // The commit built and when, served as /build.json; rewritten after a studio commit, so never precompressed.
      const head = (await run('git', ['-C', root, 'rev-parse', 'HEAD'])).stdout.trim();
      const info = JSON.parse(readFileSync(path.join(outDir, 'client/build.json'), 'utf8')) as { commit: string; builtAt: string };
      expect(info.commit).toBe(head);
      expect(Date.now() - Date.parse(info.builtAt)).toBeLessThan(BUILD_TIMEOUT_MS);
      expect(existsSync(path.join(outDir, 'client/build.json.br'))).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'an invalid edit stops the build with file:line:column, the property path and a plain sentence',
    async () => {
      const home = path.join(work, 'content/pages/home.yaml');
      const lines = readFileSync(home, 'utf8').split('\n');
      const headingLine = lines.findIndex((l) => l.startsWith('    heading: '));
      lines.splice(headingLine, 1);
      writeFileSync(home, lines.join('\n'));
      const failure = await build({ OUT_DIR: path.join(work, 'dist-invalid') }).then(
        () => undefined,
        (error: { stderr: string; stdout: string; code: number }) => error,
      );
      expect(failure, 'the build must fail').toBeDefined();
      const output = `${failure!.stdout}\n${failure!.stderr}`;
      expect(output).toMatch(/content\/pages\/home\.yaml:\d+:\d+ blocks\[0\] \(hero\) heading: A heading is needed here: write one\./);
      // Plain messages and nothing else: no bundler report, no stack trace.
      expect(output).not.toMatch(/\n\s+at |Error:|RolldownError|error during build/);
      expect(failure!.stderr.trimEnd()).toMatch(/The build stopped; nothing in \S+ was changed\.$/);
    },
    BUILD_TIMEOUT_MS,
  );
});

/**
 * One build of a copy of this checkout serves the cases below: a full build takes most of a minute
 * on two cores, and each case reads a different part of the same output. The copy's node_modules is
 * a symlink to a symlink elsewhere, it holds uploaded pictures (some used, some not, links out of
 * public/), its ROI numbers are edited, and the CI names the commit it builds.
 */
describe('a build of a checkout elsewhere', () => {
  let project: string;
  let client: string;

  beforeAll(async () => {
    project = path.join(work, 'project');
    const elsewhere = path.join(work, 'elsewhere');
    copyCheckout(project);
    mkdirSync(elsewhere);
    symlinkSync(path.join(root, 'node_modules'), path.join(elsewhere, 'node_modules'));
    symlinkSync(path.join(elsewhere, 'node_modules'), path.join(project, 'node_modules'));
    const uploads = path.join(project, 'public/images/uploads');
    mkdirSync(uploads, { recursive: true });
    const png = await new Jimp({ width: 40, height: 30, color: 0x3366ccff }).getBuffer('image/png');
    for (const name of ['team-photo.png', 'chart.png', 'draft-chart.png', 'holiday-snap.png']) writeFileSync(path.join(uploads, name), png);
    // Links a `git pull` could bring: one out of public/ (to a file that must stay private), one broken.
    writeFileSync(path.join(work, 'private.txt'), 'database password');
    symlinkSync(path.join(work, 'private.txt'), path.join(project, 'public/images/team/leak.svg'));
    symlinkSync(path.join(work, 'nothing-here.png'), path.join(project, 'public/images/team/broken.png'));
    const edit = (file: string, change: (text: string) => string) =>
      writeFileSync(path.join(project, file), change(readFileSync(path.join(project, file), 'utf8')));
    edit('content/pages/about.yaml', (text) => text.replace('src: /images/team/sarah-chen.svg', 'src: /images/uploads/team-photo.png'));
    edit('content/blog/what-is-ai-consulting.md', (text) => `${text}\n![A chart](/images/uploads/chart.png)\n`);
    edit(
      'content/blog/responsible-ai-for-growing-businesses.md',
      (text) => `${text.replace(/^order: 5$/m, 'order: 5\ndraft: true')}\n![A chart](/images/uploads/draft-chart.png)\n`,
    );
    edit('content/roi.yaml', (text) => text.replace('investmentUsd: 50000', 'investmentUsd: 60000'));

    await run(path.join(project, 'node_modules/.bin/node'), ['scripts/build.ts'], {
      cwd: project,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        // A CI names the commit it builds; it wins over the checkout's HEAD.
        BUILD_COMMIT: 'AB12'.repeat(10),
      },
    });
    client = path.join(project, 'dist/client');
  }, BUILD_TIMEOUT_MS);

  it('writes the checked ROI numbers and the business hours beside routes.json, and the commit the CI names', () => {
    expect(JSON.parse(readFileSync(path.join(client, 'build.json'), 'utf8'))).toMatchObject({ commit: 'ab12'.repeat(10) });
    const parameters = JSON.parse(readFileSync(path.join(project, 'dist/roi-parameters.json'), 'utf8')) as {
      investmentUsd: number;
      upliftRateByIndustry: Record<string, number>;
    };
    expect(parameters.investmentUsd).toBe(60_000);
    expect(parameters.upliftRateByIndustry.technology).toBe(0.15);
    // The site settings' business hours, for the sales clock.
    expect(JSON.parse(readFileSync(path.join(project, 'dist/business-hours.json'), 'utf8'))).toEqual({
      businessHours: { timeZone: 'America/New_York', days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], opens: '09:00', closes: '18:00' },
    });
  });

  it('builds a checkout whose node_modules is a symlink to a folder elsewhere', () => {
    const html = readFileSync(path.join(client, 'index.html'), 'utf8');
    expect(html).toMatch(/<h1[^>]*>Transform Your Business with Premier AI<\/h1>/);
    const bootModules = JSON.parse(/<script type="application\/json" id="boot-modules">([^<]*)<\/script>/.exec(html)![1]!) as string[];
    expect(bootModules[0]).toMatch(/^\/assets\/shell-[\w-]+\.js$/);
    expect(bootModules.length).toBeGreaterThan(5);
  });

  it('publishes only the uploaded pictures that published content uses: one a page or an article uses (the page gets its size), not one nothing uses or only a draft uses, nor a link out of public/', () => {
    expect(readdirSync(path.join(client, 'images/uploads')).sort()).toEqual(['chart.png', 'team-photo.png']);
    expect(existsSync(path.join(client, 'images/team/marcus-johnson.svg')), 'the rest of public/ is copied as before').toBe(true);
    expect(readdirSync(path.join(client, 'images/team')).filter((name) => name === 'leak.svg' || name === 'broken.png')).toEqual([]);
    const about = readFileSync(path.join(client, 'about/index.html'), 'utf8');
    const image = /<img[^>]*src="\/images\/uploads\/team-photo\.png"[^>]*>/.exec(about)?.[0];
    expect(image).toMatch(/\swidth="40"/);
    expect(image).toMatch(/\sheight="30"/);
    expect(readFileSync(path.join(client, 'blog/what-is-ai-consulting/index.html'), 'utf8')).toContain('src="/images/uploads/chart.png"');
  });
});
