import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LEAD_SOURCES } from '../../lead/rules.ts';
import type { LeadFormId } from '../../lead/rules.ts';
import { buildApp } from '../app.ts';
import type { Environment } from '../config.ts';
import { OK_REPLY, startCrmReceiver } from '../testing/crm-receiver.ts';
import type { CrmReceiver } from '../testing/crm-receiver.ts';
import { validLeadBody, VALID_VALUES } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig } from '../testing/site-fixture.ts';
import type { SiteFixture } from '../testing/site-fixture.ts';
import { SMTP_TEST_USER, startSmtpReceiver } from '../testing/smtp-receiver.ts';
import type { SmtpReceiver } from '../testing/smtp-receiver.ts';

// Notifications end to end: the real app (buildApp + inject) on a SQLite file, the local CRM
// receiver, a real SMTP server and a webhook receiver on 127.0.0.1. Time is fake: the outbox and the
// notifier read one clock the test moves forward a minute at a time, so "the CRM down for 20 minutes"
// takes a second. Two apps on one file stand in for two server processes.

const MINUTE = 60_000;
const HOST = '127.0.0.1:4321';
const SITE_URL = 'https://www.example.com';
const PERSON = VALID_VALUES.home;

let fixture: SiteFixture;
let workDir: string;
let crm: CrmReceiver;
let hook: CrmReceiver;
let smtp: SmtpReceiver;
let offsetMs = 0;
let logLines: string[] = [];
const apps = new Set<FastifyInstance>();
const now = () => Date.now() + offsetMs;

beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(async () => {
  await fixture.remove();
});
beforeEach(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'notify-'));
  [crm, hook, smtp] = await Promise.all([startCrmReceiver(), startCrmReceiver(), startSmtpReceiver()]);
  offsetMs = 0;
  logLines = [];
});
afterEach(async () => {
  await Promise.all([...apps].map((app) => app.close()));
  apps.clear();
  await Promise.all([crm.close(), hook.close(), smtp.close()]);
  await rm(workDir, { recursive: true, force: true });
  // No log line carries the visitor's address or phone number, or the SMTP password.
  const log = logLines.join('');
  for (const secret of [PERSON.email, '123-4567', '5551234567', SMTP_TEST_USER.pass]) expect(log).not.toContain(secret);
  // The notifier stops before the store closes: no pass fails on a closed store, at a restart or at the end.
  expect(log).not.toContain('notifier: could not');
});

async function startServer(env: Environment = {}): Promise<FastifyInstance> {
  const config = fixtureConfig(fixture.distDir, {
    LEADS_DB_FILE: path.join(workDir, 'leads.sqlite'),
    CRM_WEBHOOK_URL: crm.url,
    // A retry a minute of fake time, for longer than any test runs.
    CRM_RETRY_DELAYS_MS: Array.from({ length: 60 }, () => String(MINUTE)).join(','),
    LEAD_RATE_LIMIT: '1000',
    SITE_URL,
    SMTP_URL: smtp.url,
    NOTIFY_TO: 'sales@example.com, owner@example.com',
    ALERT_WEBHOOK_URL: hook.url,
    ALERT_AFTER_MINUTES: '15',
    LOG_LEVEL: 'debug',
    ...env,
  });
  const app = buildApp(config, {
    relayTuning: { pollIntervalMs: 20, crmTimeoutMs: 1_000, now, random: () => 0.5, leaseMs: 60 * MINUTE },
    // The fake clock jumps a minute at a time, faster than a real send: leases are long enough that
    // no jump makes a send in flight look abandoned (in real time a lease outlives every send timeout).
    notifyTuning: { now, pollIntervalMs: 20, retryDelaysMs: [MINUTE], sendTimeoutMs: 1_000, leaseMs: 60 * MINUTE },
    logStream: { write: (line) => logLines.push(line) },
  });
  apps.add(app);
  await app.ready();
  return app;
}

async function stopServer(app: FastifyInstance): Promise<void> {
  apps.delete(app);
  await app.close();
}

async function postLead(app: FastifyInstance, formId: LeadFormId = 'home', extra: Record<string, unknown> = {}): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/leads',
    headers: { host: HOST, 'content-type': 'application/json' },
    payload: JSON.stringify({ ...validLeadBody(formId), ...extra }),
  });
  expect(response.statusCode).toBe(201);
  return (response.json() as { id: string }).id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

// Enough real time for many passes of every loop (each polls every 20 ms): nothing more arrives after it.
const settle = () => sleep(400);

const subjects = () => smtp.mails.map((mail) => mail.subject);
const hookTexts = () => hook.requests.map((request) => String(request.json.text));

describe('new-lead e-mail', () => {
  it('sends one e-mail per lead to every NOTIFY_TO address, with the summary and the console link; a restart sends nothing again', async () => {
    const app = await startServer();
    const id = await postLead(app);
    await smtp.waitForMails(1);
    await settle();
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail?.to).toEqual(['sales@example.com', 'owner@example.com']);
    expect(mail?.from).toBe('no-reply@www.example.com');
    expect(mail?.subject).toBe(`New lead: ${PERSON.name} (${PERSON.company}) via ${LEAD_SOURCES.home}`);
    expect(mail?.text).toContain(`Name:     ${PERSON.name}`);
    expect(mail?.text).toContain(`E-mail:   ${PERSON.email}`);
    expect(mail?.text).toContain(`${SITE_URL}/console/leads/${id}`);
    expect(mail?.html).toContain('Smith &amp; Sons');
    expect(mail?.html).toContain(`href="${SITE_URL}/console/leads/${id}"`);
    // Delivered to the CRM at once: nothing to alert about.
    expect(hook.requests).toEqual([]);

    await stopServer(app);
    const restarted = await startServer();
    await settle();
    expect(smtp.mails).toHaveLength(1);
    expect(await restarted.notifier.openIncident()).toBeUndefined();
  });

  it('never e-mails about spam, nor about a form whose new-lead e-mail is switched off', async () => {
    const app = await startServer();
    expect(await app.notifier.setFormEmail(LEAD_SOURCES.contact, false)).toBe(true);
    expect(await app.notifier.setFormEmail('No Such Form', false)).toBe(false);
    await postLead(app, 'home', { website: 'https://spam.example' });
    await postLead(app, 'contact');
    const wanted = await postLead(app, 'roi');
    await smtp.waitForMails(1);
    await settle();
    expect(smtp.mails.map((mail) => mail.text.includes(wanted))).toEqual([true]);

    // The switch is in the store: another process reads the same settings.
    const other = await startServer();
    const settings = await other.notifier.settings();
    expect(settings).toMatchObject({ email: true, webhook: true, alertAfterMinutes: 15 });
    expect(settings.forms).toContainEqual({ form: LEAD_SOURCES.contact, newLeadEmail: false });
    expect(settings.forms).toContainEqual({ form: LEAD_SOURCES.home, newLeadEmail: true });
    expect(settings.forms).toHaveLength(Object.keys(LEAD_SOURCES).length);
  });
});

describe('alerts', () => {
  it('alerts once, by e-mail and webhook, when a lead fails for good', async () => {
    crm.respond = () => ({ status: 410, body: 'gone' });
    const app = await startServer();
    const id = await postLead(app);
    await waitFor(() => hook.requests.length >= 1 && smtp.mails.length >= 2, 'alert');
    await settle();
    // Two events, each its own e-mail, sent side by side: which arrives first is not promised.
    expect([...subjects()].sort()).toEqual(
      [
        `New lead: ${PERSON.name} (${PERSON.company}) via ${LEAD_SOURCES.home}`,
        `Alert: a lead from the ${LEAD_SOURCES.home} could not be delivered to the CRM`,
      ].sort(),
    );
    expect(hookTexts()).toHaveLength(1);
    expect(hookTexts()[0]).toContain(`${SITE_URL}/console/leads/${id}`);
    expect(hookTexts()[0]).toContain('Last answer: HTTP 410');
    // Alerts may go to a chat channel: they name no person.
    expect(hookTexts()[0]).not.toContain(PERSON.email);
    expect(hookTexts()[0]).not.toContain(PERSON.name);
  });

  it('alerts when the CRM takes a lead only as a test', async () => {
    crm.respond = () => ({ status: 200, body: 'Success: test request received' });
    const app = await startServer();
    await postLead(app);
    await waitFor(() => hook.requests.length >= 1, 'test-only alert');
    await settle();
    expect(hookTexts()).toHaveLength(1);
    expect(hookTexts()[0]).toContain('only as a test');
  });

  it('sends one incident alert and one recovery notice for a CRM down 20 minutes, from two processes and across a restart', async () => {
    crm.respond = () => ({ status: 500, body: 'down' });
    const first = await startServer();
    let second = await startServer();
    const id = await postLead(first);
    // Each attempt is recorded (with its next try a minute on) before the clock moves again.
    const attemptRecorded = async (count: number) => {
      await crm.waitForRequests(count);
      await waitFor(async () => (await first.leadRelay.store.listAttempts(id)).length >= count, `attempt ${count} recorded`);
    };
    await attemptRecorded(1);

    for (let minute = 1; minute <= 20; minute += 1) {
      const before = crm.received();
      offsetMs += MINUTE;
      await attemptRecorded(before + 1);
      if (minute === 14) {
        await settle();
        expect(hook.requests).toEqual([]);
      }
      if (minute === 15) await waitFor(() => hook.requests.length >= 1, 'incident alert');
      if (minute === 16) {
        expect(await second.notifier.openIncident()).toMatchObject({ lastError: 'HTTP 500' });
        // A restart in the middle of the incident.
        await stopServer(second);
        second = await startServer();
      }
    }
    await settle();
    expect(hookTexts()).toHaveLength(1);
    expect(hookTexts()[0]).toContain('no lead has reached the CRM for 15 minutes');
    expect(subjects().filter((subject) => subject.startsWith('Alert:'))).toEqual(['Alert: no lead has reached the CRM for 15 minutes']);

    crm.respond = () => OK_REPLY;
    offsetMs += MINUTE;
    await waitFor(() => hook.requests.length >= 2, 'recovery notice');
    await settle();
    expect(hookTexts()).toHaveLength(2);
    expect(hookTexts()[1]).toContain('Recovered: leads reach the CRM again');
    expect(subjects()).toEqual([
      `New lead: ${PERSON.name} (${PERSON.company}) via ${LEAD_SOURCES.home}`,
      'Alert: no lead has reached the CRM for 15 minutes',
      'Recovered: leads reach the CRM again',
    ]);
    expect(await first.notifier.openIncident()).toBeUndefined();
  });
});

describe('a broken mail server', () => {
  it('never delays taking a lead while a send hangs', async () => {
    const sockets = new Set<Socket>();
    // Accepts connections and never says a word: the worst SMTP server, stuck before its greeting.
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const app = await startServer({ SMTP_URL: `smtp://127.0.0.1:${port}` });
      await postLead(app);
      await waitFor(() => sockets.size > 0, 'a connection to the silent SMTP server');
      for (let index = 0; index < 10; index += 1) {
        const startedAt = performance.now();
        await postLead(app);
        // Generous for a busy shared machine; a lead waiting on the mail server would take its full timeout.
        expect(performance.now() - startedAt).toBeLessThan(500);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('retries a refused e-mail on its schedule, then gives up and logs it', async () => {
    smtp.refusing = true;
    const app = await startServer();
    await postLead(app);
    const notifications = () => app.leadRelay.store.listNotifications();
    await waitFor(async () => (await notifications())[0]?.attempts === 1, 'first try');
    expect((await notifications())[0]).toMatchObject({ state: 'pending', kind: 'new-lead' });
    expect((await notifications())[0]?.lastError).toMatch(/451/);
    offsetMs += MINUTE;
    await waitFor(async () => (await notifications())[0]?.state === 'given-up', 'given up');
    expect((await notifications())[0]?.attempts).toBe(2);
    expect(logLines.some((line) => line.includes('notification given up after its last try'))).toBe(true);
  });
});

describe('test notification', () => {
  it('sends to every configured channel at once and says how each went', async () => {
    const app = await startServer();
    expect(await app.notifier.sendTest()).toEqual({
      channels: [
        { channel: 'email', ok: true, error: null },
        { channel: 'webhook', ok: true, error: null },
      ],
    });
    expect(subjects()).toEqual(['Test notification from the lead console']);
    expect(hookTexts()[0]).toContain('Test notification');

    smtp.refusing = true;
    hook.respond = () => ({ status: 500 });
    const failed = await app.notifier.sendTest();
    expect(failed.channels.map((channel) => channel.ok)).toEqual([false, false]);
    expect(failed.channels[1]?.error).toBe('the webhook answered HTTP 500');
    expect(JSON.stringify(failed)).not.toContain(SMTP_TEST_USER.pass);
  });

  it('does nothing without any channel, and says so once at start', async () => {
    const app = await startServer({ SMTP_URL: '', NOTIFY_TO: '', ALERT_WEBHOOK_URL: '' });
    await postLead(app);
    await settle();
    expect(await app.notifier.sendTest()).toEqual({ channels: [] });
    expect(await app.leadRelay.store.listNotifications()).toEqual([]);
    expect(logLines.filter((line) => line.includes('notifications are off'))).toHaveLength(1);
  });
});
