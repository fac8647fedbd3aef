// The headers helmet writes for a policy are exactly the ones the policy names: its CSP directive by
// directive, nosniff, its referrer and framing policies, a closed browsing context group and
// no-store; none of helmet's other defaults.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { STUDIO_POLICY } from './security-headers.ts';
import { securityHeadersPlugin } from '../../../back-office/front-door/security-headers.ts';

let app: ReturnType<typeof Fastify> | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
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
});
