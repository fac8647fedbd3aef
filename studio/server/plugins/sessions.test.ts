// The session cookie as @fastify/cookie writes and reads it: its attributes exactly (HttpOnly,
// SameSite=Strict, Path=/, a Max-Age of the 30 days a session can last, Secure and __Host- only behind TLS),
// cleared with the same attributes and Max-Age=0, and found among the other cookies a browser sends.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalSession } from '../auth/local-session.ts';
import { sessionsPlugin } from './sessions.ts';

let app: ReturnType<typeof Fastify> | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function setup(secure: boolean) {
  const server = Fastify();
  app = server;
  const local = createLocalSession('maria');
  await server.register(sessionsPlugin, { secure, keeper: local });
  server.get('/open', async (_request, reply) => {
    server.studioSessions.setCookie(reply, local.open());
    return {};
  });
  server.get('/close', async (_request, reply) => {
    server.studioSessions.clearCookie(reply);
    return {};
  });
  server.get('/who', async (request) => ({ user: (await server.studioSessions.of(request))?.user ?? null }));
  return server;
}

/** A Set-Cookie header as its name=value and its attributes, in any order. */
function readSetCookie(header: unknown) {
  const [pair = '', ...attributes] = String(header).split('; ');
  return { pair, attributes: attributes.sort() };
}

describe('the session cookie', () => {
  it('is strict and HttpOnly for the whole studio, lasts no longer than a session may, and is Secure only behind TLS', async () => {
    const plain = await (await setup(false)).inject({ url: '/open' });
    const cookie = readSetCookie(plain.headers['set-cookie']);
    expect(cookie.pair).toMatch(/^studio_session=[\w-]{43}$/);
    expect(cookie.attributes).toEqual(['HttpOnly', 'Max-Age=2592000', 'Path=/', 'SameSite=Strict']);
    await app?.close();

    const secure = await (await setup(true)).inject({ url: '/open' });
    // Behind TLS the name carries the __Host- prefix: no sibling subdomain can set or shadow it.
    expect(readSetCookie(secure.headers['set-cookie']).pair).toMatch(/^__Host-studio_session=[\w-]{43}$/);
    expect(readSetCookie(secure.headers['set-cookie']).attributes).toEqual([
      'HttpOnly',
      'Max-Age=2592000',
      'Path=/',
      'SameSite=Strict',
      'Secure',
    ]);
  });

  it('is cleared with the same attributes and Max-Age=0', async () => {
    const answer = await (await setup(true)).inject({ url: '/close' });
    expect(readSetCookie(answer.headers['set-cookie'])).toEqual({
      pair: '__Host-studio_session=',
      attributes: ['HttpOnly', 'Max-Age=0', 'Path=/', 'SameSite=Strict', 'Secure'],
    });
  });

  it('is read among the other cookies, and names no session when unknown or absent', async () => {
    const server = await setup(false);
    const pair = readSetCookie((await server.inject({ url: '/open' })).headers['set-cookie']).pair;
    const who = (cookie: string | undefined) =>
      server.inject({ url: '/who', ...(cookie === undefined ? {} : { headers: { cookie } }) }).then((answer) => answer.json() as unknown);
    expect(await who(`theme=dark; ${pair}`)).toEqual({ user: 'maria' });
    expect(await who('theme=dark; studio_session=unknown')).toEqual({ user: null });
    expect(await who(`studio_session=${'a'.repeat(129)}`)).toEqual({ user: null });
    expect(await who(undefined)).toEqual({ user: null });
  });
});
