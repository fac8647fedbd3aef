// Access to the console under every spelling of every path: the decision is made on the route that
// runs, so capitals, doubled slashes, percent-escapes, dot segments, backslashes and trailing slashes
// change nothing. Every route the app registers is tried, so a route added later is covered too.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOST, ORIGIN, startConsoleServer, type ConsoleTestServer, type Signed } from '../testing/console-client.ts';

const MARKER = 'Zelda Quartermain';
const LEAD_ID = '7f1d2c3b-0000-4000-8000-000000000001';

let server: ConsoleTestServer;
let admin: Signed;
beforeEach(async () => {
  server = await startConsoleServer();
  await server.addAccount('admin@example.com', 'admin');
  await server.addAccount('viewer@example.com', 'viewer');
  await server.insertLead({
    id: LEAD_ID,
    email: 'zelda@example.com',
    payload: { name: MARKER, email: 'zelda@example.com', company: MARKER },
    initialState: 'pending',
  });
  admin = await server.signedIn('admin@example.com');
});
afterEach(async () => server.close());

/** A concrete path for a route: each parameter filled with something that exists. */
function concrete(url: string): string {
  return url.replace(':id', LEAD_ID).replace(':email', 'viewer%40example.com').replace('*', 'anything');
}

/** The spellings of one path a router might be fooled by. */
function spellings(path: string): string[] {
  const rest = path.slice('/console/api'.length);
  return [
    path,
    `/Console/API${rest}`,
    `/console//api${rest}`,
    `//console/api${rest}`,
    `/console/%61pi${rest}`,
    `/%63onsole/api${rest}`,
    `/console/api/.${rest}`,
    `/console\\api${rest.replaceAll('/', '\\')}`,
    `/console/x/../api${rest}`,
    `${path}/`,
  ];
}

function apiRoutes() {
  return server.app.consoleRoutes.filter((route) => route.url.startsWith('/console/api'));
}

describe('what each console API route declares', () => {
  it('every route says who may call it; only the session routes are open to anyone', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      expect(route.access, `${route.method} ${route.url}`).toBeDefined();
      if (route.access === 'anyone') expect(['/console/api/session']).toContain(route.url);
      if (route.access === 'public') expect(['/console/api', '/console/api/', '/console/api/*']).toContain(route.url);
    }
    const anyone = routes.filter((route) => route.access === 'anyone').map((route) => `${route.method} ${route.url}`);
    expect(anyone.sort()).toEqual(['GET /console/api/session', 'HEAD /console/api/session', 'POST /console/api/session']);
  });
});

describe('without a session', () => {
  it('every route under every spelling answers 401 or 404, and never a lead', async () => {
    const routes = apiRoutes().filter((route) => route.access !== 'anyone' && route.access !== 'public');
    for (const route of routes) {
      for (const url of spellings(concrete(route.url))) {
        const change = route.method !== 'GET' && route.method !== 'HEAD';
        const response = await server.app.inject({
          method: route.method as 'GET',
          url,
          headers: { host: HOST, origin: ORIGIN, ...(change ? { 'content-type': 'application/json' } : {}) },
          ...(change ? { payload: '{}' } : {}),
        });
        expect([401, 404], `${route.method} ${url}`).toContain(response.statusCode);
        expect(response.body).not.toContain(MARKER);
        expect(response.body).not.toContain('zelda@');
        if (response.statusCode === 401 && route.method !== 'HEAD') expect(response.json()).toMatchObject({ error: 'signed-out' });
      }
    }
    expect((await server.store.getLead(LEAD_ID))?.state).toBe('pending');
    expect((await server.store.listAccounts()).map((account) => account.email)).toContain('viewer@example.com');
  });

  it('a cookie naming no live session counts as none', async () => {
    const response = await server.app.inject({ url: '/console/api/leads', headers: { host: HOST, cookie: 'console_session=forged' } });
    expect(response.statusCode).toBe(401);
  });
});

describe('with a session, every spelling reaches the same check', () => {
  it('reads the same leads, or is a 404 that carries none', async () => {
    for (const url of spellings('/console/api/leads')) {
      const response = await server.read(admin, url);
      expect([200, 404], url).toContain(response.statusCode);
      if (response.statusCode === 404) expect(response.body).not.toContain(MARKER);
    }
    const viewer = await server.signedIn('viewer@example.com');
    for (const url of spellings('/console/api/accounts')) expect([403, 404], url).toContain((await server.read(viewer, url)).statusCode);
  });
});

describe('CSRF: a change needs the session token and a same-origin request', () => {
  const changes = () =>
    apiRoutes().filter((route) => !['GET', 'HEAD'].includes(route.method) && !['anyone', 'public'].includes(route.access!));

  it.each([
    ['no token', (signed: Signed) => ({ ...signed.changeHeaders, 'x-csrf-token': undefined })],
    ['a wrong token', (signed: Signed) => ({ ...signed.changeHeaders, 'x-csrf-token': 'A'.repeat(43) })],
    ['another site as Origin', (signed: Signed) => ({ ...signed.changeHeaders, origin: 'https://evil.example' })],
    ['Origin null', (signed: Signed) => ({ ...signed.changeHeaders, origin: 'null' })],
    ['Sec-Fetch-Site cross-site', (signed: Signed) => ({ ...signed.changeHeaders, 'sec-fetch-site': 'cross-site' })],
    ['Sec-Fetch-Site same-site', (signed: Signed) => ({ ...signed.changeHeaders, 'sec-fetch-site': 'same-site' })],
  ])('%s: every change answers 403 csrf and changes nothing', async (_name, headersOf) => {
    const routes = changes();
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const headers = Object.fromEntries(Object.entries(headersOf(admin)).filter(([, value]) => value !== undefined)) as Record<
        string,
        string
      >;
      const response = await server.app.inject({ method: route.method as 'POST', url: concrete(route.url), headers, payload: '{}' });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json()).toMatchObject({ error: 'csrf' });
    }
    expect((await server.store.getLead(LEAD_ID))?.state).toBe('pending');
    expect(await server.store.listAccounts()).toHaveLength(2);
  });

  it("another session's token is refused", async () => {
    const other = await server.signedIn('viewer@example.com');
    const response = await server.app.inject({
      method: 'POST',
      url: '/console/api/erasures',
      headers: { ...admin.changeHeaders, 'x-csrf-token': other.csrfToken },
      payload: JSON.stringify({ email: 'zelda@example.com', count: 1 }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'csrf' });
    expect(await server.store.getLead(LEAD_ID)).toBeDefined();
  });

  it('a change must be JSON: a form post is 415', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/console/api/leads/retry',
      headers: { ...admin.changeHeaders, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'allFailed=true',
    });
    expect(response.statusCode).toBe(415);
    const signIn = await server.signIn('admin@example.com', undefined, { 'content-type': 'text/plain' });
    expect(signIn.statusCode).toBe(415);
  });

  it('signing in from another site is refused', async () => {
    const response = await server.signIn('admin@example.com', undefined, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

describe('roles', () => {
  it('a viewer reads and exports, and gets 403 on retry, spam, erasure, audit and accounts', async () => {
    const viewer = await server.signedIn('viewer@example.com');
    expect((await server.read(viewer, '/console/api/leads')).statusCode).toBe(200);
    expect((await server.read(viewer, '/console/api/leads/export?format=csv')).statusCode).toBe(200);
    const refused = [
      await server.change(viewer, 'POST', '/console/api/leads/retry', { allFailed: true }),
      await server.change(viewer, 'POST', `/console/api/leads/${LEAD_ID}/spam`, { spam: true }),
      await server.change(viewer, 'POST', '/console/api/erasures', { email: 'zelda@example.com', count: 1 }),
      await server.read(viewer, '/console/api/erasures?email=zelda%40example.com'),
      await server.read(viewer, '/console/api/audit'),
      await server.read(viewer, '/console/api/accounts'),
      await server.change(viewer, 'POST', '/console/api/accounts', { email: 'x@example.com', role: 'admin', password: 'a'.repeat(20) }),
      await server.change(viewer, 'PATCH', '/console/api/accounts/viewer%40example.com', { role: 'admin' }),
      await server.change(viewer, 'DELETE', '/console/api/accounts/admin%40example.com'),
    ];
    for (const response of refused) expect(response.json()).toMatchObject({ error: 'forbidden' });
    expect(refused.map((response) => response.statusCode)).toEqual(refused.map(() => 403));
    expect((await server.store.getLead(LEAD_ID))?.state).toBe('pending');
    expect(await server.store.listAccounts()).toHaveLength(2);
  });
});
