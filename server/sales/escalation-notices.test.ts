import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WorkingWindow } from '../../lead/sales.ts';
import { buildApp } from '../app.ts';
import { hashPassword } from '../../back-office/accounts/passwords.ts';
import { startCrmReceiver, type CrmReceiver } from '../testing/crm-receiver.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from '../testing/site-fixture.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../testing/smtp-receiver.ts';

// The escalation ladder end to end: the real app on a SQLite file, a real SMTP server and a webhook
// receiver on 127.0.0.1, and a fake clock the test moves forward. Nobody calls the lead: at 5
// minutes its owner gets one e-mail (not the NOTIFY_TO list) and the webhook one message; a restart
// sends neither again; at 15 the whole sales team gets one e-mail; at 60 the lead moves to the other
// person, who is told. A logged call on another lead keeps it off the ladder.

const MINUTE = 60_000;
const HOST = '127.0.0.1:4321';
const ALL_WEEK: WorkingWindow[] = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 }));

let fixture: SiteFixture;
let workDir: string;
let hook: CrmReceiver;
let smtp: SmtpReceiver;
let offsetMs = 0;
const apps = new Set<FastifyInstance>();
const now = () => Date.now() + offsetMs;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(async () => {
  await fixture.remove();
});
beforeEach(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'escalation-'));
  [hook, smtp] = await Promise.all([startCrmReceiver(), startSmtpReceiver()]);
  offsetMs = 0;
});
afterEach(async () => {
  for (const app of apps) await app.close();
  apps.clear();
  await Promise.all([hook.close(), smtp.close()]);
  await rm(workDir, { recursive: true, force: true });
});

async function startServer(): Promise<FastifyInstance> {
  const config = fixtureConfig(fixture.distDir, {
    LEADS_DB_FILE: path.join(workDir, 'leads.sqlite'),
    LEAD_RATE_LIMIT: '1000',
    SITE_URL: 'https://www.example.com',
    SMTP_URL: smtp.url,
    NOTIFY_TO: 'office@example.com',
    ALERT_WEBHOOK_URL: hook.url,
  });
  const app = buildApp(config, {
    notifyTuning: { now, pollIntervalMs: 20, sendTimeoutMs: 1_000, leaseMs: 60 * MINUTE },
    salesTuning: { now, siteHours: { timeZone: 'UTC', windows: [] }, sweepIntervalMs: 20, escalateIntervalMs: 20 },
  });
  apps.add(app);
  await app.ready();
  return app;
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Enough real time for many passes of every loop: nothing more arrives after it. */
const settle = () => sleep(400);

/** The ladder's mails (the new-lead e-mail to NOTIFY_TO is another matter). */
const ladderMails = () => smtp.mails.filter((mail) => !mail.to.includes('office@example.com'));

describe('the escalation ladder, with a real mail server and webhook', () => {
  it('tells the owner once, then the team once, then hands the lead on, across a restart', async () => {
    let app = await startServer();
    const store = app.leadRelay.store;
    const passwordHash = await hashPassword('correct horse battery staple');
    for (const email of ['ana@example.com', 'bo@example.com']) {
      const created = await store.createAccount({ email, role: 'sales', passwordHash, now: now() });
      if (created.kind !== 'created') throw new Error('account exists');
      await store.setAvailability({ accountId: created.account.id, timeZone: 'UTC', windows: ALL_WEEK, away: false }, now(), undefined);
    }
    const response = await app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...validLeadBody('contact'), email: 'waiting@acme.example' }),
    });
    expect(response.statusCode).toBe(201);
    const leadId = response.json<{ id: string }>().id;
    await waitFor(async () => (await store.findLeadSales(leadId))?.ownerId !== undefined, 'an owner');
    const ownerId = (await store.findLeadSales(leadId))!.ownerId!;
    const owner = (await store.listAccounts()).find((account) => account.id === ownerId)!.email;
    const other = owner === 'ana@example.com' ? 'bo@example.com' : 'ana@example.com';

    offsetMs = 4 * MINUTE;
    await settle();
    expect(ladderMails()).toEqual([]);
    expect(hook.received()).toBe(0);

    offsetMs = 5 * MINUTE + 1_000;
    await waitFor(() => ladderMails().length === 1 && hook.received() === 1, 'the owner told');
    expect(ladderMails()[0]!.to).toEqual([owner]);
    expect(ladderMails()[0]!.subject).toContain('waited 5 minutes');
    expect(ladderMails()[0]!.text).toContain(`https://www.example.com/console/leads/${leadId}`);
    expect(String(hook.requests[0]!.json.text)).toContain('A lead has waited 5 minutes for a call');

    // A restart in the middle of the ladder sends nothing twice.
    await app.close();
    apps.delete(app);
    app = await startServer();
    await settle();
    expect(ladderMails()).toHaveLength(1);
    expect(hook.received()).toBe(1);

    offsetMs = 15 * MINUTE + 1_000;
    await waitFor(() => ladderMails().length === 2 && hook.received() === 2, 'the team told');
    expect([...ladderMails()[1]!.to].sort()).toEqual(['ana@example.com', 'bo@example.com']);

    offsetMs = 60 * MINUTE + 1_000;
    await waitFor(() => ladderMails().length === 3 && hook.received() === 3, 'the lead handed on');
    expect(ladderMails()[2]!.to).toEqual([other]);
    expect(ladderMails()[2]!.subject).toContain('now yours');
    expect((await app.leadRelay.store.findLeadSales(leadId))!.ownerId).not.toBe(ownerId);

    offsetMs = 120 * MINUTE;
    await settle();
    expect(ladderMails()).toHaveLength(3);
    expect(hook.received()).toBe(3);
  }, 30_000);
});
