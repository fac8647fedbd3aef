import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteFixture, FIXTURE_ROUTES } from '../testing/site-fixture.ts';
import type { SiteFixture } from '../testing/site-fixture.ts';
import { SiteBuildError } from '../../content-model/load/build-files.ts';
import { loadSiteBuild } from './site-build.ts';

let fixture: SiteFixture;
beforeAll(async () => {
  fixture = await createSiteFixture();
  await symlink(path.join(fixture.distDir, 'secret.txt'), path.join(fixture.clientDir, 'linked-secret.txt'));
});
afterAll(() => fixture.remove());

describe('loadSiteBuild', () => {
  it('lists pages, not-found pages and the other public files', async () => {
    const build = await loadSiteBuild(fixture.distDir);
    expect(build.clientDir).toBe(fixture.clientDir);
    expect([...build.pages]).toEqual(Object.entries(FIXTURE_ROUTES.pages));
    expect(build.pageFileRoutes.get('/about/index.html')).toBe('/about');
    expect(build.notFound).toBe('404.html');
    expect(build.notFoundByPrefix).toEqual([['/blog/', 'blog/404.html']]);
    expect([...build.files].sort()).toEqual([
      '/assets/entry-client-3f9a2c1b.js',
      '/assets/style-9b1c2d3e.css',
      '/build.json',
      '/favicon.svg',
      '/images/logo.png',
      '/images/team photo.png',
      '/robots.txt',
      '/site.webmanifest',
      '/sitemap.xml',
      '/verify-google.html',
    ]);
  });

  it('sorts prefixes so the longest wins', async () => {
    const dir = await writeBuild({
      ...FIXTURE_ROUTES,
      notFoundByPrefix: { '/blog/': 'blog/404.html', '/blog/drafts/': '404.html' },
    });
    const build = await loadSiteBuild(dir);
    expect(build.notFoundByPrefix.map(([prefix]) => prefix)).toEqual(['/blog/drafts/', '/blog/']);
  });

  it('explains a missing build', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'no-build-'));
    try {
      await expect(loadSiteBuild(empty)).rejects.toThrow(new SiteBuildError(`No build found in ${empty}/: run \`npm run build\` first`));
    } finally {
      await rm(empty, { recursive: true });
    }
  });

  it.each([
    ['not JSON', '{ pages', /routes\.json is not valid JSON/],
    ['no pages', { notFound: '404.html' }, /"pages" must be an object/],
    ['no notFound', { pages: { '/': 'index.html' } }, /"notFound" must be a file name/],
    [
      'a trailing-slash route',
      { ...FIXTURE_ROUTES, pages: { '/about/': 'about/index.html' } },
      /route "\/about\/" must start with "\/" and have no trailing slash/,
    ],
    [
      'a file outside client/',
      { ...FIXTURE_ROUTES, pages: { '/': '../secret.txt' } },
      /"\.\.\/secret\.txt" must be a path inside client\//,
    ],
    ['an absolute file', { ...FIXTURE_ROUTES, notFound: '/etc/passwd' }, /"\/etc\/passwd" must be a path inside client\//],
    [
      'a missing page file',
      { ...FIXTURE_ROUTES, pages: { '/': 'index.html', '/team': 'team/index.html' } },
      /pages\["\/team"\] points to "team\/index\.html", which is not in .*client\//,
    ],
  ])('rejects routes.json with %s', async (_name, routes, message) => {
    const dir = await writeBuild(routes);
    await expect(loadSiteBuild(dir)).rejects.toThrow(message);
    await expect(loadSiteBuild(dir)).rejects.toBeInstanceOf(SiteBuildError);
  });

  it('explains a build without client/', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'half-build-'));
    await writeFile(path.join(dir, 'routes.json'), JSON.stringify(FIXTURE_ROUTES));
    await expect(loadSiteBuild(dir)).rejects.toThrow(/Incomplete build: .*client\/ is missing/);
    await rm(dir, { recursive: true });
  });

  // Writes a build sharing the fixture's client/ folder with a different routes.json.
  async function writeBuild(routes: unknown): Promise<string> {
    const dir = await mkdtemp(path.join(fixture.distDir, '..', 'variant-'));
    await mkdir(dir, { recursive: true });
    await symlink(fixture.clientDir, path.join(dir, 'client'));
    await writeFile(path.join(dir, 'routes.json'), typeof routes === 'string' ? routes : JSON.stringify(routes));
    return dir;
  }
});
