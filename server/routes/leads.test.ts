import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance, InjectOptions } from 'fastify';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractAttribution } from '../../lead/attribution.ts';
import { LEAD_FORM_IDS, LEAD_SOURCES } from '../../lead/rules.ts';
import type { LeadFormId } from '../../lead/rules.ts';
import { buildApp } from '../app.ts';
import type { Environment } from '../config.ts';
import { startCrmReceiver } from '../testing/crm-receiver.ts';
import type { CrmReceiver } from '../testing/crm-receiver.ts';
import { ownerChangedEvent, statusChangedEvent } from '../outbox/crm-events.ts';
import { hostileTexts } from '../../lead/testing/hostile-text.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig } from '../testing/site-fixture.ts';
import type { SiteFixture } from '../testing/site-fixture.ts';
import { LEAD_BODY_LIMIT_BYTES } from './leads.ts';

// POST /api/leads through `inject`, with a real SQLite file and a real HTTP CRM receiver on 127.0.0.1.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOST = '127.0.0.1:4321';
const FORM = 'application/x-www-form-urlencoded';

let fixture: SiteFixture;
let workDir: string;
let crm: CrmReceiver;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(async () => {
  await fixture.remove();
});
beforeEach(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'lead-routes-'));
  crm = await startCrmReceiver();
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  await crm.close();
  await rm(workDir, { recursive: true, force: true });
});

async function startRelay(env: Environment = {}): Promise<FastifyInstance> {
  const config = fixtureConfig(fixture.distDir, {
    LEADS_DB_FILE: path.join(workDir, 'leads.sqlite'),
    CRM_WEBHOOK_URL: crm.url,
    CRM_RETRY_DELAYS_MS: '20,20',
    LEAD_RATE_LIMIT: '1000',
    SITE_URL: 'https://www.example.com',
    ...env,
  });
  const app = buildApp(config, { relayTuning: { pollIntervalMs: 20, crmTimeoutMs: 1_000 } });
  apps.push(app);
  await app.ready();
  return app;
}

function postJson(app: FastifyInstance, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/leads',
    headers: { host: HOST, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  } satisfies InjectOptions);
}

function postForm(app: FastifyInstance, fields: Record<string, unknown>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])).toString();
  return app.inject({ method: 'POST', url: '/api/leads', headers: { host: HOST, 'content-type': FORM, ...headers }, payload: body });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForState(app: FastifyInstance, id: string, state: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while ((await app.leadRelay.store.getLead(id))?.state !== state) {
    if (Date.now() > deadline) throw new Error(`lead ${id} did not reach ${state}`);
    await sleep(20);
  }
}

describe("201: stored, then forwarded with the CRM's field names, lead_id and attribution", () => {
  it.each(LEAD_FORM_IDS)('%s form', async (formId) => {
    const app = await startRelay();
    const body = validLeadBody(formId);
    const response = await postJson(app, body);
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: string }>();
    expect(id).toMatch(UUID);

    const stored = await app.leadRelay.store.getLead(id);
    expect(stored).toMatchObject({ source: LEAD_SOURCES[formId], email: 'sean.obrien@example.com', spamReason: undefined });

    await crm.waitForRequests(1);
    const [request] = crm.requests;
    expect(request?.json).toMatchObject({
      lead_id: id,
      source: LEAD_SOURCES[formId],
      name: "Seán O'Brien",
      email: 'sean.obrien@example.com',
      phone: '+1 (555) 123-4567',
      page_url: body.page_url,
      utm_source: 'newsletter',
      utm_campaign: 'spring',
      gclid: 'abc123',
    });
    expect(request?.json).not.toHaveProperty('website');
    expect(request?.json).not.toHaveProperty('form_shown_at');
    expect(Date.parse(String(request?.json.submitted_at))).not.toBeNaN();
    await waitForState(app, id, 'delivered');
  });

  it('forwards the exact field set of each spec payload (contact form)', async () => {
    const app = await startRelay();
    const { id } = (await postJson(app, validLeadBody('contact'))).json<{ id: string }>();
    await crm.waitForRequests(1);
    expect(Object.keys(crm.requests[0]?.json ?? {}).sort()).toEqual(
      [
        'utm_source',
        'utm_campaign',
        'gclid',
        'name',
        'email',
        'phone',
        'company',
        'service_interest',
        'message',
        'submitted_at',
        'source',
        'page_url',
        'user_agent',
        'referrer',
        'callback_requested',
        'lead_id',
      ].sort(),
    );
    expect(crm.requests[0]?.json).toMatchObject({
      lead_id: id,
      company: '',
      referrer: 'https://www.google.com/',
      user_agent: 'Mozilla/5.0 (test)',
    });
  });

  it('forwards a Microsoft Ads click id (msclkid) as it forwards gclid', async () => {
    const app = await startRelay();
    // The attribution the browser keeps for a visit that landed from a Microsoft Ads click.
    const visit = extractAttribution('http://127.0.0.1:4321/?utm_source=bing&msclkid=MS-7f3a', '');
    const response = await postJson(app, { ...validLeadBody('home'), ...visit });
    expect(response.statusCode).toBe(201);
    await crm.waitForRequests(1);
    expect(crm.requests[0]?.json).toMatchObject({ utm_source: 'bing', msclkid: 'MS-7f3a', gclid: 'abc123' });
  });

  it('recomputes the ROI figures and the revenue bracket from the inputs', async () => {
    const app = await startRelay();
    // A body claiming a bracket and figures of its own: the relay builds them from the inputs alone.
    const body = { ...validLeadBody('roi'), currentRevenue: '30000000', current_revenue_usd: 1, roi_total_savings: 1, roi_percentage: 1 };
    const response = await postJson(app, body);
    expect(response.statusCode).toBe(201);
    await crm.waitForRequests(1);
    // 30,000,000 × 0.15 = 4,500,000; 15 h × 52 × (65,000 / 2,080) × 12 = 292,500.
    expect(crm.requests[0]?.json).toMatchObject({
      currentRevenue: '25M-100M',
      current_revenue_usd: 30_000_000,
      roi_revenue_increase: 4_500_000,
      roi_labor_savings: 292_500,
      roi_total_savings: 4_792_500,
      roi_percentage: 9_485,
      roi_hours_saved_weekly: 15,
      roi_uplift_percentage: 15,
      industry: 'technology',
      teamSize: '12',
    });
  });

  it.each([
    ['teamSize', '1e300', 'Please enter team size'],
    ['averageSalary', '1e300', 'Please enter average salary'],
    ['teamSize', '0x10', 'Please enter team size'],
    ['teamSize', 1e300, 'Please enter team size'],
    ['teamSize', '1000001', 'Team size must be at most 1,000,000'],
    ['averageSalary', '20000000', 'Average salary must be at most $10,000,000'],
    ['currentRevenue', '2000000000000', 'Annual revenue must be at most $1,000,000,000,000'],
  ])('refuses ROI %s %j with a plain message', async (field, value, message) => {
    const app = await startRelay();
    const response = await postJson(app, { ...validLeadBody('roi'), [field]: value });
    expect(response.statusCode).toBe(400);
    const errorField = field;
    expect(response.json()).toEqual({ error: 'validation', fields: { [errorField]: message } });
  });

  it('sends the CRM finite ROI figures for every accepted input, the largest included', async () => {
    const app = await startRelay();
    const largest = { teamSize: '1000000', averageSalary: '10000000', currentRevenue: '1000000000000', manualHours: '20+' };
    const response = await postJson(app, { ...validLeadBody('roi'), ...largest });
    expect(response.statusCode).toBe(201);
    await crm.waitForRequests(1);
    const received = crm.requests[0]!.json;
    const figures = Object.entries(received).filter(([key]) => key.startsWith('roi_') || key === 'current_revenue_usd');
    expect(figures).toHaveLength(7);
    for (const [key, value] of figures) expect(Number.isFinite(value), `${key} = ${String(value)}`).toBe(true);
    expect(received.roi_total_savings).toBe(1000000000000 * 0.15 + 25 * 52 * (10000000 / 2080) * 1000000);
  });

  it('accepts numbers where the forms send text', async () => {
    const app = await startRelay();
    const response = await postJson(app, { ...validLeadBody('roi'), teamSize: 12, averageSalary: 65_000 });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    'Our data: 2 TB of call logs',
    'onboarding=2 weeks',
    'metadata: clean',
    '5 < 6 > 4',
    'O\'Brien & Co. said "yes"',
    'Time: 10:30, ratio 3:1',
  ])('forwards ordinary prose exactly as typed: %j', async (prose) => {
    const app = await startRelay();
    const response = await postJson(app, { ...validLeadBody('contact'), message: `Hello there. ${prose}`, company: prose });
    expect(response.statusCode).toBe(201);
    await crm.waitForRequests(1);
    expect(crm.requests[0]?.json).toMatchObject({ message: `Hello there. ${prose}`, company: prose });
  });

  it('strips dangerous patterns but keeps the visitor’s characters', async () => {
    const app = await startRelay();
    const body = {
      ...validLeadBody('contact'),
      message: 'Hi <script>alert(1)</script>there, see javascript:alert(2) & more',
      company: "O'Brien & Co. <b onclick=x()>",
    };
    const { id } = (await postJson(app, body)).json<{ id: string }>();
    const stored = await app.leadRelay.store.getLead(id);
    expect(stored?.payload).toMatchObject({ message: 'Hi there, see alert(2) & more', company: "O'Brien & Co. <b x()>" });
  });
});

describe('400: {"error":"validation","fields":{…}} with the forms’ messages', () => {
  // A refused post stores nothing, so every case here asks one relay; each still checks that the
  // store is empty afterwards, which a case that stored something would break for the ones after it.
  let shared: { app: FastifyInstance; dir: string } | undefined;
  const relay = async () => {
    if (!shared) {
      const dir = await mkdtemp(path.join(tmpdir(), 'lead-routes-400-'));
      const config = fixtureConfig(fixture.distDir, { LEADS_DB_FILE: path.join(dir, 'leads.sqlite'), LEAD_RATE_LIMIT: '1000' });
      const app = buildApp(config);
      await app.ready();
      shared = { app, dir };
    }
    return shared.app;
  };
  afterAll(async () => {
    if (!shared) return;
    await shared.app.close();
    await rm(shared.dir, { recursive: true, force: true });
  });
  const cases: Array<[string, LeadFormId, Record<string, unknown>, Record<string, string>]> = [
    ['home: short name', 'home', { name: 'A' }, { name: 'Name must be at least 2 characters' }],
    ['home: long name', 'home', { name: 'A'.repeat(101) }, { name: 'Name too long' }],
    ['home: bad email', 'home', { email: 'not-an-email' }, { email: 'Please enter a valid email' }],
    ['home: short phone', 'home', { phone: '12345' }, { phone: 'Please enter a valid phone number' }],
    ['home: long phone', 'home', { phone: '1'.repeat(21) }, { phone: 'Phone number too long' }],
    ['home: short company', 'home', { company: 'A' }, { company: 'Company name required' }],
    ['home: long company', 'home', { company: 'A'.repeat(201) }, { company: 'Company name too long' }],
    ['home: missing name', 'home', { name: undefined }, { name: 'Required' }],
    [
      'roi: every required choice missing',
      'roi',
      { companySize: '', industry: '', manualHours: '', currentRevenue: '', teamSize: '', averageSalary: '' },
      {
        companySize: 'Please select company size',
        currentRevenue: 'Please enter annual revenue',
        industry: 'Please select industry',
        teamSize: 'Please enter team size',
        averageSalary: 'Please enter average salary',
        manualHours: 'Please select manual hours per week',
      },
    ],
    ['roi: bad business email', 'roi', { email: 'x@' }, { email: 'Please enter a valid business email address' }],
    ['roi: phone with letters', 'roi', { phone: '555-CALL-NOW1' }, { phone: 'Please enter a valid phone number' }],
    ['roi: long company', 'roi', { company: 'A'.repeat(151) }, { company: 'Company name too long' }],
    [
      'roi: long challenge',
      'roi',
      { challenge: 'A'.repeat(1001) },
      { challenge: 'Challenge description must be less than 1000 characters' },
    ],
    ['contact: empty message', 'contact', { message: '' }, { message: 'Required' }],
    ['contact: short message', 'contact', { message: 'Hi there' }, { message: 'Message must be at least 10 characters' }],
    ['contact: long message', 'contact', { message: 'A'.repeat(2001) }, { message: 'Message must be 2000 characters or less' }],
    ['contact: no service chosen', 'contact', { service_interest: '' }, { service_interest: 'Required' }],
    ['contact: bad email', 'contact', { email: 'nope' }, { email: 'Invalid email' }],
    ['landing: no revenue', 'landing', { revenue: '' }, { revenue: 'Please select your annual revenue' }],
    ['landing: empty challenge', 'landing', { challenge: '' }, { challenge: 'Required' }],
    ['landing: bad best time', 'landing', { bestTime: 'midnight' }, { bestTime: 'Invalid input' }],
  ];

  it.each(cases)('%s', async (_, formId, overrides, fields) => {
    const app = await relay();
    const response = await postJson(app, { ...validLeadBody(formId), ...overrides });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ error: 'validation', fields });
    expect(await app.leadRelay.store.listLeads()).toEqual([]);
  });

  it.each([
    ['no source', { ...validLeadBody('home'), source: undefined }, { source: 'Required' }],
    ['an unknown source', { ...validLeadBody('home'), source: 'Newsletter Form' }, { source: 'Invalid input' }],
    ['an array', [1, 2], { _form: 'Invalid input' }],
    ['a string', 'hello', { _form: 'Invalid input' }],
    ['null', null, { _form: 'Invalid input' }],
  ])('%s', async (_, body, fields) => {
    const app = await relay();
    const response = await postJson(app, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', fields });
  });

  it.each([
    ['malformed JSON', '{"name": '],
    ['an empty body', ''],
    ['a __proto__ key', '{"__proto__": {"admin": true}, "source": "Contact Page Form"}'],
  ])('%s', async (_, payload) => {
    const app = await relay();
    const response = await app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { host: HOST, 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', fields: { _form: 'Invalid input' } });
  });
});

describe('413, 415, 429', () => {
  it('answers 413 over 16 KiB and stores nothing', async () => {
    const app = await startRelay();
    const body = { ...validLeadBody('contact'), message: 'A'.repeat(LEAD_BODY_LIMIT_BYTES) };
    const response = await postJson(app, body);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'payload_too_large' });
    expect(await app.leadRelay.store.listLeads()).toEqual([]);
  });

  it.each([
    ['text/plain', 'name=x'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
    ['application/xml', '<lead/>'],
  ])('answers 415 to %s', async (contentType, payload) => {
    const app = await startRelay();
    const response = await app.inject({ method: 'POST', url: '/api/leads', headers: { host: HOST, 'content-type': contentType }, payload });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'unsupported_media_type' });
  });

  it('answers 415 to a body without a content type', async () => {
    const app = await startRelay();
    const response = await app.inject({ method: 'POST', url: '/api/leads', headers: { host: HOST }, payload: Buffer.from('{}') });
    expect(response.statusCode).toBe(415);
  });

  it('limits each address to LEAD_RATE_LIMIT posts a minute, with Retry-After', async () => {
    const app = await startRelay({ LEAD_RATE_LIMIT: '2' });
    expect((await postJson(app, validLeadBody('home'))).statusCode).toBe(201);
    expect((await postJson(app, validLeadBody('home'))).statusCode).toBe(201);
    const limited = await postJson(app, validLeadBody('home'));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    const limitedForm = await postForm(app, validLeadBody('home'));
    expect(limitedForm.statusCode).toBe(429);
    expect(limitedForm.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(limitedForm.body).toMatch(/Please wait \d+ seconds before submitting again\./);
    // Another address has its own allowance.
    const other = await app.inject({
      method: 'POST',
      url: '/api/leads',
      remoteAddress: '127.0.0.2',
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: JSON.stringify(validLeadBody('home')),
    });
    expect(other.statusCode).toBe(201);
    expect(await app.leadRelay.store.listLeads()).toHaveLength(3);
  });
});

describe('client addresses behind a proxy (TRUST_PROXY)', () => {
  const fromProxy = (app: FastifyInstance, forwardedFor: string) =>
    app.inject({
      method: 'POST',
      url: '/api/leads',
      remoteAddress: '127.0.0.1',
      headers: { host: HOST, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      payload: JSON.stringify(validLeadBody('home')),
    });

  it('without it, ignores X-Forwarded-For, so a client cannot dodge the limit by sending one', async () => {
    const app = await startRelay({ LEAD_RATE_LIMIT: '1' });
    expect((await fromProxy(app, '203.0.113.1')).statusCode).toBe(201);
    expect((await fromProxy(app, '203.0.113.2')).statusCode).toBe(429);
  });

  it('with it, limits each visitor the proxy forwards for, not the proxy itself', async () => {
    const app = await startRelay({ LEAD_RATE_LIMIT: '1', TRUST_PROXY: 'loopback' });
    expect((await fromProxy(app, '203.0.113.1')).statusCode).toBe(201);
    expect((await fromProxy(app, '203.0.113.2')).statusCode).toBe(201);
    expect((await fromProxy(app, '203.0.113.1')).statusCode).toBe(429);
  });

  it('with a hop count, believes that many proxies and no more', async () => {
    const app = await startRelay({ LEAD_RATE_LIMIT: '1', TRUST_PROXY: '1' });
    // The visitor's own header (a spoofed first entry) is not believed: only the hop the proxy added.
    expect((await fromProxy(app, '198.51.100.9, 203.0.113.1')).statusCode).toBe(201);
    expect((await fromProxy(app, '198.51.100.10, 203.0.113.1')).statusCode).toBe(429);
    expect((await fromProxy(app, '203.0.113.2')).statusCode).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  it('answers a repeat with the first id and stores and forwards nothing new', async () => {
    const app = await startRelay();
    const headers = { 'idempotency-key': 'submission-7f3a' };
    const body = validLeadBody('landing');
    const first = await postJson(app, body, headers);
    const again = await postJson(app, body, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const other = await postJson(app, validLeadBody('landing'), { 'idempotency-key': 'submission-8b2c' });
    expect(other.json<{ id: string }>().id).not.toBe(first.json<{ id: string }>().id);
    expect(await app.leadRelay.store.listLeads()).toHaveLength(2);
    await waitForState(app, first.json<{ id: string }>().id, 'delivered');
    await waitForState(app, other.json<{ id: string }>().id, 'delivered');
    // Closing waits for the outbox's deliveries in flight, so the count below is final.
    await app.close();
    expect(crm.leadIds().sort()).toEqual([first.json<{ id: string }>().id, other.json<{ id: string }>().id].sort());
  });
});

describe('Idempotency-Key reused or still in flight: refused, never dropped silently', () => {
  it('answers 422 with a plain message when the key comes with a different body, and stores nothing', async () => {
    const app = await startRelay();
    const headers = { 'idempotency-key': 'submission-reused' };
    const body = validLeadBody('home');
    const first = await postJson(app, body, headers);
    expect(first.statusCode).toBe(201);
    const other = await postJson(app, { ...body, name: 'Another Person', email: 'another@example.com' }, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      error: 'idempotency_key_reused',
      message: 'This Idempotency-Key was already used for a different submission. Send each new submission with a new key.',
    });
    const stored = await app.leadRelay.store.listLeads();
    expect(stored.map((lead) => lead.id)).toEqual([first.json<{ id: string }>().id]);
    // The same submission sent again still gets its first answer.
    const again = await postJson(app, body, headers);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
  });

  it('answers 409 with Retry-After while a request with the same key is still being stored', async () => {
    const app = await startRelay();
    const store = app.leadRelay.store;
    const insertLead = store.insertLead.bind(store);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reachedStore: () => void = () => undefined;
    const storing = new Promise<void>((resolve) => (reachedStore = resolve));
    store.insertLead = async (lead) => {
      reachedStore();
      await held;
      return insertLead(lead);
    };
    const headers = { 'idempotency-key': 'submission-in-flight' };
    const body = validLeadBody('contact');
    const first = postJson(app, body, headers);
    await storing;
    const second = await postJson(app, body, headers);
    expect(second.statusCode).toBe(409);
    expect(second.headers['retry-after']).toBe('1');
    expect(second.json()).toMatchObject({ error: 'idempotency_key_in_flight' });
    release();
    expect((await first).statusCode).toBe(201);
    // Once the first has its answer, a repeat gets the same answer.
    const third = await postJson(app, body, headers);
    expect(third.json()).toEqual((await first).json());
    expect(await app.leadRelay.store.listLeads()).toHaveLength(1);
  });
});

describe('503 with Retry-After when the store is locked by another process', () => {
  it('answers 503 after the busy wait, then stores the same submission once the lock is gone', { timeout: 20_000 }, async () => {
    const file = path.join(workDir, 'locked.sqlite');
    // Held mode: no outbox polling the store, so the lead's insert is the only thing that waits.
    const logLines: string[] = [];
    const config = fixtureConfig(fixture.distDir, {
      LEADS_DB_FILE: file,
      CRM_WEBHOOK_URL: '',
      LOG_LEVEL: 'warn',
      SITE_URL: 'https://www.example.com',
    });
    const app = buildApp(config, { logStream: { write: (line) => void logLines.push(line) } });
    apps.push(app);
    await app.ready();
    // Another process (a CLI command, a second server) holding SQLite's write lock.
    const other = new DatabaseSync(file);
    other.exec('BEGIN IMMEDIATE');
    const body = validLeadBody('home');
    const headers = { 'idempotency-key': 'locked-submission' };
    const refused = await postJson(app, body, headers);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.json()).toEqual({
      error: 'store_unavailable',
      message: 'Your details were not saved yet. Please try again in a moment.',
    });
    // The operator reads why in the log.
    const entries = logLines.map((line) => JSON.parse(line) as { level: number; outcome?: string; msg: string });
    expect(entries.find((entry) => entry.outcome === 'store_unavailable')).toMatchObject({
      level: 40,
      msg: expect.stringContaining('answered 503 with Retry-After'),
    });
    other.exec('ROLLBACK');
    other.close();
    // The browser sends the same submission again after Retry-After: now it is stored, once.
    const stored = await postJson(app, body, headers);
    expect(stored.statusCode).toBe(201);
    expect(await app.leadRelay.store.listLeads()).toHaveLength(1);
  });
});

describe('spam: answered like a success, stored flagged, never forwarded', () => {
  it.each([
    ['a filled honeypot', { website: 'http://cheap-pills.example' }, 'honeypot'],
    [
      'a form sent 0.5 s after it was shown, with a web address in the name',
      {
        form_shown_at: Date.parse('2025-01-15T09:00:00Z') - 500,
        submitted_at: '2025-01-15T09:00:00.000Z',
        name: 'Ana https://pills.example',
      },
      'too_fast,links',
    ],
    ['a filled honeypot with invalid fields', { website: 'x', email: 'not-an-email', name: '' }, 'honeypot'],
  ])('%s', async (_, overrides, reason) => {
    const app = await startRelay();
    const response = await postJson(app, { ...validLeadBody('home'), ...overrides });
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: string }>();
    expect(await app.leadRelay.store.getLead(id)).toMatchObject({ state: 'spam', spamReason: reason });
    // A real lead sent after it is delivered; the outbox works oldest first, so had the spam been
    // due it would have gone before. Closing waits for deliveries in flight: the list is final.
    const real = (await postJson(app, validLeadBody('contact'))).json<{ id: string }>();
    await waitForState(app, real.id, 'delivered');
    await app.close();
    expect(crm.leadIds()).toEqual([real.id]);
  });

  it.each([
    [
      'sent 3 s after it was shown',
      { form_shown_at: Date.parse('2025-01-15T09:00:00Z') - 3_000, submitted_at: '2025-01-15T09:00:00.000Z' },
    ],
    ['posted without JavaScript (no form_shown_at)', { form_shown_at: undefined }],
    // Autofill fills every field at once: too fast is a weak signal, and alone it never makes spam.
    [
      'sent 0.5 s after it was shown, as autofill does',
      { form_shown_at: Date.parse('2025-01-15T09:00:00Z') - 500, submitted_at: '2025-01-15T09:00:00.000Z' },
    ],
    ['holding a web address in the company name', { company: 'https://lima.example' }],
  ])('a form %s is a real lead', async (_, overrides) => {
    const app = await startRelay();
    const { id } = (await postJson(app, { ...validLeadBody('home'), ...overrides })).json<{ id: string }>();
    await waitForState(app, id, 'delivered');
  });
});

describe('Origin check', () => {
  it.each([
    ['the Host it was sent to', 201, { origin: `http://${HOST}` }],
    ['SITE_URL', 201, { origin: 'https://www.example.com' }],
    ['no Origin header (non-browser client)', 201, {}],
    ['same-origin fetch metadata', 201, { origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' }],
    ['another site', 403, { origin: 'https://evil.example' }],
    ['a look-alike host', 403, { origin: 'http://127.0.0.1:4321.evil.example' }],
    ['Origin: null', 403, { origin: 'null' }],
    ['cross-site fetch metadata without Origin', 403, { 'sec-fetch-site': 'cross-site' }],
  ])('a post from %s answers %i', async (_, status, headers) => {
    const app = await startRelay();
    const response = await postForm(app, validLeadBody('home'), headers as Record<string, string>);
    expect(response.statusCode).toBe(status === 201 ? 303 : status);
    if (status === 403) {
      expect(response.json()).toEqual({ error: 'forbidden_origin' });
      expect(await app.leadRelay.store.listLeads()).toEqual([]);
    }
  });
});

describe('forms posted without JavaScript (application/x-www-form-urlencoded)', () => {
  it('redirects to /thankyou with 303 once stored', async () => {
    const app = await startRelay();
    const { form_shown_at: _, ...fields } = validLeadBody('landing');
    const response = await postForm(app, fields, { origin: `http://${HOST}` });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/thankyou');
    const [lead] = await app.leadRelay.store.listLeads();
    expect(lead?.payload).toMatchObject({ name: "Seán O'Brien", company: 'Smith & Sons', revenue: '1m-5m' });
  });

  it('reads a typed ROI revenue amount and recomputes from it', async () => {
    const app = await startRelay();
    const response = await postForm(app, { ...validLeadBody('roi'), currentRevenue: '7500000' });
    expect(response.statusCode).toBe(303);
    const [lead] = await app.leadRelay.store.listLeads();
    expect(lead?.payload).toMatchObject({ currentRevenue: '5M-10M', current_revenue_usd: 7_500_000, roi_revenue_increase: 1_125_000 });
  });

  it('answers errors with an HTML page listing each field, escaped, with a link back', async () => {
    const app = await startRelay();
    const response = await postForm(
      app,
      { ...validLeadBody('contact'), name: '', email: '<img src=x onerror=alert(1)>', message: 'short' },
      { referer: `http://${HOST}/contact?utm_source=x` },
    );
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<li><strong>Full Name:</strong> Required</li>');
    expect(response.body).toContain('<li><strong>Email:</strong> Invalid email</li>');
    expect(response.body).toContain('<li><strong>Message:</strong> Message must be at least 10 characters</li>');
    expect(response.body).toContain('<a href="/contact?utm_source=x">Back to the form</a>');
    expect(response.body).not.toContain('<img');
  });

  it('links back to the form’s own page when the Referer is another site', async () => {
    const app = await startRelay();
    const response = await postForm(app, { ...validLeadBody('roi'), email: 'x' }, { referer: 'https://evil.example/"><script>' });
    expect(response.body).toContain('<a href="/calculator">Back to the form</a>');
    expect(response.body).toContain('<strong>Business Email:</strong> Please enter a valid business email address');
  });

  it.each([
    `http://${HOST}//evil.example/calculator`,
    `http://${HOST}/\\evil.example/calculator`,
    `http://${HOST}/%2F/evil.example`,
    `http://${HOST}///evil.example`,
  ])('never links off-site from a same-host Referer whose path is really another host: %s', async (referer) => {
    const app = await startRelay();
    const response = await postForm(app, { ...validLeadBody('roi'), email: 'x' }, { referer });
    const href = /<a href="([^"]*)">Back to the form<\/a>/.exec(response.body)?.[1];
    expect(href).toBeDefined();
    expect(new URL(href!.replaceAll('&amp;', '&'), `http://${HOST}/`).host).toBe(HOST);
  });

  it('links back to the page the form was posted from on this site', async () => {
    const app = await startRelay();
    const response = await postForm(app, { ...validLeadBody('roi'), email: 'x' }, { referer: `http://${HOST}/calculator?utm_source=x` });
    expect(response.body).toContain('<a href="/calculator?utm_source=x">Back to the form</a>');
  });
});

describe('held mode (no CRM_WEBHOOK_URL)', () => {
  it('keeps leads as held, then forwards them once a URL is set and the server restarts', async () => {
    const held = await startRelay({ CRM_WEBHOOK_URL: '' });
    const { id } = (await postJson(held, validLeadBody('home'))).json<{ id: string }>();
    expect(await held.leadRelay.store.getLead(id)).toMatchObject({ state: 'held' });
    // Without a CRM URL there is no outbox at all: nothing can be sent.
    expect(held.leadRelay.outbox).toBeUndefined();
    await held.close();
    expect(crm.requests).toHaveLength(0);

    const forwarding = await startRelay();
    await waitForState(forwarding, id, 'delivered');
    expect(crm.leadIds()).toEqual([id]);
  });

  it("holds the CRM's follow-up events with the leads, and sends them, after their lead, once a URL is set", async () => {
    const held = await startRelay({ CRM_WEBHOOK_URL: '' });
    const { id } = (await postJson(held, validLeadBody('home'))).json<{ id: string }>();
    const at = Date.now();
    const { store } = held.leadRelay;
    // One written while no URL was set, one by a process that still had one: both must wait.
    await store.enqueueCrmEvents([ownerChangedEvent({ leadId: id, at, ownerEmail: 'bo@example.com', previousOwnerEmail: undefined })], {
      held: true,
    });
    await held.close();
    const stillForwarding = await startRelay({ CRM_WEBHOOK_URL: '' });
    await stillForwarding.leadRelay.store.enqueueCrmEvents(
      [statusChangedEvent({ leadId: id, at: at + 1, status: 'contacted', previousStatus: 'new', lostReason: undefined })],
      { held: false },
    );
    await stillForwarding.close();
    const restarted = await startRelay({ CRM_WEBHOOK_URL: '' });
    expect((await restarted.leadRelay.store.listCrmEvents(id)).map((event) => event.state)).toEqual(['held', 'held']);
    await sleep(100);
    await restarted.close();
    expect(crm.requests).toHaveLength(0);

    const forwarding = await startRelay();
    await crm.waitForRequests(3);
    expect(crm.requests.map((request) => request.headers['x-lead-event'] ?? 'lead')).toEqual(['lead', 'owner_changed', 'status_changed']);
    expect(crm.leadIds()).toEqual([id, id, id]);
    const deadline = Date.now() + 5_000;
    while ((await forwarding.leadRelay.store.listCrmEvents(id)).some((event) => event.state !== 'sent') && Date.now() < deadline)
      await sleep(20);
    expect((await forwarding.leadRelay.store.listCrmEvents(id)).map((event) => event.state)).toEqual(['sent', 'sent']);
  });
});

describe('/healthz', () => {
  it('reports the lead store', async () => {
    const app = await startRelay();
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    await app.leadRelay.store.close();
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', failing: ['lead-store'] });
  });
});

/** A form post carries text only; objects (fast-check also makes null-prototype ones) travel as their JSON. */
function asFormValue(field: unknown): string {
  return typeof field === 'object' && field !== null ? JSON.stringify(field) : String(field);
}

// Hostile texts this long fit several to a body under the 16 KiB limit.
const HOSTILE_TEXT_LENGTH = 3_000;
// No answer may hold the server's only thread longer than this, whatever the body.
const ANSWER_BUDGET_MS = 250;

describe('property: no body ever produces a 5xx or a slow answer', () => {
  it('holds for arbitrary JSON, form and raw bodies', async () => {
    const app = await startRelay({ CRM_WEBHOOK_URL: '', LEADS_DB_FILE: ':memory:', LEAD_RATE_LIMIT: '1000000' });
    const fieldNames = [...new Set(LEAD_FORM_IDS.flatMap((formId) => Object.keys(validLeadBody(formId)))), '__proto__', 'constructor'];
    // The sanitiser's worst cases ride along as field values, so a slow path shows up as a timeout here too.
    const hostile = fc.constantFrom(...hostileTexts(HOSTILE_TEXT_LENGTH).map(([, text]) => text));
    const fieldValue = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue(), hostile);
    const leadLike = fc.dictionary(fc.constantFrom(...fieldNames), fieldValue);
    const withSource = fc
      .tuple(leadLike, fc.constantFrom(...Object.values(LEAD_SOURCES)))
      .map(([fields, source]) => ({ ...fields, source }));
    const mutatedValid = fc
      .tuple(fc.constantFrom(...LEAD_FORM_IDS), leadLike)
      .map(([formId, overrides]) => ({ ...validLeadBody(formId), ...overrides }));
    const body = fc.oneof(
      fc.jsonValue().map((value) => ({ type: 'application/json', payload: JSON.stringify(value) ?? 'null' })),
      fc.oneof(withSource, mutatedValid).map((value) => ({ type: 'application/json', payload: JSON.stringify(value) })),
      fc.oneof(withSource, mutatedValid).map((value) => ({
        type: FORM,
        payload: new URLSearchParams(Object.entries(value).map(([key, field]) => [key, asFormValue(field)])).toString(),
      })),
      fc
        .tuple(fc.constantFrom('application/json', FORM, 'text/plain', 'application/json; charset=latin1'), fc.string())
        .map(([type, payload]) => ({ type, payload })),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.option(fc.string(), { nil: undefined }), async ({ type, payload }, idempotencyKey) => {
        const headers: Record<string, string> = { host: HOST, 'content-type': type };
        if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
        const started = performance.now();
        const response = await app.inject({ method: 'POST', url: '/api/leads', headers, payload });
        expect(response.statusCode).toBeLessThan(500);
        expect(performance.now() - started).toBeLessThan(ANSWER_BUDGET_MS);
      }),
      { numRuns: 300 },
    );
  });
});
