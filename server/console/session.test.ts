// Signing in and out of the console through its API, on a real store: the cookie's attributes,
// session fixation, the brute-force limit, and access ending at once when an account is removed or
// its password changes. The key cases run on PostgreSQL too.
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../back-office/accounts/passwords.ts';
import { cookiePair, HOST, ORIGIN, PASSWORD, startConsoleServer, type ConsoleTestServer } from '../testing/console-client.ts';
import { postgresHarness, sqliteWorkerHarness, type StoreDatabase } from '../testing/store-harness.ts';
import { SIGN_IN_MESSAGES } from './routes/session.ts';

let server: ConsoleTestServer | undefined;
let database: StoreDatabase | undefined;
afterEach(async () => {
  await server?.close();
  await database?.remove();
  server = undefined;
  database = undefined;
});

/** A Set-Cookie header's attributes, sorted. */
function attributesOf(header: unknown): string[] {
  return String([header].flat()[0]).split('; ').slice(1).sort();
}

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict, for the whole site, and not Secure over http', async () => {
    server = await startConsoleServer();
    await server.addAccount('ana@example.com', 'sales');
    const response = await server.signIn('ana@example.com');
    expect(response.statusCode).toBe(200);
    expect(cookiePair(response)).toMatch(/^console_session=[\w-]{43}$/);
    expect(attributesOf(response.headers['set-cookie'])).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict']);
    expect(response.json()).toEqual({
      id: expect.any(String),
      email: 'ana@example.com',
      role: 'sales',
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
      allowed: ['leads:read', 'leads:export', 'leads:retry', 'leads:mark-spam', 'leads:work', 'leads:assign', 'analytics:read'],
    });
  });

  it('is __Host- prefixed and Secure when the site is served over https', async () => {
    server = await startConsoleServer({ env: { SITE_URL: 'https://site.example' } });
    await server.addAccount('ana@example.com', 'admin');
    const response = await server.signIn('ana@example.com', PASSWORD, { origin: 'https://site.example' });
    expect(response.statusCode).toBe(200);
    expect(cookiePair(response)).toMatch(/^__Host-console_session=/);
    expect(attributesOf(response.headers['set-cookie'])).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict', 'Secure']);
    const session = await server.app.inject({ url: '/console/api/session', headers: { host: HOST, cookie: cookiePair(response) } });
    expect(session.statusCode).toBe(200);
  });
});

describe.each([
  ['SQLite', undefined],
  ['PostgreSQL', postgresHarness],
  ['SQLite on a worker thread', sqliteWorkerHarness],
] as const)('sessions on %s', (_name, harness) => {
  const skip = harness?.skipReason;

  async function start() {
    database = harness ? await harness.createDatabase() : undefined;
    server = await startConsoleServer(database ? { database } : {});
    await server.addAccount('ana@example.com', 'admin');
    await server.addAccount('ben@example.com', 'viewer');
    return server;
  }

  it.skipIf(skip)('GET /session says who is signed in, or 401 signed-out', async () => {
    const console = await start();
    const anonymous = await console.read(undefined, '/console/api/session');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: 'signed-out' });
    const ana = await console.signedIn('ana@example.com');
    const me = await console.read(ana, '/console/api/session');
    expect(me.json()).toMatchObject({ email: 'ana@example.com', role: 'admin', csrfToken: ana.csrfToken });
  });

  it.skipIf(skip)('session fixation: the cookie a browser carried before sign-in is never the one after, and is ended', async () => {
    const console = await start();
    const planted = await console.signedIn('ben@example.com');
    const response = await console.signIn('ana@example.com', PASSWORD, { cookie: planted.cookie });
    expect(response.statusCode).toBe(200);
    expect(cookiePair(response)).not.toBe(planted.cookie);
    expect((await console.read(planted, '/console/api/session')).statusCode).toBe(401);
    const forged = await console.signIn('ana@example.com', PASSWORD, { cookie: 'console_session=chosen-by-attacker' });
    expect(cookiePair(forged)).not.toBe('console_session=chosen-by-attacker');
  });

  it.skipIf(skip)('signing out ends the session in the store and clears the cookie', async () => {
    const console = await start();
    const ana = await console.signedIn('ana@example.com');
    const out = await console.change(ana, 'DELETE', '/console/api/session');
    expect(out.statusCode).toBe(204);
    expect(cookiePair(out)).toBe('console_session=');
    expect(attributesOf(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await console.read(ana, '/console/api/session')).statusCode).toBe(401);
  });

  it.skipIf(skip)('a removed account is signed out at its next call', async () => {
    const console = await start();
    const ben = await console.signedIn('ben@example.com');
    const ana = await console.signedIn('ana@example.com');
    expect((await console.read(ben, '/console/api/session')).statusCode).toBe(200);
    expect((await console.change(ana, 'DELETE', '/console/api/accounts/ben%40example.com')).statusCode).toBe(204);
    const after = await console.read(ben, '/console/api/session');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ error: 'signed-out' });
  });

  it.skipIf(skip)('a changed password ends every session of the account at once', async () => {
    const console = await start();
    const ben = await console.signedIn('ben@example.com');
    await console.store.setAccountPassword('ben@example.com', await hashPassword('a brand new password'), Date.now());
    expect((await console.read(ben, '/console/api/session')).statusCode).toBe(401);
    expect((await console.signIn('ben@example.com')).statusCode).toBe(401);
    expect((await console.signIn('ben@example.com', 'a brand new password')).statusCode).toBe(200);
  });
});

describe('the brute-force limit', () => {
  it('answers the same to an unknown address as to a wrong password, then 429 after 5 wrong passwords', async () => {
    server = await startConsoleServer();
    await server.addAccount('ana@example.com', 'admin');
    const unknown = await server.signIn('nobody@example.com', 'wrong password!');
    const wrong = await server.signIn('ana@example.com', 'wrong password!');
    expect([unknown.statusCode, wrong.statusCode]).toEqual([401, 401]);
    expect(unknown.json()).toEqual({ error: 'refused', message: SIGN_IN_MESSAGES.refused });
    expect(wrong.json()).toEqual(unknown.json());
    for (let attempt = 2; attempt <= 5; attempt += 1)
      expect((await server.signIn('ana@example.com', 'wrong password!')).statusCode).toBe(401);
    const limited = await server.signIn('ana@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'rate-limited', retryAfterSeconds: expect.any(Number) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['set-cookie']).toBeUndefined();
  });

  it('checks the shape of a sign-in: 400 validation with the field', async () => {
    server = await startConsoleServer();
    const response = await server.app.inject({
      method: 'POST',
      url: '/console/api/session',
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'ana@example.com' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation', fields: { password: 'Required.' } });
  });
});
