import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { SiteBuildError } from '../content-model/load/build-files.ts';
import {
  createSiteFixture,
  FIXTURE_ASSET,
  FIXTURE_IMAGE,
  FIXTURE_PAGES,
  FIXTURE_SECRET,
  FIXTURE_TEXT_FILES,
  fixtureConfig,
} from './testing/site-fixture.ts';
import type { SiteFixture } from './testing/site-fixture.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE_HOURLY = 'public, max-age=3600, must-revalidate';
const HTML = 'text/html; charset=utf-8';

let fixture: SiteFixture;
let app: FastifyInstance;

beforeAll(async () => {
  fixture = await createSiteFixture();
  app = buildApp(fixtureConfig(fixture.distDir));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await fixture.remove();
});

function text(file: string): string {
  const content = FIXTURE_TEXT_FILES[file];
  if (content === undefined) throw new Error(`no fixture file ${file}`);
  return content;
}

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

describe('pages', () => {
  it.each(Object.entries(FIXTURE_PAGES))('GET %s answers its prerendered HTML', async (route, file) => {
    const response = await app.inject({ url: route });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(HTML);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.etag).toMatch(/^W\/".+"$/);
    expect(response.headers['last-modified']).toBeDefined();
    expect(response.body).toBe(text(file));
  });

  it('HEAD answers the headers without a body', async () => {
    const get = await app.inject({ url: '/about' });
    const head = await app.inject({ method: 'HEAD', url: '/about' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(HTML);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(text('about/index.html'))));
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it.each([
    ['If-None-Match', (headers: Record<string, unknown>) => String(headers.etag)],
    ['If-Modified-Since', (headers: Record<string, unknown>) => String(headers['last-modified'])],
  ])('revalidates with %s to a 304', async (header, valueFrom) => {
    const first = await app.inject({ url: '/about', headers: { 'accept-encoding': 'br' } });
    const second = await app.inject({ url: '/about', headers: { 'accept-encoding': 'br', [header]: valueFrom(first.headers) } });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
    expect(second.headers['cache-control']).toBe('no-cache');
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('gives each encoding its own ETag, so a 304 never crosses representations', async () => {
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    const identity = await app.inject({ url: '/' });
    expect(br.headers.etag).not.toBe(identity.headers.etag);
    const crossed = await app.inject({ url: '/', headers: { 'if-none-match': String(br.headers.etag) } });
    expect(crossed.statusCode).toBe(200);
  });

  it.each([
    ['/about/', '/about'],
    ['/about/?utm_source=newsletter&utm_medium=email', '/about?utm_source=newsletter&utm_medium=email'],
    ['/blog/what-is-ai-consulting/', '/blog/what-is-ai-consulting'],
    ['/about/index.html', '/about'],
    ['/index.html?ref=x', '/?ref=x'],
  ])('redirects %s to %s with 308', async (url, location) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe(location);
  });

  it('answers / itself rather than redirecting it', async () => {
    expect((await app.inject({ url: '/?utm_source=x' })).statusCode).toBe(200);
  });
});

describe('files', () => {
  it.each([
    [`/${FIXTURE_ASSET}`, /^(application|text)\/javascript; charset=utf-8$/, IMMUTABLE],
    ['/assets/style-9b1c2d3e.css', /^text\/css; charset=utf-8$/, IMMUTABLE],
    ['/favicon.svg', /^image\/svg\+xml/, REVALIDATE_HOURLY],
    ['/robots.txt', /^text\/plain; charset=utf-8$/, REVALIDATE_HOURLY],
    ['/sitemap.xml', /^(application|text)\/xml/, REVALIDATE_HOURLY],
    ['/site.webmanifest', /^application\/manifest\+json/, REVALIDATE_HOURLY],
    [`/${FIXTURE_IMAGE}`, /^image\/png$/, REVALIDATE_HOURLY],
    ['/images/team%20photo.png', /^image\/png$/, REVALIDATE_HOURLY],
    ['/verify-google.html', /^text\/html; charset=utf-8$/, REVALIDATE_HOURLY],
    // What the build was made from: read to tell when a deploy has arrived, so never stale.
    ['/build.json', /^application\/json/, 'no-cache'],
  ])('GET %s has its content type and cache policy', async (url, contentType, cacheControl) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(contentType);
    expect(response.headers['cache-control']).toBe(cacheControl);
    expect(response.headers.etag).toBeDefined();
  });

  it('serves binary files byte for byte and never compresses them', async () => {
    const response = await app.inject({ url: `/${FIXTURE_IMAGE}`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(await readFile(path.join(fixture.clientDir, FIXTURE_IMAGE)))).toBe(true);
  });
});

describe('precompressed responses', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['deflate', undefined],
    ['*', 'gzip'],
    ['br;q=0, *', 'gzip'],
  ])('Accept-Encoding %j gets %s', async (acceptEncoding, expected) => {
    for (const [url, file] of [
      ['/about', 'about/index.html'],
      [`/${FIXTURE_ASSET}`, FIXTURE_ASSET],
      ['/nope', '404.html'],
    ] as const) {
      const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
      const response = await app.inject({ url, headers });
      expect(response.headers['content-encoding']).toBe(expected);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(response.rawPayload, expected)).toBe(text(file));
      expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    }
  });

  it('keeps the type of the original file on compressed responses', async () => {
    const response = await app.inject({ url: '/sitemap.xml', headers: { 'accept-encoding': 'br' } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/xml/);
  });

  it.each(['/index.html.br', '/index.html.gz', '/about/index.html.br', '/robots.txt.gz', '/404.html.br'])(
    'never serves the sibling %s under its own name',
    async (url) => {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode).toBe(404);
      expect(decode(response.rawPayload, response.headers['content-encoding'] as string | undefined)).toBe(text('404.html'));
    },
  );

  it.each([`/${FIXTURE_ASSET}.br`, `/${FIXTURE_ASSET}.gz`])('answers %s with a plain 404', async (url) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe('Not Found');
  });
});

describe('not found', () => {
  it.each([
    ['/nope', '404.html'],
    ['/about/team', '404.html'],
    ['/blogger', '404.html'],
    ['/blog/nope', 'blog/404.html'],
    ['/blog/what-is-ai-consulting/comments', 'blog/404.html'],
    ['/404.html', '404.html'],
    ['/blog/404.html', 'blog/404.html'],
    ['/.env', '404.html'],
    ['/images', '404.html'],
    ['/images/', '404.html'],
  ])('GET %s answers 404 with %s', async (url, file) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe(HTML);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(text(file));
  });

  it('shows "Article Not Found" for an unknown article', async () => {
    const response = await app.inject({ url: '/blog/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Article Not Found');
  });

  it('answers HEAD with 404 and no body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe('');
  });

  it.each([
    { 'if-none-match': '*' },
    { 'if-match': '"abc"' },
    { range: 'bytes=0-10' },
    { 'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString() },
  ])('answers the full not-found page whatever the conditions (%j)', async (headers) => {
    const response = await app.inject({ url: '/nope', headers });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe(text('404.html'));
    expect(response.headers.etag).toBeUndefined();
  });

  it('answers unknown hashed assets with a short plain 404', async () => {
    const response = await app.inject({ url: '/assets/entry-client-00000000.js' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe('Not Found');
  });
});

describe('paths outside the public root', () => {
  // Real HTTP, so the raw request target reaches the server exactly as written.
  let baseUrl: { host: string; port: number };
  let server: FastifyInstance;
  beforeAll(async () => {
    server = buildApp(fixtureConfig(fixture.distDir));
    await server.listen({ host: '127.0.0.1', port: 0 });
    const address = server.server.address() as AddressInfo;
    baseUrl = { host: address.address, port: address.port };
  });
  afterAll(() => server.close());

  function rawGet(target: string): Promise<{ statusCode: number; body: string }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({ ...baseUrl, path: target, method: 'GET' }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      request.on('error', reject);
      request.end();
    });
  }

  it.each([
    '/routes.json',
    '/../routes.json',
    '/../../secret.txt',
    '/..%2froutes.json',
    '/%2e%2e/routes.json',
    '/%2e%2e%2froutes.json',
    '/%2e%2e/%2e%2e/secret.txt',
    '/assets/../../routes.json',
    '/assets/..%2f..%2froutes.json',
    '/assets%2f..%2f..%2froutes.json',
    '/..%5croutes.json',
    '/%5c..%5croutes.json',
    '//routes.json',
    '/./routes.json',
    '/client/index.html',
    '/%00routes.json',
    '/.%2e/secret.txt',
  ])('GET %s reveals nothing', async (target) => {
    const response = await rawGet(target);
    expect([400, 404]).toContain(response.statusCode);
    expect(response.body).not.toContain(FIXTURE_SECRET);
    expect(response.body).not.toContain('notFoundByPrefix');
  });

  it('answers any path with a known file, a redirect or a 4xx, never a 5xx', async () => {
    const servable = new Set(Object.values(FIXTURE_TEXT_FILES));
    const segment = fc.oneof(
      fc.constantFrom(
        '..',
        '.',
        '',
        '%2e%2e',
        '%2E',
        '.%2e',
        '%2f',
        '%5c',
        '%00',
        '%',
        'routes.json',
        'secret.txt',
        'client',
        'assets',
        'about',
        'blog',
        'index.html',
        'robots.txt',
        '404.html',
      ),
      fc.webSegment(),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 6 }), fc.constantFrom('', '.br', '.gz', '/', '?x=1'), async (segments, suffix) => {
        const response = await rawGet(`/${segments.join('/')}${suffix}`);
        expect(response.statusCode).toBeLessThan(500);
        expect(response.body).not.toContain(FIXTURE_SECRET);
        if (response.statusCode === 200 && !response.body.startsWith('\x89PNG')) expect(servable.has(response.body)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('serves a real file over the same connection type (control)', async () => {
    const response = await rawGet('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(text('robots.txt'));
  });
});

describe('methods', () => {
  it.each([
    ['POST', '/'],
    ['POST', '/about'],
    ['PUT', '/about/'],
    ['DELETE', '/blog/what-is-ai-consulting'],
    ['PATCH', '/robots.txt'],
    ['OPTIONS', '/about'],
    ['POST', `/${FIXTURE_ASSET}`],
  ])('%s %s answers 405 with Allow: GET, HEAD', async (method, url) => {
    const response = await app.inject({ method: method as 'POST', url });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('answers 405 before looking at the request body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/about',
      headers: { 'content-type': 'application/xml' },
      payload: '<lead/>',
    });
    expect(response.statusCode).toBe(405);
  });

  it('answers other methods on unknown paths with the not-found page', async () => {
    const response = await app.inject({ method: 'POST', url: '/nope', payload: { a: 1 } });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe(text('404.html'));
  });
});

describe('/api', () => {
  it.each([
    ['GET', '/api'],
    ['GET', '/api/'],
    ['GET', '/api/leads'],
    ['POST', '/api/lead'],
    ['DELETE', '/api/leads/1'],
    ['HEAD', '/api/anything'],
  ])('%s %s answers JSON 404 (only POST /api/leads is a route)', async (method, url) => {
    const response = await app.inject({ method: method as 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    if (method !== 'HEAD') expect(response.json()).toEqual({ error: 'not_found' });
  });

  it('answers before parsing a malformed body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/unknown',
      headers: { 'content-type': 'application/json' },
      payload: '{oops',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found' });
  });
});

describe('/healthz', () => {
  it('answers 200 {"status":"ok"} when ready', async () => {
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 naming the failing checks that later plugins add', async () => {
    const withChecks = buildApp(fixtureConfig(fixture.distDir));
    // What a later plugin does inside its own registration.
    withChecks.register(async (instance) => {
      instance.healthChecks.add('search-index', async () => {
        throw new Error('database is locked');
      });
      instance.healthChecks.add('outbox', async () => 'running');
      instance.healthChecks.add('crm', async () => {
        throw new Error('unreachable');
      });
    });
    try {
      const response = await withChecks.inject({ url: '/healthz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unavailable', failing: ['search-index', 'crm'] });
    } finally {
      await withChecks.close();
    }
  });
});

describe('start-up', () => {
  it('fails with a plain message when DIST_DIR holds no build', async () => {
    const missing = buildApp(fixtureConfig(path.join(fixture.distDir, 'does-not-exist')));
    await expect(missing.ready()).rejects.toThrow(SiteBuildError);
    await expect(missing.ready()).rejects.toThrow(/No build found in .*does-not-exist\/: run `npm run build` first/);
  });
});
