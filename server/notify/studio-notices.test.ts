import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../back-office/roles.ts';
import { createStudioNotices as createStudioOutbox, type StudioNotices } from '../../studio/server/notices.ts';
import type { ReviewRequest } from '../../studio/server/reviews.ts';
import type { ScheduledPublish } from '../../studio/server/schedule.ts';
import type { Database } from '../store/database.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../testing/smtp-receiver.ts';
import { announceSkip, STORE_HARNESSES, type StoreDatabase } from '../testing/store-harness.ts';
import { createNotifier, type Notifier } from './notifier.ts';
import { createStudioNotices } from './studio-notices.ts';

// The content studio's e-mails from end to end on every store kind: the studio stores them in the
// lead store's outbox (its own code, on its own connection), the site's notifier sends them through
// a real SMTP server to the account each names, read when it is sent.

const STUDIO_URL = 'https://studio.example.com';
/** A minute ago: stored just before the notifier, on the real clock, sends it. */
const T0 = Date.now() - 60_000;
/** An e-mail's text with its lines as written (mail travels with CRLF). */
const textOf = (mail: { text: string }) => mail.text.replace(/\r\n/g, '\n');
const silentLog = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

const request = (overrides: Partial<ReviewRequest> = {}): ReviewRequest => ({
  id: '6f1c2a5e-0d4b-4c1e-9a57-2b3c4d5e6f70',
  status: 'waiting',
  files: [
    { path: 'content/pages/home.yaml', title: 'Home', change: 'changed' },
    { path: 'content/pages/about.yaml', title: 'About us', change: 'changed' },
  ],
  note: 'New heading.',
  requestedBy: 'maria@example.com',
  requestedAt: new Date(T0).toISOString(),
  ...overrides,
});

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`the studio's e-mails: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;
    let studioStore: Database;
    let smtp: SmtpReceiver;
    let studio: StudioNotices;
    const notifiers: Notifier[] = [];
    const ids = new Map<string, string>();

    beforeEach(async () => {
      database = await harness.createDatabase();
      // The studio and the site's server are two processes, each with its own connection.
      [store, studioStore, smtp] = await Promise.all([database.open(), database.open(), startSmtpReceiver()]);
      studio = createStudioOutbox({ outbox: studioStore, studioUrl: STUDIO_URL, log: silentLog, now: () => T0 });
      const team: Record<string, Role> = {
        'maria@example.com': 'editor',
        'ana@example.com': 'admin',
        'sam@example.com': 'admin',
        'bo@example.com': 'viewer',
      };
      for (const [email, role] of Object.entries(team)) {
        const created = await store.createAccount({ email, role, passwordHash: 'x', now: T0 });
        if (created.kind === 'created') ids.set(email, created.account.id);
      }
    });
    afterEach(async () => {
      await Promise.all(notifiers.splice(0).map((notifier) => notifier.stop()));
      await smtp.close();
      await database.remove();
    });

    function startNotifier(): Notifier {
      const notifier = createNotifier({
        store,
        config: {
          smtpUrl: smtp.url,
          smtpAllowPlaintext: false,
          notifyTo: ['sales@example.com'],
          notifyFrom: 'Lead console <no-reply@www.example.com>',
          alertAfterMinutes: 15,
          alertWebhookUrl: undefined,
          siteUrl: 'https://www.example.com',
          host: '127.0.0.1',
          port: 4321,
        },
        log: silentLog,
        pollIntervalMs: 20,
        sendTimeoutMs: 2_000,
      });
      notifier.attach(createStudioNotices({ store }));
      notifiers.push(notifier);
      notifier.start();
      return notifier;
    }

    /** Waits until no studio e-mail is pending any more. */
    async function settled() {
      await expect
        .poll(async () => (await store.listNotifications()).filter((row) => row.state === 'pending').length, { timeout: 5_000 })
        .toBe(0);
    }

    it('tells every admin of a review request once, however often it is stored, each with the link to it', async () => {
      await studio.reviewAsked(request());
      await studio.reviewAsked(request());
      const rows = await store.listNotifications();
      expect(rows.map((row) => [row.kind, row.channel, row.detail.accountId]).sort()).toEqual(
        [
          ['studio-review-asked', 'email', ids.get('ana@example.com')],
          ['studio-review-asked', 'email', ids.get('sam@example.com')],
        ].sort(),
      );

      startNotifier();
      await smtp.waitForMails(2);
      await settled();
      expect(smtp.mails.map((mail) => mail.to).sort()).toEqual([['ana@example.com'], ['sam@example.com']]);
      const mail = smtp.mails[0]!;
      expect(mail.subject).toBe('Review asked for: Home and About us, by maria@example.com');
      expect(textOf(mail)).toContain('Their note:\n> New heading.');
      expect(textOf(mail)).toContain(`${STUDIO_URL}/?review=6f1c2a5e-0d4b-4c1e-9a57-2b3c4d5e6f70`);
      expect((await store.listNotifications()).map((row) => row.state)).toEqual(['sent', 'sent']);
    });

    it('reads each recipient when it sends: a removed account, or one that may no longer review, gets nothing', async () => {
      await studio.reviewAsked(request());
      await store.removeAccount('sam@example.com');
      await store.setAccountRole('ana@example.com', 'editor', T0);
      startNotifier();
      await settled();
      expect(smtp.mails).toEqual([]);
      expect((await store.listNotifications()).map((row) => row.state)).toEqual(['skipped', 'skipped']);
    });

    it('sends nothing stored more than a day before: once e-mail is set up, older events are old news', async () => {
      const stale = createStudioOutbox({ outbox: studioStore, studioUrl: STUDIO_URL, log: silentLog, now: () => T0 - 24 * 60 * 60 * 1000 });
      await stale.reviewAsked(request());
      startNotifier();
      await settled();
      expect(smtp.mails).toEqual([]);
      expect((await store.listNotifications()).map((row) => [row.state, row.lastError])).toEqual([
        ['skipped', 'stored more than a day ago: old news'],
        ['skipped', 'stored more than a day ago: old news'],
      ]);
    });

    it("tells the editor their request was sent back, with the reviewer's comment", async () => {
      await studio.reviewSentBack(
        request({ status: 'sent-back', decidedBy: 'ana@example.com', decidedAt: new Date(T0).toISOString(), comment: 'Shorter, please.' }),
      );
      startNotifier();
      await smtp.waitForMails(1);
      const [mail] = smtp.mails;
      expect(mail!.to).toEqual(['maria@example.com']);
      expect(mail!.subject).toBe('Your changes to Home and About us were sent back');
      expect(textOf(mail!)).toContain('ana@example.com sent back your changes');
      expect(textOf(mail!)).toContain('> Shorter, please.');
      expect(textOf(mail!)).toContain(`${STUDIO_URL}/?publish`);
    });

    it('tells the editor their request was approved, published now or at a set time', async () => {
      await studio.reviewApproved(request(), 'ana@example.com', { published: true });
      await studio.reviewApproved(request({ id: '7f1c2a5e-0d4b-4c1e-9a57-2b3c4d5e6f70' }), 'ana@example.com', {
        when: 'Tue 1 Dec, 09:00 (America/Chicago)',
      });
      startNotifier();
      await smtp.waitForMails(2);
      expect(smtp.mails.every((mail) => mail.to[0] === 'maria@example.com')).toBe(true);
      expect(smtp.mails.map((mail) => mail.subject).sort()).toEqual([
        'Your changes to Home and About us are approved for Tue 1 Dec, 09:00 (America/Chicago)',
        'Your changes to Home and About us are live',
      ]);
    });

    it('tells whoever scheduled a publish that failed, and nobody of what they did themselves', async () => {
      const entry: ScheduledPublish = {
        id: '8f1c2a5e-0d4b-4c1e-9a57-2b3c4d5e6f70',
        at: new Date(T0).toISOString(),
        scheduledBy: 'ana@example.com',
        scheduledAt: new Date(T0).toISOString(),
        files: [{ path: 'content/pages/home.yaml', title: 'Home', change: 'changed', text: 'x', baseVersion: null }],
        status: 'failed',
        message: 'Someone else published Home after this was scheduled.',
      };
      await studio.scheduleFailed(entry, 'Mon 30 Nov, 06:00 (America/Chicago)');
      // An admin who asks for a review, and answers it, is not written to about it.
      await studio.reviewAsked(request({ requestedBy: 'ana@example.com' }));
      await studio.reviewSentBack(request({ requestedBy: 'ana@example.com', decidedBy: 'ana@example.com', comment: 'Not yet.' }));
      startNotifier();
      await smtp.waitForMails(2);
      await settled();
      expect(smtp.mails.map((mail) => [mail.to[0], mail.subject]).sort()).toEqual([
        ['ana@example.com', 'Your scheduled publish did not happen: Home'],
        ['sam@example.com', 'Review asked for: Home and About us, by ana@example.com'],
      ]);
      const failed = smtp.mails.find((mail) => mail.to[0] === 'ana@example.com')!;
      expect(textOf(failed)).toContain('scheduled for Mon 30 Nov, 06:00 (America/Chicago), did not happen');
      expect(textOf(failed)).toContain('> Someone else published Home after this was scheduled.');
    });
  });
}
