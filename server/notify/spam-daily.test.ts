import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadQuery } from '../console/lead-view.ts';
import type { Database } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { startCrmReceiver } from '../testing/crm-receiver.ts';
import type { CrmReceiver } from '../testing/crm-receiver.ts';
import { startSmtpReceiver } from '../testing/smtp-receiver.ts';
import type { SmtpReceiver } from '../testing/smtp-receiver.ts';
import { announceSkip, STORE_HARNESSES } from '../testing/store-harness.ts';
import type { StoreDatabase } from '../testing/store-harness.ts';
import { createNotifier } from './notifier.ts';
import type { Notifier } from './notifier.ts';

// The daily count of spam, on every store kind: two notifiers on one database stand in for two
// server processes, a third for a restart. The clock is fake and set by the test.

const SITE_URL = 'https://www.example.com';
const DAY = 24 * 60 * 60_000;
const NOV_27 = Date.UTC(2026, 10, 27);
const NOV_28 = NOV_27 + DAY;
const silentLog = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

let sequence = 0;
function lead(receivedAt: number, spam: boolean): NewLead {
  sequence += 1;
  const id = `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
  return {
    id,
    receivedAt,
    source: 'Homepage Simple Lead Form',
    email: `person${sequence}@example.com`,
    payload: { name: `Person ${sequence}`, email: `person${sequence}@example.com`, lead_id: id },
    spamReason: spam ? 'honeypot' : undefined,
    initialState: spam ? 'spam' : 'held',
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Many passes of each notifier (each polls every 20 ms): nothing more arrives after it.
const settle = () => sleep(300);

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`the daily spam count: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let hook: CrmReceiver;
    let smtp: SmtpReceiver;
    let clock = 0;
    const notifiers: Notifier[] = [];

    beforeEach(async () => {
      database = await harness.createDatabase();
      [hook, smtp] = await Promise.all([startCrmReceiver(), startSmtpReceiver()]);
    });
    afterEach(async () => {
      await Promise.all(notifiers.splice(0).map((notifier) => notifier.stop()));
      await Promise.all([hook.close(), smtp.close()]);
      await database.remove();
    });

    async function startNotifier(store: Database): Promise<Notifier> {
      const notifier = createNotifier({
        store,
        config: {
          smtpUrl: smtp.url,
          smtpAllowPlaintext: false,
          notifyTo: ['sales@example.com'],
          notifyFrom: 'Lead console <no-reply@www.example.com>',
          alertAfterMinutes: 15,
          alertWebhookUrl: hook.url,
          siteUrl: SITE_URL,
          host: '127.0.0.1',
          port: 4321,
        },
        log: silentLog,
        now: () => clock,
        pollIntervalMs: 20,
        sendTimeoutMs: 2_000,
      });
      notifiers.push(notifier);
      notifier.start();
      return notifier;
    }

    it("sends one count of yesterday's spam per channel, with the Spam view of that day, once across processes and restarts", async () => {
      const store = await database.open();
      // Three spam on Fri 27 Nov (its first and last millisecond included), a real lead that day, spam the day before.
      for (const [at, spam] of [
        [NOV_27, true],
        [NOV_27 + 9 * 3_600_000, true],
        [NOV_28 - 1, true],
        [NOV_27 + 10 * 3_600_000, false],
        [NOV_27 - 1, true],
      ] as const) {
        await store.insertLead(lead(at, spam));
      }

      // The first minutes after midnight: a lead of the day before may still be committing.
      clock = NOV_28 + 60_000;
      const first = await startNotifier(store);
      const second = await startNotifier(await database.open());
      await settle();
      expect(await store.listNotifications()).toEqual([]);

      clock = NOV_28 + 3 * 60_000;
      await Promise.all([hook.waitForRequests(1), smtp.waitForMails(1)]);
      await settle();
      const intro = '3 leads were judged spam yesterday (Fri 27 Nov). Look them over in case a real one is among them:';
      const link = `${SITE_URL}/console/spam?from=2026-11-27&to=2026-11-27`;
      expect(hook.requests).toHaveLength(1);
      // Slack-compatible text writes & as &amp;, which the chat shows and links as &.
      expect(hook.requests[0]?.json).toEqual({
        text: `*Spam yesterday (Fri 27 Nov): 3 leads*\n${intro}\n${link.replace('&', '&amp;')}`,
      });
      expect(smtp.mails.map((mail) => mail.subject)).toEqual(['Spam yesterday (Fri 27 Nov): 3 leads']);
      expect(smtp.mails[0]?.text.trimEnd().split(/\r?\n/)).toEqual([intro, '', link]);
      // It may go to a chat channel: no person's name or address.
      expect(JSON.stringify([hook.requests[0]?.json, smtp.mails[0]?.text])).not.toMatch(/Person|@example\.com/);
      expect((await store.listNotifications()).map((row) => [row.key, row.state])).toEqual([
        ['spam-daily:2026-11-27:email', 'sent'],
        ['spam-daily:2026-11-27:webhook', 'sent'],
      ]);

      // The link's filter, as the console reads it, lists exactly the leads counted.
      const asked = Object.fromEntries(new URL(link).searchParams) as { from: string; to: string };
      const listed = await store.listLeadPage(toLeadQuery({ spam: 'yes', ...asked }), undefined, 50);
      expect(listed.leads.map((row) => row.receivedAt)).toEqual([NOV_28 - 1, NOV_27 + 9 * 3_600_000, NOV_27]);

      // A restart later that day counts again and stores nothing new.
      await first.stop();
      await second.stop();
      clock = NOV_28 + 5 * 3_600_000;
      await startNotifier(await database.open());
      await settle();
      expect(await store.listNotifications()).toHaveLength(2);

      // Sat 28 Nov had no spam: the next day sends nothing.
      clock = NOV_28 + DAY + 3 * 60_000;
      await settle();
      expect(await store.listNotifications()).toHaveLength(2);
      expect(hook.requests).toHaveLength(1);
      expect(smtp.mails).toHaveLength(1);
    });
  });
}
