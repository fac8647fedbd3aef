// The live-site watch with a fake site and a fake clock: live once the site serves the publish (or a
// later commit), reported when the deploy does not arrive in time, carried on after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveWatcher, parseLiveTimeout, readAtMost, readLiveSettings } from './live-status.ts';

const PUBLISHED = 'a'.repeat(40);
const LATER = 'b'.repeat(40);
const OLD = 'c'.repeat(40);
/** LATER descends from PUBLISHED; OLD is from before. */
const contains = async (served: string, commit: string) => served === commit || (served === LATER && commit === PUBLISHED);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'live-status-'));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-03-02T10:40:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

/** A site whose /build.json names whatever `site.commit` holds; `site.down` makes it unreachable. */
function fakeSite(commit: string) {
  const site = { commit, down: false, asked: [] as string[], authorizations: [] as (string | null)[] };
  const fetchFile = vi.fn(async (url: URL | string, init?: RequestInit) => {
    site.asked.push(String(url));
    site.authorizations.push(new Headers(init?.headers).get('authorization'));
    expect(new Headers(init?.headers).get('cache-control')).toBe('no-cache');
    if (site.down) throw new TypeError('fetch failed');
    return Response.json({ commit: site.commit, builtAt: '2026-03-02T10:31:00Z' });
  });
  return { site, fetchFile: fetchFile as unknown as typeof fetch };
}

function watcher(fetchFile: typeof fetch, timeoutMs = 15 * 60_000) {
  return createLiveWatcher({
    settings: { url: 'https://deploy:secret@www.example.com/', timeoutMs },
    stateFile: path.join(dir, 'live-status.json'),
    contains,
    fetch: fetchFile,
    timeZone: 'UTC',
  });
}

describe('watching the live site', () => {
  it('waits while the site serves an older build, then is live from the first answer naming a later commit', async () => {
    const { site, fetchFile } = fakeSite(OLD);
    const live = watcher(fetchFile);
    live.watch('p1', PUBLISHED);
    await vi.advanceTimersByTimeAsync(0);
    expect(live.statusOf('p1')).toEqual({
      state: 'waiting',
      text: 'Waiting for the live site… The site still shows the version built at 10:31.',
    });
    expect(site.asked[0]).toMatch(/^https:\/\/www\.example\.com\/build\.json\?t=\d+$/);
    expect(site.authorizations[0]).toBe(`Basic ${Buffer.from('deploy:secret').toString('base64')}`);

    vi.setSystemTime(new Date('2026-03-02T10:42:03Z'));
    site.commit = LATER;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(live.statusOf('p1')).toEqual({ state: 'live', text: 'Live since 10:42' });

    // Once live, the site is not asked again.
    const asked = site.asked.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(site.asked.length).toBe(asked);
    live.stop();
  });

  it('reports a deploy that has not arrived in time, with the version the site still shows', async () => {
    const { site, fetchFile } = fakeSite(OLD);
    const live = watcher(fetchFile, 90_000);
    live.watch('p1', PUBLISHED);
    await vi.advanceTimersByTimeAsync(85_000);
    expect(live.statusOf('p1')!.state).toBe('waiting');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(live.statusOf('p1')).toEqual({
      state: 'late',
      text: 'Not live after 90 seconds: the site still shows the version built at 10:31.',
    });
    const asked = site.asked.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(site.asked.length).toBe(asked);
    live.stop();
  });

  it('says when the site cannot be reached, without the address credentials', async () => {
    const { site, fetchFile } = fakeSite(OLD);
    site.down = true;
    const live = watcher(fetchFile, 60_000);
    live.watch('p1', PUBLISHED);
    await vi.advanceTimersByTimeAsync(0);
    expect(live.statusOf('p1')!.text).toBe('Waiting for the live site… https://www.example.com could not be reached.');
    await vi.advanceTimersByTimeAsync(61_000);
    expect(live.statusOf('p1')).toEqual({ state: 'late', text: 'Not live after 1 minute: https://www.example.com could not be reached.' });
    live.stop();
  });

  it('carries on after a restart, still counting from the publish', async () => {
    const { site, fetchFile } = fakeSite(OLD);
    const first = watcher(fetchFile);
    first.watch('p1', PUBLISHED);
    await vi.advanceTimersByTimeAsync(0);
    first.stop();

    vi.setSystemTime(new Date('2026-03-02T10:50:00Z'));
    site.commit = PUBLISHED;
    const second = watcher(fetchFile);
    expect(second.statusOf('p1')!.state).toBe('waiting');
    second.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(second.statusOf('p1')).toEqual({ state: 'live', text: 'Live since 10:50' });
    second.stop();
  });
});

describe('reading what the site answers', () => {
  it('reads a small answer whole, and stops reading one past the limit without reading it to its end', async () => {
    expect(await readAtMost(new Response('{"commit":null}'), 4096)).toBe('{"commit":null}');
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    expect(await readAtMost(new Response(endless), 4096)).toBeUndefined();
    expect(pulled).toBeLessThan(10);
  });
});

describe('the live-site settings', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
  ])('STUDIO_LIVE_TIMEOUT=%s is %i ms', (text, ms) => {
    expect(parseLiveTimeout(text)).toBe(ms);
  });

  it.each(['900', '15 minutes', '5s', '2d', ''])('refuses STUDIO_LIVE_TIMEOUT=%j, saying how to write it', (text) => {
    expect(() => parseLiveTimeout(text)).toThrow(
      /^STUDIO_LIVE_TIMEOUT must be a duration with its unit, from 10s to 24h, such as 90s, 15m or 1h/,
    );
  });

  it('reads the site address, with 15 minutes unless told otherwise', () => {
    expect(readLiveSettings({ STUDIO_LIVE_URL: 'https://www.example.com' })).toEqual({
      url: 'https://www.example.com/',
      timeoutMs: 900_000,
    });
    expect(readLiveSettings({ STUDIO_LIVE_URL: 'https://cdn.example.com/site', STUDIO_LIVE_TIMEOUT: '5m' })).toEqual({
      url: 'https://cdn.example.com/site/',
      timeoutMs: 300_000,
    });
    expect(readLiveSettings({})).toBeUndefined();
    expect(() => readLiveSettings({ STUDIO_LIVE_URL: 'www.example.com' })).toThrow(/^STUDIO_LIVE_URL must be the address of the live site/);
    expect(() => readLiveSettings({ STUDIO_LIVE_URL: 'ftp://example.com' })).toThrow('STUDIO_LIVE_URL must start with https:// or http://');
  });
});
