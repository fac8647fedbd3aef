// The headers helmet writes for a policy are exactly the ones the policy names: its CSP directive by
// directive, nosniff, its referrer and framing policies, a closed browsing context group and
// no-store; none of helmet's other defaults.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { STUDIO_POLICY } from './security-headers.ts';
import { policyHeaders, securityHeadersPlugin } from '../../../back-office/front-door/security-headers.ts';
import { createStudioProject, type StudioProject } from '../../testing/studio-project.ts';
import { openLocalStudio } from '../../testing/local-studio.ts';

let app: { close(): Promise<unknown> } | undefined;
let project: StudioProject | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  project?.remove();
  project = undefined;
});

/** The security headers of an answer, with the CSP as its directives. */
function securityHeadersOf(headers: Record<string, unknown>) {
  const { date: _date, connection: _connection, 'content-length': _length, 'content-type': _type, ...rest } = headers;
  const csp = String(rest['content-security-policy'] ?? '');
  return { ...rest, 'content-security-policy': csp.split(';').map((directive) => directive.trim()) };
}

describe('the back office security headers', () => {
  it('are exactly the studio policy on a route, a not-found and an error answer, and a route may set its own CSP and cache', async () => {
    const server = Fastify();
    app = server;
    await server.register(securityHeadersPlugin, { policy: STUDIO_POLICY });
    server.get('/page', async () => ({}));
    server.get('/fails', async () => {
      throw new Error('boom');
    });
    server.get('/picture', async (_request, reply) =>
      reply.header('content-security-policy', "sandbox; default-src 'none'").header('cache-control', 'public, max-age=60').send('x'),
    );
    const expected = {
      'content-security-policy': [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "frame-src 'self'",
        "frame-ancestors 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "object-src 'none'",
      ],
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
      'x-frame-options': 'SAMEORIGIN',
      'cache-control': 'no-store',
    };
    for (const url of ['/page', '/nowhere', '/fails']) {
      expect(securityHeadersOf((await server.inject({ url })).headers), url).toEqual(expected);
    }
    const picture = await server.inject({ url: '/picture' });
    expect(picture.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(picture.headers['cache-control']).toBe('public, max-age=60');
  });

  it('policyHeaders names exactly what helmet writes for the policy', async () => {
    const server = Fastify();
    app = server;
    await server.register(securityHeadersPlugin, { policy: STUDIO_POLICY });
    server.get('/page', async () => ({}));
    const written = securityHeadersOf((await server.inject({ url: '/page' })).headers);
    expect(securityHeadersOf(policyHeaders(STUDIO_POLICY))).toEqual(written);
  });

  it('cover the answers to addresses Fastify refuses before routing, which repeat neither the address nor an internal code', async () => {
    project = createStudioProject({ git: false });
    const studio = await openLocalStudio(project);
    app = studio.app;
    const refusals = [
      { url: '/api/%ZZ<b>', status: 400 },
      { url: `/api/publish-runs/${'a'.repeat(150)}<b>`, status: 414 },
    ];
    for (const { url, status } of refusals) {
      const answer = await studio.app.inject({ url, headers: { host: '127.0.0.1' } });
      expect(answer.statusCode, url).toBe(status);
      expect(securityHeadersOf(answer.headers), url).toEqual(securityHeadersOf(policyHeaders(STUDIO_POLICY)));
      expect(answer.body, url).not.toMatch(/<b>|FST_ERR|%ZZ</);
      expect(Object.keys(answer.json() as object), url).toEqual(['message']);
    }
  });
});
