// The site server's log: one line per request, none at info for the site's own files (pages,
// scripts, pictures), which would otherwise bury the requests that do something.
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { createSiteFixture, FIXTURE_ASSET, FIXTURE_IMAGE, fixtureConfig, type SiteFixture } from './testing/site-fixture.ts';

type Entry = { level: number; msg: string; reqId?: string; method?: string; url?: string; statusCode?: number; responseTime?: number };

let fixture: SiteFixture;
let app: FastifyInstance | undefined;
beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(async () => {
  await fixture.remove();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(level: 'info' | 'debug') {
  const lines: Entry[] = [];
  app = buildApp(fixtureConfig(fixture.distDir, { LOG_LEVEL: level }), {
    logStream: { write: (line) => void lines.push(JSON.parse(line) as Entry) },
  });
  await app.ready();
  lines.length = 0;
  return { app, lines };
}

describe('the request log', () => {
  it('has exactly one line for a request, once it is answered', async () => {
    const { app, lines } = await start('info');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', url: '/healthz', statusCode: 200 });
    expect(lines[0]?.responseTime).toEqual(expect.any(Number));
  });

  it('masks an e-mail address in the URL, as every log line of a request does', async () => {
    const { app, lines } = await start('info');
    await app.inject({ method: 'GET', url: '/api/no-such-thing?email=private.person@example.com' });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.url).toContain('p***@example.com');
    expect(JSON.stringify(lines)).not.toContain('private.person');
  });

  it('has no line at info for the site’s pages, scripts and pictures, and one each at debug', async () => {
    const files = ['/', '/about', `/${FIXTURE_ASSET}`, `/${FIXTURE_IMAGE}`, '/no-such-page'];
    const quiet = await start('info');
    for (const url of files) expect((await quiet.app.inject({ method: 'GET', url })).statusCode).toBeLessThan(500);
    expect(quiet.lines).toEqual([]);
    await app?.close();
    const verbose = await start('debug');
    for (const url of files) await verbose.app.inject({ method: 'GET', url });
    const requestLines = verbose.lines.filter((line) => line.msg === 'request completed');
    expect(requestLines.map((line) => [line.level, line.url])).toEqual(files.map((url) => [20, url]));
  });

  it('has no line at info for the console app’s own pages and files, whose API calls are logged', async () => {
    const { app, lines } = await start('info');
    for (const url of ['/console/', '/console/inbox', '/console/assets/no-such-file.js']) await app.inject({ method: 'GET', url });
    expect(lines).toEqual([]);
    await app.inject({ method: 'GET', url: '/console/api/session' });
    expect(lines.map((line) => [line.url, line.statusCode])).toEqual([['/console/api/session', 401]]);
  });
});
