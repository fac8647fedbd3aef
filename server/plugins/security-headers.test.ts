import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createSiteFixture, FIXTURE_ASSET, FIXTURE_IMAGE, fixtureConfig } from '../testing/site-fixture.ts';
import type { SiteFixture } from '../testing/site-fixture.ts';
import { CSP_MANIFEST_FILE, EMPTY_CSP_MANIFEST, readCspManifest, type CspManifest } from '../../content-model/load/build-files.ts';
import { buildSecurityHeaders } from './security-headers.ts';

const HASH = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('buildSecurityHeaders', () => {
  const base = { manifest: EMPTY_CSP_MANIFEST, siteUrl: 'http://127.0.0.1:4321', leadEndpoint: '/api/leads' };

  it('allows scripts only from our origin, with no unsafe-inline or eval, when the build has no inline scripts', () => {
    const csp = directives(buildSecurityHeaders(base)['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('font-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
  });

  it("adds the build's inline-script hashes to script-src", () => {
    const manifest: CspManifest = { ...EMPTY_CSP_MANIFEST, scriptHashes: [HASH] };
    const csp = directives(buildSecurityHeaders({ ...base, manifest })['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'", HASH]);
  });

  it.each([
    ['the build', { ...EMPTY_CSP_MANIFEST, leadEndpointOrigin: 'https://hooks.crm.example' }, '/api/leads'],
    ['the run-time setting', EMPTY_CSP_MANIFEST, 'https://hooks.crm.example/lead?token=1'],
  ])('an external lead endpoint from %s is allowed for fetch and form posts', (_from, manifest, leadEndpoint) => {
    const csp = directives(buildSecurityHeaders({ ...base, manifest, leadEndpoint })['content-security-policy']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://hooks.crm.example']);
    expect(csp.get('form-action')).toEqual(["'self'", 'https://hooks.crm.example']);
  });

  it('sends HSTS and upgrades insecure requests only when SITE_URL is https', () => {
    expect(buildSecurityHeaders(base)['strict-transport-security']).toBeUndefined();
    const https = buildSecurityHeaders({ ...base, siteUrl: 'https://premieraiconsulting.com' });
    expect(https['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(directives(https['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
    const fromBuild = buildSecurityHeaders({
      ...base,
      siteUrl: undefined,
      manifest: { ...EMPTY_CSP_MANIFEST, siteUrl: 'https://premieraiconsulting.com' },
    });
    expect(fromBuild['strict-transport-security']).toBeDefined();
  });

  it('denies the powerful features the site never uses', () => {
    const policy = buildSecurityHeaders(base)['permissions-policy'];
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(policy).toContain(`${feature}=()`);
  });
});

describe('readCspManifest', () => {
  let fixture: SiteFixture;
  beforeAll(async () => {
    fixture = await createSiteFixture();
  });
  afterAll(() => fixture.remove());

  it('treats a build without csp.json as having no inline scripts', async () => {
    expect(await readCspManifest(fixture.distDir)).toEqual(EMPTY_CSP_MANIFEST);
  });

  it('reads the booking frame, and refuses one whose origin is not https', async () => {
    const bookingFrame = { origin: 'https://booking.example.com', routes: ['/', '/thankyou'] };
    const file = path.join(fixture.distDir, CSP_MANIFEST_FILE);
    await writeFile(file, JSON.stringify({ ...EMPTY_CSP_MANIFEST, bookingFrame }));
    expect((await readCspManifest(fixture.distDir)).bookingFrame).toEqual(bookingFrame);
    await writeFile(
      file,
      JSON.stringify({ ...EMPTY_CSP_MANIFEST, bookingFrame: { ...bookingFrame, origin: 'http://booking.example.com' } }),
    );
    await expect(readCspManifest(fixture.distDir)).rejects.toThrow(/bookingFrame/);
  });

  it('rejects a manifest whose hashes are not CSP hash sources', async () => {
    await writeFile(
      path.join(fixture.distDir, CSP_MANIFEST_FILE),
      JSON.stringify({ scriptHashes: ['unsafe-inline'], leadEndpointOrigin: null }),
    );
    await expect(readCspManifest(fixture.distDir)).rejects.toThrow(/scriptHashes/);
  });
});

describe('every response of the server carries the security headers', () => {
  let fixture: SiteFixture;
  let app: FastifyInstance;
  beforeAll(async () => {
    fixture = await createSiteFixture();
    const manifest: CspManifest = {
      scriptHashes: [HASH],
      leadEndpointOrigin: null,
      siteUrl: 'https://premieraiconsulting.com',
      bookingFrame: null,
    };
    await writeFile(path.join(fixture.distDir, CSP_MANIFEST_FILE), JSON.stringify(manifest));
    app = buildApp(fixtureConfig(fixture.distDir));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await fixture.remove();
  });

  it.each([
    ['a page', 'GET', '/', 200],
    ['a redirect', 'GET', '/about/', 308],
    ['a hashed asset', 'GET', `/${FIXTURE_ASSET}`, 200],
    ['an image', 'GET', `/${FIXTURE_IMAGE}`, 200],
    ['the not-found page', 'GET', '/no/such/page', 404],
    ['a missing asset', 'GET', '/assets/missing.js', 404],
    ['a wrong method', 'DELETE', '/about', 405],
    ['an unknown API path', 'GET', '/api/nothing', 404],
    ['the health check', 'GET', '/healthz', 200],
  ] as const)('%s (%s %s → %i)', async (_what, method, url, status) => {
    const response = await app.inject({ method, url });
    expect(response.statusCode).toBe(status);
    const csp = directives(String(response.headers['content-security-policy']));
    expect(csp.get('script-src')).toEqual(["'self'", HASH]);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['permissions-policy']).toContain('camera=()');
    expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  });

  it('answers Fastify writes itself, such as a malformed URL, carry them too', async () => {
    const listening = buildApp(fixtureConfig(fixture.distDir));
    try {
      await listening.listen({ host: '127.0.0.1', port: 0 });
      const { port } = listening.server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/%E0%A4%A`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await listening.close();
    }
  });
});

describe('the booking page may be framed only on the routes that can show it', () => {
  const BOOKING_ORIGIN = 'https://booking.example.com';
  let fixture: SiteFixture;
  let app: FastifyInstance;
  beforeAll(async () => {
    fixture = await createSiteFixture();
    const manifest: CspManifest = { ...EMPTY_CSP_MANIFEST, bookingFrame: { origin: BOOKING_ORIGIN, routes: ['/', '/blog'] } };
    await writeFile(path.join(fixture.distDir, CSP_MANIFEST_FILE), JSON.stringify(manifest));
    app = buildApp(fixtureConfig(fixture.distDir));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await fixture.remove();
  });

  const frameSources = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, csp: directives(String(response.headers['content-security-policy'])) };
  };

  it.each(['/', '/blog', '/blog?utm_source=newsletter'])('%s names the booking page in frame-src beside our own origin', async (url) => {
    const { status, csp } = await frameSources(url);
    expect(status).toBe(200);
    expect(csp.get('frame-src')).toEqual(["'self'", BOOKING_ORIGIN]);
    // The rest of the policy is the site's.
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('a revalidation of such a page keeps the same policy', async () => {
    const first = await app.inject({ method: 'GET', url: '/' });
    const again = await app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(directives(String(again.headers['content-security-policy'])).get('frame-src')).toEqual(["'self'", BOOKING_ORIGIN]);
  });

  it.each([
    ['a page without a lead form', '/about'],
    ['an article under a framing route', '/blog/what-is-ai-consulting'],
    ['a file', `/${FIXTURE_ASSET}`],
    ['the not-found page', '/no/such/page'],
    ['the API', '/api/nothing'],
  ])('%s (%s) cannot frame it', async (_what, url) => {
    const { csp } = await frameSources(url);
    expect(csp.has('frame-src')).toBe(false);
    expect(csp.get('default-src')).toEqual(["'self'"]);
  });

  it('without a booking frame in the build, no answer names one', () => {
    const csp = directives(
      buildSecurityHeaders({ manifest: EMPTY_CSP_MANIFEST, siteUrl: undefined, leadEndpoint: undefined })['content-security-policy'],
    );
    expect(csp.has('frame-src')).toBe(false);
  });
});
