// The pages an event may name are the routes of the build DIST_DIR holds now: a page published while
// the server runs becomes one after the short check interval, and a broken build leaves the known pages.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSiteFixture, FIXTURE_ROUTES, type SiteFixture } from '../testing/site-fixture.ts';
import { openLiveBuild } from '../site/live-build.ts';
import { createSitePages } from './site-pages.ts';

let fixture: SiteFixture | undefined;
afterEach(() => fixture?.remove());

describe('the pages of the site', () => {
  it('are the build’s routes, and a page published later counts once the check interval has passed', async () => {
    fixture = await createSiteFixture();
    let time = 1_000;
    const errors: unknown[] = [];
    const liveBuild = await openLiveBuild({ distDir: fixture.distDir, now: () => time, onError: (error) => errors.push(error) });
    const pages = createSitePages({ liveBuild, checkMs: 2_000 });
    expect([...(await pages.current())].sort()).toEqual(['/', '/about', '/blog', '/blog/what-is-ai-consulting']);

    await mkdir(path.join(fixture.clientDir, 'pricing'), { recursive: true });
    await writeFile(path.join(fixture.clientDir, 'pricing/index.html'), '<!doctype html><title>Pricing</title>');
    await writeFile(
      path.join(fixture.distDir, 'routes.json'),
      JSON.stringify({ ...FIXTURE_ROUTES, pages: { ...FIXTURE_ROUTES.pages, '/pricing': 'pricing/index.html' } }),
    );
    time += 1_000;
    expect((await pages.current()).has('/pricing')).toBe(false);
    time += 1_500;
    expect((await pages.current()).has('/pricing')).toBe(true);
    expect(errors).toEqual([]);
  });

  it('stay the ones known before when the new build is broken', async () => {
    fixture = await createSiteFixture();
    let time = 0;
    const errors: unknown[] = [];
    const liveBuild = await openLiveBuild({ distDir: fixture.distDir, now: () => time, onError: (error) => errors.push(error) });
    const pages = createSitePages({ liveBuild, checkMs: 10 });
    expect((await pages.current()).has('/about')).toBe(true);
    await writeFile(
      path.join(fixture.distDir, 'routes.json'),
      JSON.stringify({ pages: { '/gone': 'gone/index.html' }, notFound: '404.html' }),
    );
    time += 100;
    expect((await pages.current()).has('/about')).toBe(true);
    expect((await pages.current()).has('/gone')).toBe(false);
    expect(errors).toHaveLength(1);
  });
});
