// The console's API on a real store, as its app and the people using it meet it: the inbox and a
// lead's detail (hostile text comes back as JSON strings), retry, spam and not spam, the export's
// neutralised CSV, erasure with its count confirmed, the audit log, the accounts rules, the health
// screen, the app's page and headers, and logs without full addresses. The inbox, erasure and
// accounts run on PostgreSQL too.
import { afterEach, describe, expect, it } from 'vitest';
import type {
  AuditPage,
  ErasurePreview,
  Health,
  LeadDetail,
  LeadPage,
  NotificationSettings,
  TestNotificationResult,
} from '../../console/api-types.ts';
import { CONSOLE_HTML, HOST, PASSWORD, startConsoleServer, type ConsoleTestServer } from '../testing/console-client.ts';
import { FIXTURE_SECRET } from '../testing/site-fixture.ts';
import { postgresHarness, type StoreDatabase } from '../testing/store-harness.ts';
import { CONSOLE_CSP } from './plugin.ts';

let server: ConsoleTestServer | undefined;
let database: StoreDatabase | undefined;
afterEach(async () => {
  await server?.close();
  await database?.remove();
  server = undefined;
  database = undefined;
});

const SCRIPT = '<script>alert(1)</script>';
const IMAGE = '<img src=x onerror=alert(1)>';
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each([
  ['SQLite', undefined],
  ['PostgreSQL', postgresHarness],
] as const)('the console API on %s', (_name, harness) => {
  const skip = harness?.skipReason;

  async function start() {
    database = harness ? await harness.createDatabase() : undefined;
    const console = await startConsoleServer(database ? { database } : {});
    server = console;
    await console.addAccount('admin@example.com', 'admin');
    await console.addAccount('sales@example.com', 'sales');
    return console;
  }

  it.skipIf(skip)('lists leads newest first, page by page, and filters them', async () => {
    const console = await start();
    const firstDay = Date.parse('2026-11-10T12:00:00Z');
    for (let index = 0; index < 5; index += 1) {
      await console.insertLead({
        id: `lead-${index}`,
        receivedAt: firstDay + index * DAY_MS,
        email: `person${index}@example.com`,
        source: index % 2 === 0 ? 'Contact Page Form' : 'Homepage Simple Lead Form',
        payload: {
          name: `Person ${index}`,
          email: `person${index}@example.com`,
          company: 'Acme',
          utm_campaign: index === 4 ? 'spring' : 'none',
        },
      });
    }
    const admin = await console.signedIn('admin@example.com');
    const first = (await console.read(admin, '/console/api/leads?limit=2')).json<LeadPage>();
    expect(first.leads.map((lead) => lead.id)).toEqual(['lead-4', 'lead-3']);
    expect(first.leads[0]).toMatchObject({
      name: 'Person 4',
      email: 'person4@example.com',
      company: 'Acme',
      campaign: 'spring',
      state: 'held',
    });
    const second = (await console.read(admin, `/console/api/leads?limit=2&after=${first.next}`)).json<LeadPage>();
    expect(second.leads.map((lead) => lead.id)).toEqual(['lead-2', 'lead-1']);
    const last = (await console.read(admin, `/console/api/leads?limit=2&after=${second.next}`)).json<LeadPage>();
    expect(last).toEqual({ leads: [expect.objectContaining({ id: 'lead-0' })], next: null });

    const days = (await console.read(admin, '/console/api/leads?from=2026-11-11&to=2026-11-12')).json<LeadPage>();
    expect(days.leads.map((lead) => lead.id)).toEqual(['lead-2', 'lead-1']);
    const form = (await console.read(admin, '/console/api/leads?form=Contact%20Page%20Form&campaign=spring')).json<LeadPage>();
    expect(form.leads.map((lead) => lead.id)).toEqual(['lead-4']);
    const search = (await console.read(admin, '/console/api/leads?q=person3%40example.com')).json<LeadPage>();
    expect(search.leads.map((lead) => lead.id)).toEqual(['lead-3']);
  });

  it.skipIf(skip)('refuses a malformed filter, cursor or limit with the field named', async () => {
    const console = await start();
    const admin = await console.signedIn('admin@example.com');
    for (const [query, field] of [
      ['after=not-a-cursor!', 'after'],
      [`after=${Buffer.from('["x","y"]').toString('base64url')}`, 'after'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['from=2026-02-30', 'from'],
      ['from=2026-11-12&to=2026-11-10', 'to'],
      ['state=lost', 'state'],
      ['spam=maybe', 'spam'],
      ['colour=red', 'colour'],
    ]) {
      const response = await console.read(admin, `/console/api/leads?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ error: 'validation', fields: { [field!]: expect.any(String) } });
    }
  });

  it.skipIf(skip)('erases by e-mail only with the count the preview gave, and audits the count, never the address', async () => {
    const console = await start();
    for (const id of ['a', 'b']) await console.insertLead({ id, email: 'gone@example.com', payload: { email: 'Gone@Example.com' } });
    await console.insertLead({ id: 'c', email: 'kept@example.com' });
    const admin = await console.signedIn('admin@example.com');
    const preview = await console.read(admin, '/console/api/erasures?email=GONE%40example.com');
    expect(preview.json<ErasurePreview>()).toEqual({ count: 2 });

    const stale = await console.change(admin, 'POST', '/console/api/erasures', { email: 'gone@example.com', count: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'conflict' });
    expect(await console.store.getLead('a')).toBeDefined();

    const erased = await console.change(admin, 'POST', '/console/api/erasures', { email: 'gone@example.com', count: 2 });
    expect(erased.json()).toEqual({ erased: 2 });
    expect(await console.store.getLead('a')).toBeUndefined();
    expect(await console.store.getLead('c')).toBeDefined();

    const audit = (await console.read(admin, '/console/api/audit')).json<AuditPage>();
    expect(audit.entries[0]).toMatchObject({ actor: 'admin@example.com', action: 'leads.erase', detail: '2 lead(s)' });
    expect(JSON.stringify(audit)).not.toMatch(/gone/i);
    if (database) expect(JSON.stringify(await database.rows())).not.toMatch(/gone@/i);

    const invalid = await console.read(admin, '/console/api/erasures?email=');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: 'validation', fields: { email: expect.any(String) } });
  });

  it.skipIf(skip)('manages accounts: never the last admin, never yourself, and every change audited', async () => {
    const console = await start();
    const admin = await console.signedIn('admin@example.com');
    const added = await console.change(admin, 'POST', '/console/api/accounts', {
      email: 'New@Example.com',
      role: 'viewer',
      password: PASSWORD,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ email: 'new@example.com', role: 'viewer', lastSignInAt: null });
    expect((await console.signIn('new@example.com')).statusCode).toBe(200);
    const again = await console.change(admin, 'POST', '/console/api/accounts', {
      email: 'new@example.com',
      role: 'viewer',
      password: PASSWORD,
    });
    expect(again.statusCode).toBe(409);
    const short = await console.change(admin, 'POST', '/console/api/accounts', {
      email: 'x@example.com',
      role: 'viewer',
      password: 'short',
    });
    expect(short.json()).toMatchObject({ error: 'validation', fields: { password: expect.any(String) } });

    expect((await console.change(admin, 'PATCH', '/console/api/accounts/nobody%40example.com', { role: 'viewer' })).statusCode).toBe(404);
    const demoteLast = await console.change(admin, 'PATCH', '/console/api/accounts/admin%40example.com', { role: 'sales' });
    expect(demoteLast.statusCode).toBe(409);
    const removeSelf = await console.change(admin, 'DELETE', '/console/api/accounts/admin%40example.com');
    expect(removeSelf.statusCode).toBe(409);
    expect((await console.store.findAccount('admin@example.com'))?.role).toBe('admin');

    const promoted = await console.change(admin, 'PATCH', '/console/api/accounts/sales%40example.com', { role: 'admin' });
    expect(promoted.json()).toMatchObject({ email: 'sales@example.com', role: 'admin' });
    expect((await console.change(admin, 'PATCH', '/console/api/accounts/admin%40example.com', { role: 'viewer' })).statusCode).toBe(200);

    const other = await console.signedIn('sales@example.com');
    expect((await console.change(other, 'DELETE', '/console/api/accounts/new%40example.com')).statusCode).toBe(204);
    const accounts = (await console.read(other, '/console/api/accounts')).json<{ email: string; role: string }[]>();
    expect(accounts.map((account) => `${account.email} ${account.role}`)).toEqual(['admin@example.com viewer', 'sales@example.com admin']);

    const audit = (await console.read(other, '/console/api/audit')).json<AuditPage>();
    expect(audit.entries.map((entry) => entry.action)).toEqual(['account.remove', 'account.role', 'account.role', 'account.add']);
  });

  it.skipIf(skip)('two admins demoting or removing each other at the same moment: one is refused, one admin is left', async () => {
    const console = await start();
    await console.addAccount('other@example.com', 'admin');
    const admins = async () =>
      (await console.store.listAccounts()).filter((account) => account.role === 'admin').map((account) => account.email);
    // The one that loses is refused by the store (409), or, when the other's change landed before
    // its own access check, as an account that may no longer manage accounts (403) or is gone (401).
    const oneWins = (statuses: number[], success: number) => {
      expect(statuses.filter((status) => status === success)).toHaveLength(1);
      expect(statuses.filter((status) => [401, 403, 409].includes(status))).toHaveLength(1);
    };

    let [admin, other] = await Promise.all([console.signedIn('admin@example.com'), console.signedIn('other@example.com')]);
    const demotions = await Promise.all([
      console.change(admin!, 'PATCH', '/console/api/accounts/other%40example.com', { role: 'sales' }),
      console.change(other!, 'PATCH', '/console/api/accounts/admin%40example.com', { role: 'sales' }),
    ]);
    oneWins(
      demotions.map((answer) => answer.statusCode),
      200,
    );
    expect(await admins()).toHaveLength(1);

    for (const email of ['admin@example.com', 'other@example.com']) await console.store.setAccountRole(email, 'admin', Date.now());
    [admin, other] = await Promise.all([console.signedIn('admin@example.com'), console.signedIn('other@example.com')]);
    const removals = await Promise.all([
      console.change(admin!, 'DELETE', '/console/api/accounts/other%40example.com'),
      console.change(other!, 'DELETE', '/console/api/accounts/admin%40example.com'),
    ]);
    oneWins(
      removals.map((answer) => answer.statusCode),
      204,
    );
    expect(await admins()).toHaveLength(1);
  });
});

describe('a lead with hostile text', () => {
  it('comes back as JSON strings, and the app page never carries it', async () => {
    server = await startConsoleServer();
    await server.addAccount('admin@example.com', 'admin');
    const payload = Object.fromEntries(
      ['name', 'email', 'company', 'message', 'utm_campaign', 'referrer'].map((key) => [key, `${SCRIPT}${IMAGE}`]),
    );
    await server.insertLead({ id: 'hostile', email: `${SCRIPT}@x.example`, payload, spamReason: IMAGE, initialState: 'spam' });
    const admin = await server.signedIn('admin@example.com');

    const detail = await server.read(admin, '/console/api/leads/hostile');
    expect(detail.headers['content-type']).toMatch(/^application\/json/);
    const lead = detail.json<LeadDetail>();
    expect(lead.name).toBe(`${SCRIPT}${IMAGE}`);
    expect(lead.fields).toContainEqual(['message', `${SCRIPT}${IMAGE}`]);
    expect(lead.attribution.campaign).toBe(`${SCRIPT}${IMAGE}`);
    expect(lead.spamSignals).toEqual([IMAGE]);
    const list = (await server.read(admin, '/console/api/leads')).json<LeadPage>();
    expect(list.leads[0]?.company).toBe(`${SCRIPT}${IMAGE}`);

    for (const url of ['/console', '/console/leads/hostile', '/console/leads?q=%3Cscript%3E']) {
      const page = await server.read(admin, url);
      expect(page.statusCode).toBe(200);
      expect(page.body).toBe(CONSOLE_HTML);
    }
    expect((await server.read(admin, '/console/api/leads/missing')).json()).toMatchObject({ error: 'not-found' });
  });
});

describe('retry, spam and not spam', () => {
  it('forwards again, marks spam and back, each audited', async () => {
    server = await startConsoleServer({ env: { CRM_WEBHOOK_URL: 'http://127.0.0.1:9/crm' } });
    await server.addAccount('sales@example.com', 'sales');
    await server.insertLead({ id: 'one', initialState: 'pending' });
    await server.insertLead({ id: 'two', initialState: 'spam', spamReason: 'honeypot' });
    const sales = await server.signedIn('sales@example.com');

    const notSpam = await server.change(sales, 'POST', '/console/api/leads/two/spam', { spam: false });
    expect(notSpam.json()).toEqual({ state: 'pending' });
    const spam = await server.change(sales, 'POST', '/console/api/leads/one/spam', { spam: true });
    expect(spam.json()).toEqual({ state: 'spam' });
    const retried = await server.change(sales, 'POST', '/console/api/leads/retry', { ids: ['one', 'missing'] });
    expect(retried.json()).toEqual({ retried: 1 });
    expect((await server.store.getLead('one'))?.state).toBe('pending');
    expect((await server.change(sales, 'POST', '/console/api/leads/retry', { ids: [] })).statusCode).toBe(400);
    expect((await server.change(sales, 'POST', '/console/api/leads/retry', { allFailed: false })).statusCode).toBe(400);
    expect((await server.change(sales, 'POST', '/console/api/leads/missing/spam', { spam: true })).statusCode).toBe(404);

    const actions = (await server.store.listAudit(undefined, 10)).entries.map((entry) => `${entry.actor} ${entry.action} ${entry.detail}`);
    expect(actions).toEqual([
      'sales@example.com lead.retry 1 lead(s): one',
      'sales@example.com lead.spam one',
      'sales@example.com lead.not-spam two',
    ]);
  });
});

describe('the export', () => {
  it('streams every matching lead as a CSV attachment, formulas neutralised as the CLI does', async () => {
    server = await startConsoleServer();
    await server.addAccount('viewer@example.com', 'viewer');
    for (let index = 0; index < 450; index += 1) {
      await server.insertLead({
        id: `bulk-${String(index).padStart(3, '0')}`,
        receivedAt: Date.parse('2026-11-01T00:00:00Z') + index,
        payload: { name: `Bulk ${index}` },
      });
    }
    await server.insertLead({ id: 'formula', payload: { name: '=cmd|"/c calc"!A1', company: '+1+1', message: '@SUM(A1)' } });
    const viewer = await server.signedIn('viewer@example.com');
    const response = await server.read(viewer, '/console/api/leads/export?format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(452);
    const formula = lines.find((line) => line.startsWith('formula'))!;
    expect(formula).toContain(`"'=cmd|""/c calc""!A1"`);
    expect(formula).toContain("'+1+1");
    expect(formula).toContain("'@SUM(A1)");

    const json = await server.read(viewer, '/console/api/leads/export?format=json&q=Bulk%2012');
    expect(json.headers['content-disposition']).toMatch(/\.json"$/);
    const records = json.json<{ lead_id: string }[]>();
    expect(records.map((record) => record.lead_id).sort()).toEqual([
      'bulk-012',
      'bulk-120',
      'bulk-121',
      'bulk-122',
      'bulk-123',
      'bulk-124',
      'bulk-125',
      'bulk-126',
      'bulk-127',
      'bulk-128',
      'bulk-129',
    ]);
    const audit = (await server.store.listAudit(undefined, 10)).entries.map((entry) => `${entry.action} ${entry.detail}`);
    expect(audit).toEqual(['leads.export json: q=Bulk 12', 'leads.export csv: all leads']);
    expect((await server.read(viewer, '/console/api/leads/export')).json()).toMatchObject({ fields: { format: expect.any(String) } });
    const head = await server.app.inject({
      method: 'HEAD',
      url: '/console/api/leads/export?format=csv',
      headers: { host: HOST, cookie: viewer.cookie },
    });
    expect(head.statusCode).toBe(404);
    expect((await server.store.listAudit(undefined, 10)).entries).toHaveLength(2);
  });
});

describe('the health screen', () => {
  it('reports the store figures, the CRM pace and retention, and no incident while deliveries are fine', async () => {
    server = await startConsoleServer({ env: { CRM_MAX_PER_10S: '20', SPAM_RETENTION_DAYS: '14' } });
    await server.addAccount('viewer@example.com', 'viewer');
    for (let index = 0; index < 50; index += 1)
      await server.insertLead({ id: `wait-${index}`, receivedAt: Date.now() - 60 * 60_000, initialState: 'held' });
    const viewer = await server.signedIn('viewer@example.com');
    const health = (await server.read(viewer, '/console/api/health')).json<Health>();
    expect(health.perForm).toEqual([{ form: 'Contact Page Form', today: expect.any(Number), week: 50 }]);
    expect(health.perDay).toHaveLength(7);
    expect(health.oldestUndelivered).toMatchObject({ waitedMinutes: 60 });
    expect(health.backlog).toEqual({ pending: expect.any(Number), drainMinutes: expect.any(Number), maxPer10s: 20 });
    expect(health.incident).toBeNull();
    expect(health.retention).toEqual({ leadDays: null, spamDays: 14 });
  });
});

describe('the app page and its headers', () => {
  it('serves the same page for every console address, signed in or not, with the console policy and no-store', async () => {
    server = await startConsoleServer();
    for (const url of ['/console', '/console/', '/console/leads/123', '/Console/Accounts', '/console/x/../inbox']) {
      const response = await server.read(undefined, url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(CONSOLE_HTML);
      expect(response.headers).toMatchObject({
        'content-security-policy': CONSOLE_CSP,
        'x-robots-tag': 'noindex, nofollow',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'content-type': 'text/html; charset=utf-8',
      });
    }
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    const api = await server.read(undefined, '/console/api/leads');
    expect(api.headers).toMatchObject({
      'content-security-policy': CONSOLE_CSP,
      'x-robots-tag': 'noindex, nofollow',
      'cache-control': 'no-store',
    });
    const unknown = await server.read(undefined, '/console/api/nothing-here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not-found' });

    const asset = await server.read(undefined, '/console/assets/app-1a2b3c.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers).toMatchObject({
      'cache-control': 'public, max-age=31536000, immutable',
      'content-type': 'text/javascript; charset=utf-8',
    });
    expect(asset.headers['content-security-policy']).toBe(CONSOLE_CSP);
    for (const url of ['/console/assets/missing.js', '/console/assets/.hidden.js', '/console/assets/app-1a2b3c.exe']) {
      const missing = await server.read(undefined, url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body).not.toContain('<html');
    }
    for (const url of [
      '/console/assets/..%2F..%2Fsecret.txt',
      '/console/assets/%2e%2e/%2e%2e/secret.txt',
      '/console/..%5C..%5Csecret.txt',
    ]) {
      expect((await server.read(undefined, url)).body, url).not.toContain(FIXTURE_SECRET);
    }
    const post = await server.app.inject({ method: 'POST', url: '/console/leads', headers: { host: HOST } });
    expect(post.statusCode).toBe(405);
  });

  it('answers a plain 503 when the console was not built', async () => {
    server = await startConsoleServer({ build: false });
    const response = await server.read(undefined, '/console');
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toContain('npm run build');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
  });
});

describe('logs', () => {
  it('never hold a full e-mail address or phone number', async () => {
    const lines: string[] = [];
    server = await startConsoleServer({
      env: { LOG_LEVEL: 'trace' },
      appOptions: { logStream: { write: (line) => void lines.push(line) } },
    });
    await server.addAccount('admin@example.com', 'admin');
    await server.insertLead({
      id: 'p',
      email: 'private.person@example.com',
      payload: { email: 'private.person@example.com', phone: '+1 555 123 4567' },
    });
    await server.signIn('admin@example.com', 'wrong password!');
    await server.signIn('nobody.known@example.com', 'wrong password!');
    const admin = await server.signedIn('admin@example.com');
    await server.read(admin, '/console/api/erasures?email=private.person%40example.com');
    await server.read(admin, '/console/api/leads?q=%2B1%20555%20123%204567');
    await server.read(admin, '/console/api/leads?q=private.person@example.com');
    await server.change(admin, 'POST', '/console/api/erasures', { email: 'private.person@example.com', count: 1 });
    await server.change(admin, 'POST', '/console/api/accounts', { email: 'someone.new@example.com', role: 'viewer', password: PASSWORD });
    await server.change(admin, 'DELETE', '/console/api/accounts/someone.new%40example.com');
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(log).toContain('p***@example.com');
    for (const secret of [
      'private.person@',
      'private.person%40',
      'nobody.known@',
      'someone.new@',
      'someone.new%40',
      'admin@example.com',
      '555 123',
      '555%20123',
      '5551234567',
    ]) {
      expect(log, secret).not.toContain(secret);
    }
  });
});

describe('notifications in the console', () => {
  it('shows the channels and switches to anyone who reads leads; only an admin switches a form or sends a test', async () => {
    server = await startConsoleServer();
    await server.addAccount('admin@example.com', 'admin');
    await server.addAccount('viewer@example.com', 'viewer');
    const viewer = await server.signedIn('viewer@example.com');
    const settings = (await server.read(viewer, '/console/api/notifications')).json<NotificationSettings>();
    expect(settings).toMatchObject({ email: false, webhook: false, alertAfterMinutes: 15 });
    expect(settings.forms).toContainEqual({ form: 'Contact Page Form', newLeadEmail: true });
    const switchOff = { form: 'Contact Page Form', newLeadEmail: false };
    expect((await server.change(viewer, 'PUT', '/console/api/notifications/forms', switchOff)).statusCode).toBe(403);
    expect((await server.change(viewer, 'POST', '/console/api/notifications/test', {})).statusCode).toBe(403);

    const admin = await server.signedIn('admin@example.com');
    const switched = await server.change(admin, 'PUT', '/console/api/notifications/forms', switchOff);
    expect(switched.statusCode).toBe(200);
    expect(switched.json<NotificationSettings>().forms).toContainEqual(switchOff);
    const unknown = await server.change(admin, 'PUT', '/console/api/notifications/forms', { form: 'Nope', newLeadEmail: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'validation', message: 'There is no form called "Nope".' });
    const test = await server.change(admin, 'POST', '/console/api/notifications/test', {});
    expect(test.json<TestNotificationResult>()).toEqual({ channels: [] });
    const audit = (await server.read(admin, '/console/api/audit')).json<AuditPage>();
    expect(audit.entries.map((entry) => entry.action)).toEqual(['notifications.test', 'notifications.form']);
  });

  it('puts an open delivery incident on the health screen', async () => {
    server = await startConsoleServer();
    await server.addAccount('viewer@example.com', 'viewer');
    const since = Date.parse('2026-11-20T10:00:00Z');
    expect(await server.store.startIncident({ since, lastError: 'HTTP 503', openedAt: since + 15 * 60_000 }, [])).toBe(true);
    const viewer = await server.signedIn('viewer@example.com');
    const health = (await server.read(viewer, '/console/api/health')).json<Health>();
    expect(health.incident).toEqual({ since: '2026-11-20T10:00:00.000Z', lastError: 'HTTP 503' });
  });
});
