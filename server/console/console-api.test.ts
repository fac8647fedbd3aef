// The console's API on a real store, as its app and the people using it meet it: the inbox and a
// lead's detail (hostile text comes back as JSON strings), retry, spam and not spam, the export's
// neutralised CSV, erasure with its count confirmed, the audit log, the accounts rules, the health
// screen, the app's page and headers, and logs without full addresses. The inbox, erasure and
// accounts run on PostgreSQL too.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  AuditPage,
  ErasurePreview,
  Health,
  LeadDetail,
  LeadPage,
  NotificationSettings,
  TestNotificationResult,
} from '../../console/api-types.ts';
import type { BuildAppOptions } from '../app.ts';
import { CONSOLE_HTML, HOST, PASSWORD, startConsoleServer, type ConsoleTestServer } from '../testing/console-client.ts';
import { VALID_VALUES } from '../testing/lead-bodies.ts';
import { FIXTURE_SECRET } from '../testing/site-fixture.ts';
import { postgresHarness, type StoreDatabase } from '../testing/store-harness.ts';
import { encodeCursor } from './lead-view.ts';
import { CONSOLE_CSP } from './plugin.ts';

let server: ConsoleTestServer | undefined;
let database: StoreDatabase | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  await database?.remove();
  server = undefined;
  database = undefined;
});

/** A lead id as the relay makes them (a UUID), the n-th of a test's leads. */
const leadId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const SCRIPT = '<script>alert(1)</script>';
const IMAGE = '<img src=x onerror=alert(1)>';
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each([
  ['SQLite', undefined],
  ['PostgreSQL', postgresHarness],
] as const)('the console API on %s', (_name, harness) => {
  const skip = harness?.skipReason;

  async function start(appOptions?: BuildAppOptions) {
    database = harness ? await harness.createDatabase() : undefined;
    const console = await startConsoleServer({ ...(database ? { database } : {}), ...(appOptions ? { appOptions } : {}) });
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
        id: leadId(index),
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
    expect(first.leads.map((lead) => lead.id)).toEqual([leadId(4), leadId(3)]);
    expect(first.leads[0]).toMatchObject({
      name: 'Person 4',
      email: 'person4@example.com',
      company: 'Acme',
      campaign: 'spring',
      state: 'held',
    });
    const second = (await console.read(admin, `/console/api/leads?limit=2&after=${first.next}`)).json<LeadPage>();
    expect(second.leads.map((lead) => lead.id)).toEqual([leadId(2), leadId(1)]);
    const last = (await console.read(admin, `/console/api/leads?limit=2&after=${second.next}`)).json<LeadPage>();
    expect(last).toEqual({ leads: [expect.objectContaining({ id: leadId(0) })], next: null });

    const days = (await console.read(admin, '/console/api/leads?from=2026-11-11&to=2026-11-12')).json<LeadPage>();
    expect(days.leads.map((lead) => lead.id)).toEqual([leadId(2), leadId(1)]);
    const form = (await console.read(admin, '/console/api/leads?form=Contact%20Page%20Form&campaign=spring')).json<LeadPage>();
    expect(form.leads.map((lead) => lead.id)).toEqual([leadId(4)]);
    const search = (await console.read(admin, '/console/api/leads?q=person3%40example.com')).json<LeadPage>();
    expect(search.leads.map((lead) => lead.id)).toEqual([leadId(3)]);
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

  it.skipIf(skip)('refuses a day that does not exist, or is not written YYYY-MM-DD, on the inbox and the export', async () => {
    const console = await start();
    const admin = await console.signedIn('admin@example.com');
    for (const [query, field, message] of [
      ['from=2026-13-01', 'from', 'Not a real date: 2026-13-01 does not exist.'],
      ['from=2026-02-30', 'from', 'Not a real date: 2026-02-30 does not exist.'],
      ['to=2026-04-31', 'to', 'Not a real date: 2026-04-31 does not exist.'],
      ['to=2026-00-10', 'to', 'Not a real date: 2026-00-10 does not exist.'],
      ['from=%2B20000-01-01', 'from', 'Must be a day written YYYY-MM-DD.'],
      ['from=20000-01-01', 'from', 'Must be a day written YYYY-MM-DD.'],
      ['to=2026-1-1', 'to', 'Must be a day written YYYY-MM-DD.'],
    ]) {
      for (const path of ['/console/api/leads', '/console/api/leads/export?format=csv&']) {
        const url = `${path}${path.includes('?') ? '' : '?'}${query}`;
        const response = await console.read(admin, url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json(), url).toMatchObject({ error: 'validation', fields: { [field!]: message } });
      }
    }
    expect((await console.store.listAudit(undefined, 10)).entries).toEqual([]);
  });

  it.skipIf(skip)('refuses a NUL or other control character, or a malformed lead id, with a 400 naming the input', async () => {
    const lines: string[] = [];
    const console = await start({ logStream: { write: (line) => void lines.push(line) } });
    const held = leadId(7);
    await console.insertLead({ id: held, initialState: 'held' });
    const admin = await console.signedIn('admin@example.com');
    const cursorOf = (id: string) => encodeCursor(Date.now(), id);
    for (const [url, field] of [
      ['/console/api/leads?q=%00', 'q'],
      ['/console/api/leads?q=ana%00', 'q'],
      ['/console/api/leads?q=%1B%5B2J', 'q'],
      ['/console/api/leads?form=%00', 'form'],
      ['/console/api/leads?campaign=%00', 'campaign'],
      ['/console/api/leads?source=%00', 'source'],
      [`/console/api/leads?after=${cursorOf('\u0000')}`, 'after'],
      [`/console/api/leads?after=${cursorOf('lead-1')}`, 'after'],
      ['/console/api/leads/%00', 'id'],
      ['/console/api/leads/lead-1', 'id'],
      ['/console/api/leads/export?format=csv&q=%00', 'q'],
      ['/console/api/leads/export?format=json&form=%00', 'form'],
      ['/console/api/erasures?email=%00', 'email'],
    ] as const) {
      const response = await console.read(admin, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ error: 'validation', fields: { [field]: expect.any(String) } });
    }
    for (const [method, url, body, field] of [
      ['POST', '/console/api/leads/%00/spam', { spam: true }, 'id'],
      ['POST', '/console/api/leads/retry', { ids: [held, '\u0000'] }, 'ids.1'],
      ['POST', '/console/api/erasures', { email: 'a\u0000@example.com', count: 0 }, 'email'],
      ['PUT', '/console/api/notifications/forms', { form: 'Contact Page Form\u0000', newLeadEmail: false }, 'form'],
    ] as const) {
      const response = await console.change(admin, method, url, body);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ error: 'validation', fields: { [field]: expect.any(String) } });
    }
    expect((await console.read(admin, '/console/api/leads?q=%00')).json()).toMatchObject({
      message: '"q": Must not contain control characters (such as U+0000, a tab or a line break).',
    });
    // Nothing was done: the held lead is still held and no audit entry says otherwise.
    expect((await console.store.getLead(held))?.state).toBe('held');
    expect((await console.store.listAudit(undefined, 10)).entries).toEqual([]);
    // A sign-in with one is refused like any unknown address (and counted, under a name the store can keep).
    expect((await console.signIn('a\u0000@example.com')).statusCode).toBe(401);
    const errors = lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });

  it.skipIf(skip)('names an unknown input even when it is called __proto__ or constructor', async () => {
    const console = await start();
    const admin = await console.signedIn('admin@example.com');
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const response = await console.read(admin, `/console/api/leads?${key}=x`);
      expect(response.statusCode, key).toBe(400);
      const body = response.json<{ message: string; fields: Record<string, string> }>();
      expect(Object.hasOwn(body.fields, key), key).toBe(true);
      expect(body.fields[key], key).toBe(`Not an input this takes: ${key}.`);
      expect(body.message, key).toBe(`"${key}": Not an input this takes: ${key}.`);
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

  it.skipIf(skip)(
    'records which filters an export used, never the text typed, so an erased person leaves no trace in the audit log',
    async () => {
      const console = await start();
      await console.insertLead({
        id: leadId(1),
        email: 'victim.person@example.com',
        payload: { name: 'Victim Person', email: 'victim.person@example.com', phone: '555-222-3333' },
      });
      const admin = await console.signedIn('admin@example.com');
      for (const query of [
        'q=555-222-3333',
        'q=Victim%20Person',
        'q=victim.person%40example.com',
        'q=victim&form=Contact%20Page%20Form',
        'campaign=victim.person%40example.com&source=Victim%20Person&state=failed&spam=no&from=2026-01-01&to=2026-01-31',
        'form=Victim%20Person',
      ]) {
        expect((await console.read(admin, `/console/api/leads/export?format=csv&${query}`)).statusCode, query).toBe(200);
      }
      const erased = await console.change(admin, 'POST', '/console/api/erasures', { email: 'victim.person@example.com', count: 1 });
      expect(erased.json()).toEqual({ erased: 1 });
      const audit = (await console.store.listAudit(undefined, 10)).entries.map((entry) => `${entry.action} ${entry.detail}`);
      expect(audit).toEqual([
        'leads.erase 1 lead(s)',
        'leads.export csv: a form the site does not have',
        'leads.export csv: state=failed, spam=no, from=2026-01-01, to=2026-01-31, campaign filter, source filter',
        'leads.export csv: form=Contact Page Form, text search',
        'leads.export csv: text search',
        'leads.export csv: text search',
        'leads.export csv: text search',
      ]);
      // The text of every entry. Ids and times are numbers that may hold "555" by chance; PostgreSQL's
      // driver hands its big integers over as strings of digits, so those are left out too.
      const texts = ((await database?.rows())?.['audit_log'] ?? []).map((row) =>
        Object.values(row as Record<string, unknown>).filter((value) => typeof value === 'string' && !/^\d+$/.test(value)),
      );
      if (database) expect(texts).toHaveLength(audit.length);
      if (database) expect(JSON.stringify(texts)).not.toMatch(/victim|555|2223333/i);
    },
  );

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

  it.skipIf(skip)('a role change signs the person out everywhere, and promoting them back never revives the old session', async () => {
    const console = await start();
    const admin = await console.signedIn('admin@example.com');
    const sales = await console.signedIn('sales@example.com');
    expect((await console.read(sales, '/console/api/leads')).statusCode).toBe(200);

    expect((await console.change(admin, 'PATCH', '/console/api/accounts/sales%40example.com', { role: 'viewer' })).statusCode).toBe(200);
    expect((await console.read(sales, '/console/api/leads')).json()).toMatchObject({ error: 'signed-out' });
    expect((await console.change(admin, 'PATCH', '/console/api/accounts/sales%40example.com', { role: 'sales' })).statusCode).toBe(200);
    const old = await console.read(sales, '/console/api/leads');
    expect(old.statusCode).toBe(401);
    expect(old.json()).toMatchObject({ error: 'signed-out' });

    // Signing in again works, with the role as it is now; the admin who made the change stays signed in.
    const again = await console.signedIn('sales@example.com');
    expect((await console.read(again, '/console/api/session')).json()).toMatchObject({ email: 'sales@example.com', role: 'sales' });
    expect((await console.read(admin, '/console/api/leads')).statusCode).toBe(200);
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
  const HOSTILE = leadId(1);
  const MISSING = leadId(404);
  it('comes back as JSON strings, and the app page never carries it', async () => {
    server = await startConsoleServer();
    await server.addAccount('admin@example.com', 'admin');
    const payload = Object.fromEntries(
      ['name', 'email', 'company', 'message', 'utm_campaign', 'referrer'].map((key) => [key, `${SCRIPT}${IMAGE}`]),
    );
    await server.insertLead({ id: HOSTILE, email: `${SCRIPT}@x.example`, payload, spamReason: IMAGE, initialState: 'spam' });
    const admin = await server.signedIn('admin@example.com');

    const detail = await server.read(admin, `/console/api/leads/${HOSTILE}`);
    expect(detail.headers['content-type']).toMatch(/^application\/json/);
    const lead = detail.json<LeadDetail>();
    expect(lead.name).toBe(`${SCRIPT}${IMAGE}`);
    expect(lead.fields).toContainEqual(['message', `${SCRIPT}${IMAGE}`]);
    expect(lead.attribution.campaign).toBe(`${SCRIPT}${IMAGE}`);
    expect(lead.spamSignals).toEqual([IMAGE]);
    const list = (await server.read(admin, '/console/api/leads')).json<LeadPage>();
    expect(list.leads[0]?.company).toBe(`${SCRIPT}${IMAGE}`);

    for (const url of ['/console', `/console/leads/${HOSTILE}`, '/console/leads?q=%3Cscript%3E']) {
      const page = await server.read(admin, url);
      expect(page.statusCode).toBe(200);
      expect(page.body).toBe(CONSOLE_HTML);
    }
    expect((await server.read(admin, `/console/api/leads/${MISSING}`)).json()).toMatchObject({ error: 'not-found' });
  });
});

describe('retry, spam and not spam', () => {
  const [ONE, TWO, MISSING] = [leadId(1), leadId(2), leadId(404)];

  it('forwards again, marks spam and back, each audited', async () => {
    server = await startConsoleServer({ env: { CRM_WEBHOOK_URL: 'http://127.0.0.1:9/crm' } });
    await server.addAccount('sales@example.com', 'sales');
    await server.insertLead({ id: ONE, initialState: 'pending', payload: { ...VALID_VALUES.contact } });
    await server.insertLead({ id: TWO, initialState: 'spam', spamReason: 'honeypot', payload: { ...VALID_VALUES.contact } });
    const sales = await server.signedIn('sales@example.com');

    const notSpam = await server.change(sales, 'POST', `/console/api/leads/${TWO}/spam`, { spam: false });
    expect(notSpam.json()).toEqual({ state: 'pending' });
    const spam = await server.change(sales, 'POST', `/console/api/leads/${ONE}/spam`, { spam: true });
    expect(spam.json()).toEqual({ state: 'spam' });
    const retried = await server.change(sales, 'POST', '/console/api/leads/retry', { ids: [ONE, MISSING] });
    expect(retried.json()).toEqual({
      retried: 0,
      sent: { failed: 0, held: 0, waiting: 0, retrying: 0 },
      skipped: { spam: 1, delivered: 0, sending: 0, missing: 1 },
    });
    expect((await server.store.getLead(ONE))?.state).toBe('spam');
    expect((await server.change(sales, 'POST', `/console/api/leads/${ONE}/spam`, { spam: false })).statusCode).toBe(200);
    await server.change(sales, 'POST', '/console/api/leads/retry', { ids: [ONE] });
    expect((await server.store.getLead(ONE))?.state).toBe('pending');
    expect((await server.change(sales, 'POST', '/console/api/leads/retry', { ids: [] })).statusCode).toBe(400);
    expect((await server.change(sales, 'POST', '/console/api/leads/retry', { allFailed: false })).statusCode).toBe(400);
    expect((await server.change(sales, 'POST', `/console/api/leads/${MISSING}/spam`, { spam: true })).statusCode).toBe(404);

    // The assigner's placements (actor `system`) are the sales queue's own tests' concern.
    const actions = (await server.store.listAudit(undefined, 20)).entries
      .filter((entry) => entry.actor !== 'system')
      .map((entry) => `${entry.actor} ${entry.action} ${entry.detail}`);
    expect(actions).toEqual([
      `sales@example.com lead.retry sent 1 lead(s): ${ONE} (1 waiting)`,
      `sales@example.com lead.not-spam ${ONE}`,
      'sales@example.com lead.retry sent nothing; skipped 1 spam, 1 not found',
      `sales@example.com lead.spam ${ONE}`,
      `sales@example.com lead.not-spam ${TWO}`,
    ]);
  });
});

describe('a retry the store fails part-way through', () => {
  it('records in the audit log the leads it did move, and moves no more', async () => {
    // A CRM is set up, but the outbox's clock stands at 1970: it never takes the leads moved here.
    server = await startConsoleServer({
      env: { CRM_WEBHOOK_URL: 'http://127.0.0.1:9/crm' },
      appOptions: { relayTuning: { now: () => 0 } },
    });
    await server.addAccount('sales@example.com', 'sales');
    const ids = [leadId(1), leadId(2), leadId(3)];
    for (const id of ids) await server.insertLead({ id, initialState: 'held' });
    const store = server.store;
    const retry = store.retry.bind(store);
    let calls = 0;
    vi.spyOn(store, 'retry').mockImplementation(async (target, at) => {
      calls += 1;
      if (calls === 2) throw new Error('the connection to the store was lost');
      return retry(target, at);
    });
    const sales = await server.signedIn('sales@example.com');
    const response = await server.change(sales, 'POST', '/console/api/leads/retry', { ids });
    expect(response.statusCode).toBe(500);
    expect((await store.getLead(ids[0]!))?.state).toBe('pending');
    expect((await store.getLead(ids[1]!))?.state).toBe('held');
    expect((await store.getLead(ids[2]!))?.state).toBe('held');
    const audit = (await store.listAudit(undefined, 10)).entries.map((entry) => `${entry.action} ${entry.detail}`);
    expect(audit).toEqual([`lead.retry sent 1 lead(s): ${ids[0]} (1 held); stopped by a server error before the other 2 id(s)`]);
  });
});

describe('searches and downloads under load', () => {
  it('runs one query no index answers at a time with four waiting, tells the next to try again, and never holds up one an index answers', async () => {
    server = await startConsoleServer();
    await server.addAccount('viewer@example.com', 'viewer');
    const store = server.store;
    const list = store.listLeadPage.bind(store);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    let most = 0;
    vi.spyOn(store, 'listLeadPage').mockImplementation(async (query, after, limit) => {
      if (query.search === 'acme') {
        running += 1;
        most = Math.max(most, running);
        await held;
        running -= 1;
      }
      return list(query, after, limit);
    });
    const viewer = await server.signedIn('viewer@example.com');
    const searches = Array.from({ length: 5 }, () => server!.read(viewer, '/console/api/leads?q=acme'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await server.read(viewer, '/console/api/leads?q=acme');
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'busy', message: expect.stringContaining('try again') as unknown });
    // So does any other query no index answers by itself.
    for (const filters of ['spam=no&form=Contact+Page+Form', 'state=failed&form=Contact+Page+Form', 'campaign=spring&source=google']) {
      expect((await server.read(viewer, `/console/api/leads?${filters}`)).statusCode, filters).toBe(503);
    }
    // One index answers these: they never wait behind the slow searches. The inbox's first screen
    // (every lead but spam) is one of them.
    for (const filters of [
      'spam=no',
      'spam=no&from=2026-11-01',
      'q=someone%40example.com',
      '',
      'state=failed',
      'form=Contact+Page+Form',
      'spam=yes',
      'campaign=spring&from=2026-11-01',
    ]) {
      expect((await server.read(viewer, `/console/api/leads?${filters}`)).statusCode, filters).toBe(200);
    }
    release();
    expect((await Promise.all(searches)).map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(most).toBe(1);
  });

  it('runs two downloads at once and tells a third to try again, without recording it', async () => {
    server = await startConsoleServer();
    await server.addAccount('viewer@example.com', 'viewer');
    await server.insertLead({ id: leadId(1) });
    const store = server.store;
    const openExport = store.openLeadExport.bind(store);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(store, 'openLeadExport').mockImplementation(async (query) => {
      const reader = await openExport(query);
      return { ...reader, nextPage: async (limit) => (await held, reader.nextPage(limit)) };
    });
    const viewer = await server.signedIn('viewer@example.com');
    const downloads = [
      server.read(viewer, '/console/api/leads/export?format=csv'),
      server.read(viewer, '/console/api/leads/export?format=json'),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    const third = await server.read(viewer, '/console/api/leads/export?format=csv');
    expect(third.statusCode).toBe(503);
    expect(third.json()).toMatchObject({ error: 'busy' });
    release();
    expect((await Promise.all(downloads)).map((response) => response.statusCode)).toEqual([200, 200]);
    expect((await store.listAudit(undefined, 10)).entries.map((entry) => entry.action)).toEqual(['leads.export', 'leads.export']);
    // Both finished: the next download runs.
    expect((await server.read(viewer, '/console/api/leads/export?format=csv')).statusCode).toBe(200);
  });
});

describe('a text the lead store cannot keep', () => {
  it.each(['22021', '22P05'])('(PostgreSQL error %s) is answered 400, not 500, and logged without a stack', async (code) => {
    const lines: string[] = [];
    server = await startConsoleServer({ appOptions: { logStream: { write: (line) => void lines.push(line) } } });
    await server.addAccount('admin@example.com', 'admin');
    const refusal = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code });
    vi.spyOn(server.store, 'listLeadPage').mockRejectedValue(refusal);
    const admin = await server.signedIn('admin@example.com');
    const response = await server.read(admin, '/console/api/leads?q=ana');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation', message: expect.stringContaining('cannot keep') });
    expect(lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
    expect(lines.join('')).not.toContain('"stack"');
  });
});

describe('what a retry takes', () => {
  it('says it in words: ids (1 to 500 lead ids) or allFailed: true', async () => {
    server = await startConsoleServer();
    await server.addAccount('sales@example.com', 'sales');
    const sales = await server.signedIn('sales@example.com');
    const either = 'Send ids (1 to 500 lead ids) or allFailed: true.';
    for (const [body, field, message] of [
      [{ ids: Array.from({ length: 501 }, () => randomUUID()) }, 'ids', 'Must list at most 500.'],
      [{ ids: [] }, 'ids', 'Must list at least 1.'],
      [{ allFailed: false }, 'allFailed', 'Must be true.'],
      [{}, '_request', either],
      [{ ids: [randomUUID()], allFailed: true }, '_request', either],
      [[], '_request', either],
    ] as const) {
      const response = await server.change(sales, 'POST', '/console/api/leads/retry', body);
      const label = JSON.stringify(body).slice(0, 40);
      expect(response.statusCode, label).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields[field], label).toBe(message);
      expect(response.body, label).not.toContain('Not valid.');
    }
    expect(await server.store.listAudit(undefined, 10)).toMatchObject({ entries: [] });
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
    expect(audit).toEqual(['leads.export json: text search', 'leads.export csv: all leads']);
    expect((await server.read(viewer, '/console/api/leads/export')).json()).toMatchObject({ fields: { format: expect.any(String) } });
    const head = await server.app.inject({
      method: 'HEAD',
      url: '/console/api/leads/export?format=csv',
      headers: { host: HOST, cookie: viewer.cookie },
    });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('GET');
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
    expect(health.backlog).toEqual({ pending: expect.any(Number), drainMinutes: expect.any(Number), maxPer10s: 20, crmRefusing: false });
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

  it('answers every /console address itself, with its headers, whatever the method or the escapes', async () => {
    server = await startConsoleServer();
    const consoleHeaders = {
      'content-security-policy': CONSOLE_CSP,
      'x-robots-tag': 'noindex, nofollow',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    };
    for (const [method, url, status, error] of [
      ['PROPFIND', '/console/api/leads', 404, 'not-found'],
      ['PROPFIND', '/Console/API/leads', 404, 'not-found'],
      ['MKCOL', '/console/api', 404, 'not-found'],
      ['GET', '/console/api/%ZZ', 400, 'validation'],
      ['GET', '/Console/API/%ZZ', 400, 'validation'],
      ['GET', '/%63onsole/api/%ZZ', 400, 'validation'],
      ['GET', '/console/api/leads/%ZZ', 400, 'validation'],
      ['GET', '/console/x/../api/leads?q=%ZZ', 401, 'signed-out'],
      ['POST', '/console/api/leads/%E0%A4%A', 400, 'validation'],
    ] as const) {
      const response = await server.app.inject({ method, url, headers: { host: HOST } });
      expect(response.statusCode, `${method} ${url}`).toBe(status);
      expect(response.headers, `${method} ${url}`).toMatchObject({ ...consoleHeaders, 'content-type': 'application/json; charset=utf-8' });
      expect(response.json(), `${method} ${url}`).toMatchObject({ error, message: expect.any(String) });
    }
    for (const [method, url, status] of [
      ['PROPFIND', '/console/leads', 405],
      ['PROPFIND', '/console', 405],
      ['GET', '/console/%ZZ', 400],
      ['GET', '/CONSOLE/leads/%ZZ', 400],
    ] as const) {
      const response = await server.app.inject({ method, url, headers: { host: HOST } });
      expect(response.statusCode, `${method} ${url}`).toBe(status);
      expect(response.headers, `${method} ${url}`).toMatchObject({ ...consoleHeaders, 'content-type': 'text/plain; charset=utf-8' });
      expect(response.body, `${method} ${url}`).not.toContain('<html');
    }
    // The public site keeps its own answers.
    const site = await server.app.inject({ method: 'PROPFIND', url: '/no-such-page', headers: { host: HOST } });
    expect(site.statusCode).toBe(404);
    expect(site.body).toContain('<html');
    expect(site.headers['x-robots-tag']).toBeUndefined();
    const badSiteUrl = await server.app.inject({ url: '/%ZZ', headers: { host: HOST } });
    expect(badSiteUrl.statusCode).toBe(400);
    expect(badSiteUrl.json()).toMatchObject({ code: 'FST_ERR_BAD_URL' });
    expect(badSiteUrl.headers['x-robots-tag']).toBeUndefined();
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
    for (const url of [
      '/console/api/leads?q=call+555-222-3333+please',
      '/console/api/leads?q=Victim+5552223333x',
      '/console/api/leads?victim.person@example.com=1',
      '/console/api/leads?q=victim.person%2540example.com',
      '/console/api/leads?campaign=Ana+Maria+Lopez&source=John+Smith',
      '/console/api/leads/export?format=csv&form=Maria+Silva',
    ]) {
      await server.read(admin, url);
    }
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
      '555-222-3333',
      '5552223333',
      'victim.person',
      'Ana+Maria',
      'John+Smith',
      'Maria+Silva',
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
