import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WeeklySummaryChoice } from '../../console/api-types.ts';
import { HOST, ORIGIN, startConsoleServer, type ConsoleTestServer, type Signed } from '../testing/console-client.ts';

// The weekly summary's switch in the console's API: each person's own choice, behind a session under
// every spelling of the address, changed only with the session's CSRF token from the console's own
// site, and audited.

const URL = '/console/api/me/weekly-summary';

/** The spellings of the address a router might be fooled by. */
function spellings(path: string): string[] {
  const rest = path.slice('/console/api'.length);
  return [
    path,
    `/Console/API${rest}`,
    `/console//api${rest}`,
    `/console/%61pi${rest}`,
    `/console/api/.${rest}`,
    `/console\\api${rest.replaceAll('/', '\\')}`,
    `/console/x/../api${rest}`,
    `${path}/`,
    path.toUpperCase().replace('/CONSOLE/API', '/console/api'),
  ];
}

let server: ConsoleTestServer;
let ana: Signed;
let bo: Signed;
beforeEach(async () => {
  server = await startConsoleServer();
  await server.addAccount('ana@example.com', 'admin');
  await server.addAccount('bo@example.com', 'viewer');
  await server.addAccount('ed@example.com', 'editor');
  ana = await server.signedIn('ana@example.com');
  bo = await server.signedIn('bo@example.com');
});
afterEach(async () => server.close());

const idOf = async (email: string) => (await server.store.findAccount(email))!.id;

describe('GET and PUT /me/weekly-summary', () => {
  it('says e-mail is set up when the server has SMTP', async () => {
    const withMail = await startConsoleServer({ env: { SMTP_URL: 'smtp://127.0.0.1:2525', NOTIFY_TO: 'sales@example.com' } });
    try {
      await withMail.addAccount('ana@example.com', 'admin');
      const response = await withMail.read(await withMail.signedIn('ana@example.com'), URL);
      expect(response.json<WeeklySummaryChoice>()).toMatchObject({ enabled: false, emailConfigured: true });
    } finally {
      await withMail.close();
    }
  });

  it('is off until the person switches it on, says when it is sent and that e-mail is not set up', async () => {
    const response = await server.read(ana, URL);
    expect(response.statusCode).toBe(200);
    expect(response.json<WeeklySummaryChoice>()).toEqual({
      enabled: false,
      emailConfigured: false,
      schedule: 'Mondays at 8:00 AM, New York time',
    });

    const on = await server.change(ana, 'PUT', URL, { enabled: true });
    expect(on.statusCode).toBe(200);
    expect(on.json<WeeklySummaryChoice>().enabled).toBe(true);
    expect((await server.read(ana, URL)).json<WeeklySummaryChoice>().enabled).toBe(true);
    expect(await server.store.weeklySummaryChoice(await idOf('ana@example.com'))).toBe(true);

    const off = await server.change(ana, 'PUT', URL, { enabled: false });
    expect(off.json<WeeklySummaryChoice>().enabled).toBe(false);
    const audit = (await server.store.listAudit(undefined, 10)).entries.filter((entry) => entry.action === 'account.weekly-summary');
    expect(audit.map((entry) => [entry.actor, entry.detail])).toEqual([
      ['ana@example.com', 'weekly summary by e-mail off'],
      ['ana@example.com', 'weekly summary by e-mail on'],
    ]);
  });

  it('changes only the signed-in person’s own choice; another account cannot be named', async () => {
    await server.change(ana, 'PUT', URL, { enabled: true });
    expect((await server.read(bo, URL)).json<WeeklySummaryChoice>().enabled).toBe(false);

    const other = await server.change(bo, 'PUT', URL, { enabled: true, accountId: await idOf('ana@example.com') });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ error: 'validation', fields: { accountId: 'Not an input this takes: accountId.' } });
    const elsewhere = await server.change(bo, 'PUT', `${URL}/ana@example.com`, { enabled: false });
    expect(elsewhere.statusCode).toBe(404);

    await server.change(bo, 'PUT', URL, { enabled: true });
    await server.change(bo, 'PUT', URL, { enabled: false });
    expect(await server.store.weeklySummaryChoice(await idOf('ana@example.com'))).toBe(true);
    expect(await server.store.weeklySummaryChoice(await idOf('bo@example.com'))).toBe(false);
  });

  it('answers bad input with the field named', async () => {
    for (const body of [{ enabled: 'yes' }, {}]) {
      const response = await server.change(ana, 'PUT', URL, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'validation',
        fields: { enabled: expect.stringMatching(/^(Must be true or false|Required)\.$/) },
      });
    }
    expect(await server.store.weeklySummaryChoice(await idOf('ana@example.com'))).toBe(false);
  });

  it('is not for a role that cannot read the reports it is made of, who may still switch it off', async () => {
    const ed = await server.signedIn('ed@example.com');
    const refused = await server.change(ed, 'PUT', URL, { enabled: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'forbidden',
      message: 'The weekly summary is made of the visit and lead reports, which your role does not show. Ask an admin if you need them.',
    });
    expect((await server.change(ed, 'PUT', URL, { enabled: false })).statusCode).toBe(200);
    expect(await server.store.listWeeklySummaryRecipients()).toEqual([]);
  });

  it('needs a session under every spelling of the address', async () => {
    let refused = 0;
    for (const url of spellings(URL)) {
      const statuses: number[] = [];
      for (const method of ['GET', 'PUT'] as const) {
        const response = await server.app.inject({
          method,
          url,
          headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json' },
          ...(method === 'PUT' ? { payload: JSON.stringify({ enabled: true }) } : {}),
        });
        expect([401, 404], `${method} ${url}`).toContain(response.statusCode);
        if (response.statusCode === 401) expect(response.json()).toMatchObject({ error: 'signed-out' });
        statuses.push(response.statusCode);
      }
      // With a session, a spelling refused for want of one reaches the route; one that names nothing stays a 404.
      const signedIn = (await server.read(ana, url)).statusCode;
      expect(signedIn, url).toBe(statuses[0] === 401 ? 200 : 404);
      if (statuses[0] === 401) refused += 1;
    }
    expect(refused).toBeGreaterThanOrEqual(5);
    expect(await server.store.listWeeklySummaryRecipients()).toEqual([]);
  });

  it.each([
    ['no token', (signed: Signed) => ({ ...signed.changeHeaders, 'x-csrf-token': undefined })],
    ['another session’s token', (signed: Signed) => ({ ...signed.changeHeaders, 'x-csrf-token': bo.csrfToken })],
    ['another site as Origin', (signed: Signed) => ({ ...signed.changeHeaders, origin: 'https://evil.example' })],
    ['Sec-Fetch-Site cross-site', (signed: Signed) => ({ ...signed.changeHeaders, 'sec-fetch-site': 'cross-site' })],
  ])('refuses a change with %s (CSRF) and changes nothing', async (_name, headersOf) => {
    const headers = Object.fromEntries(Object.entries(headersOf(ana)).filter(([, value]) => value !== undefined)) as Record<string, string>;
    const response = await server.app.inject({ method: 'PUT', url: URL, headers, payload: JSON.stringify({ enabled: true }) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'csrf' });
    expect(await server.store.weeklySummaryChoice(await idOf('ana@example.com'))).toBe(false);
  });
});
