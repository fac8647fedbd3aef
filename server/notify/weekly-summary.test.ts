import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../back-office/roles.ts';
import type { AnalyticsStore, DayRange, VisitEvent } from '../analytics/analytics-store.ts';
import { speedFigures } from '../sales/speed-figures.ts';
import type { WeeklyHours } from '../sales/working-time.ts';
import type { Database } from '../store/database.ts';
import type { ClaimedNotification } from '../store/notifications/notification-store.ts';
import { ANALYTICS_HARNESSES, type AnalyticsDatabase } from '../testing/analytics-harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../testing/smtp-receiver.ts';
import { newLead } from '../testing/store-fixtures.ts';
import { announceSkip, STORE_HARNESSES, type StoreDatabase } from '../testing/store-harness.ts';
import { createNotifier, type Notifier } from './notifier.ts';
import { createWeeklySummary, type WeeklySummaryJob } from './weekly-summary.ts';

// The weekly summary job on every store kind, with the analytics store of the same kind: two
// connections to one database stand in for two server processes, a fresh job for a restart. The
// clock is fake and set by the test; the only waiting is for the mail server to receive a message.

const SITE_URL = 'https://www.example.com';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Mon 30 Nov 2026, 8:00 in New York. */
const MONDAY_8 = Date.UTC(2026, 10, 30, 13);
const LONG_AGO = Date.UTC(2026, 9, 1);
const HOURS: WeeklyHours = { timeZone: 'America/New_York', windows: [] };
const silentLog = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

for (const [index, harness] of STORE_HARNESSES.entries()) {
  const analyticsHarness = ANALYTICS_HARNESSES[index]!;
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined || analyticsHarness.skipReason !== undefined)(
    `the weekly summary: ${harness.kind}`,
    () => {
      let database: StoreDatabase;
      let analyticsDatabase: AnalyticsDatabase;
      let store: Database;
      let analytics: AnalyticsStore;
      let smtp: SmtpReceiver;
      let clock = MONDAY_8;
      const notifiers: Notifier[] = [];

      beforeEach(async () => {
        database = await harness.createDatabase();
        analyticsDatabase = await analyticsHarness.createDatabase();
        [store, analytics, smtp] = await Promise.all([database.open(), analyticsDatabase.open(), startSmtpReceiver()]);
        clock = MONDAY_8;
      });
      afterEach(async () => {
        await Promise.all(notifiers.splice(0).map((notifier) => notifier.stop()));
        await smtp.close();
        await Promise.all([database.remove(), analyticsDatabase.remove()]);
      });

      /** A server process's weekly summary, on its own connection. */
      function job(on: Database = store): WeeklySummaryJob {
        return createWeeklySummary({
          store: on,
          analytics,
          siteHours: () => HOURS,
          context: { siteUrl: SITE_URL },
          log: silentLog,
          now: () => clock,
        });
      }

      function startNotifier(on: Database = store): Notifier {
        const notifier = createNotifier({
          store: on,
          config: {
            smtpUrl: smtp.url,
            smtpAllowPlaintext: false,
            notifyTo: ['sales@example.com'],
            notifyFrom: 'Lead console <no-reply@www.example.com>',
            alertAfterMinutes: 15,
            alertWebhookUrl: undefined,
            siteUrl: SITE_URL,
            host: '127.0.0.1',
            port: 4321,
          },
          log: silentLog,
          now: () => clock,
          pollIntervalMs: 20,
          sendTimeoutMs: 2_000,
        });
        notifier.attach(job(on));
        notifiers.push(notifier);
        notifier.start();
        return notifier;
      }

      async function account(email: string, role: Role, optedInAt: number | undefined): Promise<string> {
        const created = await store.createAccount({ email, role, passwordHash: 'x', now: LONG_AGO });
        if (created.kind !== 'created') throw new Error(`could not create ${email}`);
        if (optedInAt !== undefined) await store.setWeeklySummaryChoice(created.account.id, true, optedInAt);
        return created.account.id;
      }

      const keys = async () => (await store.listNotifications()).map((row) => row.key);
      const stopAll = () => Promise.all(notifiers.splice(0).map((notifier) => notifier.stop()));

      it('sends each account one summary a week, with two processes running at once', async () => {
        // Both chose it on the Sunday, after the week before was due.
        const ana = await account('ana@example.com', 'admin', MONDAY_8 - DAY);
        const bo = await account('bo@example.com', 'viewer', MONDAY_8 - DAY);
        const other = await database.open();

        // The moment before it is due, nothing; at 8:00 both processes queue it, twice each.
        clock = MONDAY_8 - 1;
        expect(await job().queueDue(clock)).toBe(0);
        expect(await store.listNotifications()).toEqual([]);
        clock = MONDAY_8;
        const [first, second] = [job(), job(other)];
        const stored = await Promise.all([
          first.queueDue(clock),
          second.queueDue(clock),
          job().queueDue(clock),
          job(other).queueDue(clock),
        ]);
        expect(stored.reduce((sum, count) => sum + count, 0)).toBe(2);
        expect((await keys()).sort()).toEqual([`weekly-summary:2026-11-30:${ana}:email`, `weekly-summary:2026-11-30:${bo}:email`].sort());

        // Two notifiers on the one database send them: each once.
        startNotifier(store);
        startNotifier(other);
        await smtp.waitForMails(2);
        await stopAll();
        expect(smtp.mails.map((mail) => mail.to).sort()).toEqual([['ana@example.com'], ['bo@example.com']]);
        for (const mail of smtp.mails) expect(mail.subject).toMatch(/^Weekly summary, Mon 23 Nov to Sun 29 Nov: /);
        expect((await store.listNotifications()).map((row) => row.state)).toEqual(['sent', 'sent']);
      });

      it('sends a week missed while the server was down when it starts, once, and not the weeks before', async () => {
        const ana = await account('ana@example.com', 'admin', LONG_AGO);
        // Down since before Monday; started on Wednesday.
        clock = MONDAY_8 + 2 * DAY;
        startNotifier();
        await smtp.waitForMails(1);
        await stopAll();
        expect(smtp.mails.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Weekly summary, Mon 23 Nov to Sun 29 Nov: /)]);
        expect(await keys()).toEqual([`weekly-summary:2026-11-30:${ana}:email`]);

        // A restart that week stores nothing new; the next Monday at 8:00 is the next week's.
        clock += HOUR;
        expect(await job().queueDue(clock)).toBe(0);
        clock = MONDAY_8 + 7 * DAY - 1;
        expect(await job().queueDue(clock)).toBe(0);
        clock = MONDAY_8 + 7 * DAY;
        expect(await job().queueDue(clock)).toBe(1);
        expect(await keys()).toEqual([`weekly-summary:2026-11-30:${ana}:email`, `weekly-summary:2026-12-07:${ana}:email`]);
      });

      it('sends nothing to accounts that did not opt in, were removed, chose it too late or may not read the reports', async () => {
        const ana = await account('ana@example.com', 'sales', LONG_AGO);
        await account('bo@example.com', 'admin', undefined);
        await account('cy@example.com', 'admin', LONG_AGO);
        await store.removeAccount('cy@example.com');
        const di = await account('di@example.com', 'viewer', LONG_AGO);
        await account('ed@example.com', 'admin', MONDAY_8 + HOUR);
        await account('fi@example.com', 'editor', LONG_AGO);
        const gus = await account('gus@example.com', 'admin', LONG_AGO);

        expect(await job().queueDue(MONDAY_8 + 2 * HOUR)).toBe(3);
        expect((await keys()).sort()).toEqual([ana, di, gus].map((id) => `weekly-summary:2026-11-30:${id}:email`).sort());
        // Between queueing and sending: di is removed, gus switches it off.
        await store.removeAccount('di@example.com');
        await store.setWeeklySummaryChoice(gus, false, MONDAY_8 + 3 * HOUR);

        clock = MONDAY_8 + 3 * HOUR;
        startNotifier();
        await smtp.waitForMails(1);
        await stopAll();
        expect(smtp.mails.map((mail) => mail.to)).toEqual([['ana@example.com']]);
        const states = Object.fromEntries(
          (await store.listNotifications()).map((row) => [row.detail.accountId, [row.state, row.lastError]]),
        );
        expect(states).toEqual({
          [ana]: ['sent', undefined],
          [di]: ['skipped', 'the account switched the weekly summary off or was removed'],
          [gus]: ['skipped', 'the account switched the weekly summary off or was removed'],
        });
      });

      it('says what the analytics store and the speed figures say for those days, a campaign name as text', async () => {
        await account('ana@example.com', 'admin', LONG_AGO);
        const week: DayRange = { from: '2026-11-23', to: '2026-11-29' };
        const before: DayRange = { from: '2026-11-16', to: '2026-11-22' };
        const evil = '<script>alert(1)</script>';
        const pageview = (visit: string, at: number, campaign?: string): VisitEvent => ({
          type: 'pageview',
          visit,
          path: '/pricing',
          at,
          forms: ['home'],
          ...(campaign === undefined ? {} : { campaign: { source: 'news', name: campaign } }),
        });
        const inWeek = Date.UTC(2026, 10, 24, 12);
        const lastWeek = Date.UTC(2026, 10, 17, 12);
        await analytics.recordEvents([
          pageview('v1', inWeek, evil),
          pageview('v2', inWeek + DAY),
          pageview('v3', inWeek + 2 * DAY, evil),
          pageview('v4', lastWeek),
          pageview('v5', lastWeek + DAY),
          // Outside both weeks: counted by neither.
          pageview('v6', Date.UTC(2026, 10, 30, 1)),
        ]);
        const keysOf = (campaign: string) => ({ campaign, source: 'news', entryPath: '/pricing' });
        for (const [leadId, at, campaign, deliveredToo] of [
          ['a1', inWeek + HOUR, evil, true],
          ['a2', inWeek + DAY + HOUR, '', true],
          ['a3', inWeek + 2 * DAY + HOUR, evil, false],
          ['b1', lastWeek + HOUR, '', true],
        ] as const) {
          await analytics.recordLead({ leadId, at, form: 'home', keys: keysOf(campaign), spam: false });
          if (deliveredToo) await analytics.recordLeadDelivered(leadId, at + HOUR);
        }
        // One meeting booked that week, by the campaign's lead.
        await analytics.recordMeeting('a1', inWeek + 2 * HOUR, true);

        // Speed: two leads that week, one called 3 minutes after it came, one never.
        for (const [receivedAt, touchedAt] of [
          [inWeek, inWeek + 3 * 60_000],
          [inWeek + DAY, undefined],
        ] as const) {
          const lead = newLead({ receivedAt });
          await store.insertLead(lead);
          await store.place({
            leadId: lead.id,
            at: receivedAt,
            ownerId: undefined,
            clockStartsAt: receivedAt,
            joinedTo: undefined,
            roundRobin: false,
            activity: undefined,
            audit: undefined,
          });
          if (touchedAt !== undefined) {
            const activity = {
              leadId: lead.id,
              at: touchedAt,
              kind: 'call' as const,
              actorId: undefined,
              actor: 'ana@example.com',
              detail: {},
            };
            await store.recordActivity({ activity, touch: true, audit: undefined, crmEvents: [] });
          }
        }

        const summary = job();
        expect(await summary.queueDue(MONDAY_8)).toBe(1);
        const [row] = await store.listNotifications();
        const composed = await summary.compose(row as ClaimedNotification);
        if (!('message' in composed)) throw new Error(composed.skip);
        const { text, html, to } = composed.message.email;
        expect(to).toEqual(['ana@example.com']);

        // Each figure is the store's own report of those days, summed.
        const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
        const visitors = async (range: DayRange) => sum((await analytics.dayTotals(range)).map((day) => day.visitors));
        const step = async (range: DayRange, name: 'accepted' | 'delivered' | 'booked') =>
          sum((await analytics.funnel(range, 'none')).map((funnelRow) => funnelRow[name]));
        expect([await visitors(week), await visitors(before)]).toEqual([3, 2]);
        expect([await step(week, 'accepted'), await step(before, 'accepted')]).toEqual([3, 1]);
        expect([await step(week, 'delivered'), await step(before, 'delivered')]).toEqual([2, 1]);
        expect([await step(week, 'booked'), await step(before, 'booked')]).toEqual([1, 0]);
        const lines = text.split('\n');
        expect(lines).toContain('Visitors            3          2            up 50%');
        expect(lines).toContain('Leads accepted      3          1            up 200%');
        expect(lines).toContain('Leads the CRM took  2          1            up 100%');
        expect(lines).toContain('Meetings booked     1          0            new');
        expect(lines).toContain('Visit-to-lead rate  100.0%     50.0%        up 100%');

        expect(text).toContain(`- ${evil} (news): 1 lead the CRM took, 1 meeting booked, 2 leads from 2 visitors`);
        expect(text).toContain('- /pricing: 2 leads the CRM took, 1 meeting booked, 3 leads from 3 visitors');
        expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; (news)');
        expect(html).not.toContain('<script');

        const from = Date.parse('2026-11-23T00:00:00Z');
        const speed = speedFigures(await store.listSpeedRows(from, from + 7 * DAY), HOURS, clock);
        expect(speed).toMatchObject({ leads: 2, medianMinutes: 3, within5Minutes: 0.5, neverReached: 0.5 });
        expect(lines).toContain('Leads received              2          0');
        expect(lines).toContain('Median time to first touch  3 min      no leads');
        expect(lines).toContain('Reached within 5 minutes    50%        no leads');
        expect(lines).toContain('Never reached               50%        no leads');
        // Counts only: no lead's name or address.
        expect(text).not.toMatch(/@example\.com|Seán/);
      });
    },
  );
}
