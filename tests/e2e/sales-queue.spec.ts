// The sales queue in Chromium, against the real server on SQLite and on PostgreSQL: leads arrive and
// go to the one person available, the salesperson's first screen works on a phone, a logged call
// stops the clock, the same person twice is one lead, and a lead nobody touches climbs the
// escalation ladder (owner told, then the team, then given to someone else) with every notice
// reaching a real SMTP server and a chat webhook exactly once. The server runs on real time: a step
// is made due by moving the lead's stored clock start back by the business minutes it needs, as if
// that time had passed.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { WorkingWindow } from '../../lead/sales.ts';
import { clockStartFor, siteBusinessHours, type SiteHours } from '../../server/testing/business-clock.ts';
import { startCrmReceiver, type CrmReceiver } from '../../server/testing/crm-receiver.ts';
import { validLeadBody } from '../../server/testing/lead-bodies.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../../server/testing/smtp-receiver.ts';
import { CONSOLE_STORES, REPO, signInToConsole, startConsoleServer, type ConsoleServer } from './console-server.ts';

const PASSWORD = 'correct horse battery staple';
/** In hours all week, in a time zone of her own. */
const SAM = 'sam@example.com';
/** Off shift: his only window is days away. */
const OLIVE = 'olive@example.com';
/** In hours, but away until the ladder's last step. */
const ALEX = 'alex@example.com';
const TEAM = [SAM, OLIVE, ALEX] as const;
const ALWAYS: WorkingWindow[] = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 }));
const STEPS_MINUTES = [5, 15, 60] as const;
const SHOTS = path.join(REPO, 'test-results', 'sales-queue');
/** The build the server runs, whose business hours it counts. */
const DIST_DIR = process.env.DIST_DIR ?? path.join(REPO, 'dist');
/** NOTIFY_TO: new-lead e-mails go there; the ladder's notices go to the people each step names. */
const OPS = 'ops@example.com';

for (const harness of CONSOLE_STORES) {
  test.describe(`the sales queue on ${harness.kind}`, () => {
    test.skip(harness.skipReason !== undefined, harness.skipReason ?? '');
    test.describe.configure({ mode: 'serial' });

    let server: ConsoleServer;
    let smtp: SmtpReceiver;
    let hook: CrmReceiver;
    let hours: SiteHours;
    const ids = new Map<string, string>();
    /** The lead the first journey called. */
    let called: string | undefined;

    test.beforeAll(async () => {
      [smtp, hook, hours] = await Promise.all([startSmtpReceiver(), startCrmReceiver(), siteBusinessHours(DIST_DIR)]);
      server = await startConsoleServer(harness, {
        SMTP_URL: smtp.url,
        NOTIFY_TO: OPS,
        ALERT_WEBHOOK_URL: hook.url,
        ESCALATE_AFTER_MINUTES: STEPS_MINUTES.join(','),
        // The ladder looks every 2 s instead of every 15 s: each step is due the moment the test moves
        // the lead's clock back, and the journey waits for the next look three times.
        ESCALATE_CHECK_SECONDS: '2',
      });
      for (const email of TEAM) await server.addAccount(email, 'sales', PASSWORD);
      for (const account of await server.store.listAccounts()) ids.set(account.email, account.id);
      const farDay = (new Date().getUTCDay() + 3) % 7;
      await setAvailability(SAM, 'America/Los_Angeles', ALWAYS, false);
      await setAvailability(OLIVE, 'UTC', [{ day: farDay, startMinute: 0, endMinute: 60 }], false);
      await setAvailability(ALEX, 'Europe/Berlin', ALWAYS, true);
      await mkdir(SHOTS, { recursive: true });
    });
    test.afterAll(async () => {
      await server?.stop();
      await smtp?.close();
      await hook?.close();
    });

    async function setAvailability(email: string, timeZone: string, windows: WorkingWindow[], away: boolean): Promise<void> {
      await server.store.setAvailability({ accountId: ids.get(email)!, timeZone, windows, away }, Date.now(), undefined);
    }

    /** Sends a lead as the contact form would, and answers its id. */
    async function submitLead(values: { name: string; email: string; company: string; phone: string }): Promise<string> {
      const response = await fetch(`${server.url}/api/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...validLeadBody('contact'), ...values }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      return ((await response.json()) as { id: string }).id;
    }

    async function ownerOf(id: string): Promise<string | undefined> {
      return (await server.store.findLeadSales(id))?.ownerId;
    }

    async function signIn(page: Page, email: string): Promise<void> {
      await signInToConsole(page, `${server.url}/console`, email, PASSWORD);
      // A salesperson's first screen is the queue.
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Call now');
    }

    /** Screenshots for people to look at (not compared): the screen at a phone's and a desk's width. */
    async function shoot(page: Page, name: string): Promise<void> {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: path.join(SHOTS, `${harness.kind}-${name}-${width}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 390, height: 844 });
    }

    /** Makes the lead `minutes` business minutes old, as if it had waited that long untouched. */
    async function waitedFor(id: string, minutes: number): Promise<void> {
      const clockStartsAt = clockStartFor(hours, Date.now(), minutes * 60_000 + 1_000);
      await server.execute(`UPDATE lead_sales SET clock_starts_at = ${clockStartsAt} WHERE lead_id = '${id}'`);
    }

    /** The ladder's e-mails about a lead, in the order received. */
    const mailsAbout = (id: string): ReceivedMail[] => smtp.mails.filter((mail) => mail.text.includes(id) && !mail.to.includes(OPS));
    const hooksAbout = (id: string): string[] =>
      hook.requests.map((request) => String(request.json.text ?? '')).filter((text) => text.includes(id));

    test('leads go to the one available; Call now on a phone; a logged call stops the clock; the same person twice is one lead', async ({
      browser,
    }) => {
      // Two widths of two screens photographed, on a machine that may be busy.
      test.setTimeout(60_000);
      const grace = await submitLead({ name: 'Grace Hopper', email: 'grace@navy.example', company: 'Navy Labs', phone: '+1 202 555 0147' });
      await expect.poll(() => ownerOf(grace), { timeout: 10_000 }).toBe(ids.get(SAM));
      // The same person again: joins the first lead, same owner, no clock of its own.
      const again = await submitLead({
        name: 'Grace Hopper',
        email: 'Grace@Navy.example',
        company: 'Navy Labs',
        phone: '+44 20 7946 0958',
      });
      await expect.poll(async () => (await server.store.findLeadSales(again))?.joinedTo, { timeout: 10_000 }).toBe(grace);
      expect(await ownerOf(again)).toBe(ids.get(SAM));

      // A phone in New York, where the business is.
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
        timezoneId: 'America/New_York',
      });
      const page = await context.newPage();
      await signIn(page, SAM);
      const mine = page.getByRole('region', { name: /^My leads to call/ });
      const card = mine.getByRole('listitem').filter({ hasText: 'Grace Hopper' });
      await expect(card).toHaveCount(1);
      await expect(card).toContainText('Navy Labs');
      await expect(card).toContainText('Contact Page Form');
      await expect(card).toContainText(/Waiting \d+ min|Waiting \d+ h|Clock starts at/);
      await expect(card.getByRole('link', { name: /^Call/ })).toHaveAttribute('href', 'tel:+12025550147');
      await expect(card.getByRole('link', { name: /^E-mail/ })).toHaveAttribute('href', 'mailto:grace@navy.example');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shoot(page, 'call-now');

      await page.goto(`${server.url}/console/leads/${grace}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Grace Hopper');
      // The repeat is listed on the first lead's page, not as a lead of its own.
      await expect(page.getByText('Also sent:')).toBeVisible();
      await expect(page.locator(`a[href$="/leads/${again}"]`)).toHaveCount(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shoot(page, 'lead');

      // One tap to call (the phone's dialler opens), then the outcome: the clock stops and the lead leaves the list.
      await page.goto(`${server.url}/console`);
      await card.getByRole('link', { name: /^Call/ }).evaluate((link) => link.addEventListener('click', (event) => event.preventDefault()));
      await card.getByRole('link', { name: /^Call/ }).click();
      await page.getByRole('button', { name: 'Reached them' }).click();
      await expect(card).toHaveCount(0);
      const touched = await server.store.findLeadSales(grace);
      expect(touched?.firstTouchAt).toBeGreaterThan(0);
      const activities = await server.store.listActivities(grace);
      expect(activities.filter((activity) => activity.kind === 'call')).toHaveLength(1);
      called = grace;
      await context.close();
    });

    test('a lead nobody touches: its owner is told once, then the team, then it goes to the next person available', async () => {
      test.setTimeout(90_000);
      const ada = await submitLead({
        name: 'Ada Lovelace',
        email: 'ada@engines.example',
        company: 'Analytical Engines',
        phone: '+1 617 555 0199',
      });
      // Grace was called in the journey before: however long ago her clock started, nobody is told.
      const grace = called;
      if (grace !== undefined) await waitedFor(grace, STEPS_MINUTES[2]);
      await expect.poll(() => ownerOf(ada), { timeout: 10_000 }).toBe(ids.get(SAM));
      const ladder = { timeout: 20_000, intervals: [250] };

      await waitedFor(ada, STEPS_MINUTES[0]);
      await expect.poll(() => mailsAbout(ada).map((mail) => mail.to.join(',')), ladder).toEqual([SAM]);
      await expect.poll(() => hooksAbout(ada).length, ladder).toBe(1);

      await waitedFor(ada, STEPS_MINUTES[1]);
      // One message to the whole sales team, off shift and away included: they may still pick up.
      await expect.poll(() => mailsAbout(ada).length, ladder).toBe(2);
      expect([...mailsAbout(ada)[1]!.to].sort()).toEqual([...TEAM].sort());
      await expect.poll(() => hooksAbout(ada).length, ladder).toBe(2);
      expect(await ownerOf(ada)).toBe(ids.get(SAM));

      // Alex comes back; Olive is still off shift: the lead goes to Alex, who is told.
      await setAvailability(ALEX, 'Europe/Berlin', ALWAYS, false);
      await waitedFor(ada, STEPS_MINUTES[2]);
      await expect.poll(() => ownerOf(ada), ladder).toBe(ids.get(ALEX));
      await expect.poll(() => mailsAbout(ada).length, ladder).toBe(3);
      expect(mailsAbout(ada)[2]!.to).toEqual([ALEX]);
      expect(mailsAbout(ada)[2]!.subject).toContain('now yours');
      await expect.poll(() => hooksAbout(ada).length, ladder).toBe(3);

      // Each notice once: every (recipient, subject) pair and every chat message is distinct.
      const keys = mailsAbout(ada).map((mail) => `${mail.to.join(',')} ${mail.subject}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(new Set(hooksAbout(ada)).size).toBe(hooksAbout(ada).length);
      expect((await server.store.findLeadSales(ada))?.escalationStep).toBe(3);
      if (grace !== undefined) {
        expect(mailsAbout(grace)).toEqual([]);
        expect((await server.store.findLeadSales(grace))?.escalationStep).toBe(0);
      }
    });
  });
}
