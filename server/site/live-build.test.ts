// One live build per process, with one timer: however many parts of the server read the build, one
// look at DIST_DIR per tick tells them all of a new build, and they all get the same one.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTES_FILE } from '../../content-model/load/build-files.ts';
import { buildApp } from '../app.ts';
import { createSiteFixture, fixtureConfig, FIXTURE_ROUTES, type SiteFixture } from '../testing/site-fixture.ts';
import { BUILD_CHECK_INTERVAL_MS, openLiveBuild, type LiveBuild } from './live-build.ts';
import type { SiteBuild } from './site-build.ts';

let fixture: SiteFixture | undefined;
let liveBuild: LiveBuild | undefined;
afterEach(async () => {
  liveBuild?.stop();
  liveBuild = undefined;
  vi.useRealTimers();
  vi.restoreAllMocks();
  await fixture?.remove();
  fixture = undefined;
});

/** A build with one more page than the fixture's. */
async function publishPricing(distDir: string): Promise<void> {
  await writeFile(
    path.join(distDir, ROUTES_FILE),
    JSON.stringify({ ...FIXTURE_ROUTES, pages: { ...FIXTURE_ROUTES.pages, '/pricing': 'about/index.html' } }),
  );
}

describe('the live build', () => {
  it('starts one timer however many readers subscribe, and stops it', async () => {
    fixture = await createSiteFixture();
    vi.useFakeTimers();
    liveBuild = await openLiveBuild({ distDir: fixture.distDir, onError: (error) => expect.fail(String(error)) });
    expect(vi.getTimerCount()).toBe(0);
    const unsubscribe = [1, 2, 3, 4, 5].map(() => liveBuild!.subscribe(() => {}));
    expect(vi.getTimerCount()).toBe(1);
    for (const stop of unsubscribe) stop();
    liveBuild.subscribe(() => {});
    expect(vi.getTimerCount()).toBe(1);
    liveBuild.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells every reader of a new build from one look, and they all get the same build', async () => {
    fixture = await createSiteFixture();
    liveBuild = await openLiveBuild({ distDir: fixture.distDir, onError: (error) => expect.fail(String(error)), intervalMs: false });
    const seen: SiteBuild[][] = [[], [], []];
    for (const list of seen) liveBuild.subscribe((build) => void list.push(build));
    const first = liveBuild.current();
    await liveBuild.refresh();
    expect(seen.flat()).toEqual([]);

    await publishPricing(fixture.distDir);
    await Promise.all([liveBuild.refresh(), liveBuild.refresh(), liveBuild.refresh()]);
    const next = liveBuild.current();
    expect(next).not.toBe(first);
    expect(next.pages.has('/pricing')).toBe(true);
    expect(seen).toEqual([[next], [next], [next]]);
  });

  it('keeps the build it has when the new one cannot be loaded, and says so once', async () => {
    fixture = await createSiteFixture();
    const errors: unknown[] = [];
    liveBuild = await openLiveBuild({ distDir: fixture.distDir, onError: (error) => errors.push(error), intervalMs: false });
    const listener = vi.fn();
    liveBuild.subscribe(listener);
    const first = liveBuild.current();
    await writeFile(path.join(fixture.distDir, ROUTES_FILE), '{ not json');
    await liveBuild.refresh();
    await liveBuild.refresh();
    expect(liveBuild.current()).toBe(first);
    expect(listener).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
  });

  it('is looked at by one timer in a whole server, whose readers (site, relay, analytics) all follow it', async () => {
    fixture = await createSiteFixture();
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const app = buildApp(fixtureConfig(fixture.distDir));
    try {
      await app.ready();
      const buildTimers = setIntervalSpy.mock.calls.filter(([, delay]) => delay === BUILD_CHECK_INTERVAL_MS);
      expect(buildTimers).toHaveLength(1);
      await publishPricing(fixture.distDir);
      await app.liveBuild.refresh();
      expect((await app.inject({ url: '/pricing', headers: { 'accept-encoding': 'identity' } })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
