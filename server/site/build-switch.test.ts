import { cp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createSiteFixture, fixtureConfig } from '../testing/site-fixture.ts';
import type { SiteFixture } from '../testing/site-fixture.ts';

let fixture: SiteFixture | undefined;
afterEach(async () => fixture?.remove());

/** Points `link` at `target` in one rename, as a studio publish does. */
async function pointLink(link: string, target: string): Promise<void> {
  const temporary = `${link}.next`;
  await rm(temporary, { force: true });
  await symlink(target, temporary);
  await rename(temporary, link);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a running server follows a new build', () => {
  it('serves the build a symbolic link DIST_DIR is switched to, without a restart, and keeps serving the old one until then', async () => {
    fixture = await createSiteFixture();
    const root = path.dirname(fixture.distDir);
    const first = path.join(root, 'build-1');
    const second = path.join(root, 'build-2');
    await cp(fixture.distDir, first, { recursive: true });
    await cp(fixture.distDir, second, { recursive: true });
    await writeFile(path.join(second, 'client', 'about', 'index.html'), '<!doctype html><h1>About, published from the studio</h1>\n');
    for (const sibling of ['.br', '.gz']) await rm(path.join(second, 'client', 'about', `index.html${sibling}`));
    const link = path.join(root, 'live');
    await pointLink(link, first);

    const app = buildApp(fixtureConfig(link));
    try {
      const about = async () => (await app.inject({ url: '/about', headers: { 'accept-encoding': 'identity' } })).body;
      expect(await about()).toContain('<h1>About Us</h1>');
      await pointLink(link, second);
      await waitFor(async () => (await about()).includes('published from the studio'));
      expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('keeps serving the current build when the new one is broken', async () => {
    fixture = await createSiteFixture();
    const root = path.dirname(fixture.distDir);
    const good = path.join(root, 'good');
    const broken = path.join(root, 'broken');
    await cp(fixture.distDir, good, { recursive: true });
    await cp(fixture.distDir, broken, { recursive: true });
    await writeFile(path.join(broken, 'routes.json'), '{ not json');
    const link = path.join(root, 'live');
    await pointLink(link, good);
    const app = buildApp(fixtureConfig(link));
    try {
      await app.ready();
      await pointLink(link, broken);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const response = await app.inject({ url: '/about', headers: { 'accept-encoding': 'identity' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<h1>About Us</h1>');
    } finally {
      await app.close();
    }
  });
});
