// The lead console in Chromium, against the real server and a CRM each test scripts, on SQLite and on
// PostgreSQL: the journeys of the people who handle leads, and the refusals that keep them safe.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { OK_REPLY } from '../../server/testing/crm-receiver.ts';
import { validLeadBody } from '../../server/testing/lead-bodies.ts';
import type { DeliveryState } from '../../server/store/outbox/outbox-store.ts';
import { startStudio } from '../../studio/testing/running-studio.ts';
import { axeViolations } from './axe.ts';
import { CONSOLE_STORES, startConsoleServer, type ConsoleServer } from './console-server.ts';

const PASSWORD = 'correct horse battery staple';
const OWNER = 'owner@example.com';
const VIEWER = 'vera@example.com';

for (const harness of CONSOLE_STORES) {
  test.describe(`the console on ${harness.kind}`, () => {
    test.skip(harness.skipReason !== undefined, harness.skipReason ?? '');
    // One server and database for the file: the tests below share its accounts, never its leads.
    test.describe.configure({ mode: 'serial' });

    let server: ConsoleServer;
    /** How each lead's deliveries answer, by e-mail address (default: accepted). */
    const scripts = new Map<string, (attempt: number) => typeof OK_REPLY>();
    const attemptsByLead = new Map<string, number>();

    test.beforeAll(async () => {
      server = await startConsoleServer(harness);
      server.crm.respond = (request) => {
        const email = String(request.json.email ?? '');
        const leadId = String(request.json.lead_id ?? '');
        const attempt = attemptsByLead.get(leadId) ?? 0;
        attemptsByLead.set(leadId, attempt + 1);
        return scripts.get(email)?.(attempt) ?? OK_REPLY;
      };
      await server.addAccount(OWNER, 'admin', PASSWORD);
      await server.addAccount(VIEWER, 'viewer', PASSWORD);
    });
    test.afterAll(async () => server?.stop());

    /** Sends a lead as the contact form would, and answers its id. */
    async function submitLead(values: { name: string; email: string; company?: string; website?: string }): Promise<string> {
      const body = { ...validLeadBody('contact'), ...values };
      const response = await fetch(`${server.url}/api/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      return ((await response.json()) as { id: string }).id;
    }

    async function waitForState(id: string, state: DeliveryState): Promise<void> {
      await expect.poll(async () => (await server.store.getLead(id))?.state, { timeout: 15_000 }).toBe(state);
    }

    async function signIn(page: Page, email: string): Promise<void> {
      await page.goto(`${server.url}/console`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the console');
      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Health');
    }

    test('sign in, find a lead by filter and by search, and read its timeline after a CRM that failed twice', async ({ page }) => {
      scripts.set('grace@navy.example', (attempt) =>
        attempt < 2 ? { status: 503, body: 'CRM down for maintenance', headers: { 'content-type': 'text/plain' } } : OK_REPLY,
      );
      const grace = await submitLead({ name: 'Grace Hopper', email: 'grace@navy.example', company: 'Navy Labs' });
      await submitLead({ name: 'Alan Turing', email: 'alan@bletchley.example', company: 'Bletchley Park' });
      await waitForState(grace, 'delivered');

      await page.goto(`${server.url}/console/leads`);
      await page.getByLabel('E-mail address').fill(OWNER);
      await page.getByLabel('Password').fill('not the password at all');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert')).toContainText('do not match');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.keyboard.press('Enter');
      // Signing in leads where the person was headed.
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inbox');
      const rows = page.getByRole('table').getByRole('row');
      await expect(rows.filter({ hasText: 'Grace Hopper' })).toHaveCount(1);

      await page.getByLabel('Search name, e-mail or company').fill('navy labs');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect(rows.filter({ hasText: 'Grace Hopper' })).toHaveCount(1);
      await expect(rows.filter({ hasText: 'Alan Turing' })).toHaveCount(0);
      // The filter lives in the address, so a reload keeps it.
      await page.reload();
      await expect(rows.filter({ hasText: 'Alan Turing' })).toHaveCount(0);

      await page.getByLabel('Search name, e-mail or company').fill('');
      await page.getByLabel('CRM delivery').selectOption('delivered');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect(rows.filter({ hasText: 'Grace Hopper' })).toHaveCount(1);

      await rows.filter({ hasText: 'Grace Hopper' }).getByRole('link').first().click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Grace Hopper');
      const timeline = page.locator('.timeline-item');
      await expect(timeline).toHaveCount(3);
      await expect(timeline.nth(0)).toContainText('HTTP 503');
      await expect(timeline.nth(0)).toContainText('CRM down for maintenance');
      await expect(timeline.nth(2)).toContainText('HTTP 200');
    });

    test('retry a lead that failed for good: it reaches the CRM', async ({ page }) => {
      let gone = true;
      scripts.set('failing@example.com', () => (gone ? { status: 410, body: 'Gone' } : OK_REPLY));
      const id = await submitLead({ name: 'Failing Lead', email: 'failing@example.com', company: 'Retry Co' });
      await waitForState(id, 'failed');
      gone = false;

      await signIn(page, OWNER);
      await page.goto(`${server.url}/console/leads/${id}`);
      await page.getByRole('button', { name: 'Retry now' }).click();
      await expect(page.getByRole('status')).toContainText('1 lead will be sent to the CRM: 1 failed.');
      await waitForState(id, 'delivered');
      expect(server.crm.leadIds()).toContain(id);
    });

    test('mark as spam, and not spam from the spam view: a lead judged spam is forwarded once someone says it is real', async ({
      page,
    }) => {
      const trapped = await submitLead({
        name: 'Real Person',
        email: 'real@example.com',
        company: 'Honest Ltd',
        website: 'https://x.example',
      });
      await waitForState(trapped, 'spam');
      scripts.set('stuck@example.com', () => ({ status: 503, body: 'busy' }));
      const stuck = await submitLead({ name: 'Obvious Spammer', email: 'stuck@example.com', company: 'Cheap Pills' });

      await signIn(page, OWNER);
      await page.getByRole('link', { name: 'Spam', exact: true }).click();
      const row = page.getByRole('row').filter({ hasText: 'Real Person' });
      await expect(row).toContainText('The hidden field that people never see was filled in.');
      await row.getByRole('button', { name: 'Not spam: the lead from Real Person' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'no longer spam' })).toContainText(
        'is in the inbox and will be sent to the CRM',
      );
      await waitForState(trapped, 'delivered');
      expect(server.crm.leadIds()).toContain(trapped);

      await page.goto(`${server.url}/console/leads/${stuck}`);
      await page.getByRole('button', { name: 'Mark as spam' }).click();
      await expect(page.getByRole('status')).toContainText('Marked as spam');
      await waitForState(stuck, 'spam');
    });

    test('export the current filter as CSV and JSON; a formula in a cell is neutralised', async ({ page }) => {
      const id = await submitLead({ name: 'Export Person', email: 'export@example.com', company: '=HYPERLINK("http://x.example")' });
      await waitForState(id, 'delivered');
      await signIn(page, OWNER);
      await page.goto(`${server.url}/console/leads?q=export%40example.com`);
      await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'Export Person' })).toHaveCount(1);

      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
      const csvText = await readFile(await csv.path(), 'utf8');
      expect(csvText).toContain('export@example.com');
      expect(csvText).not.toContain('Grace Hopper');
      expect(csvText).toMatch(/'=HYPERLINK/);

      const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export JSON' }).click()]);
      const exported = JSON.parse(await readFile(await json.path(), 'utf8')) as Record<string, unknown>[];
      expect(exported).toHaveLength(1);
      expect(JSON.stringify(exported[0])).toContain('=HYPERLINK');
    });

    test('erase every lead of an address after a confirmation that says how many; the audit log keeps no address', async ({ page }) => {
      await submitLead({ name: 'Forget Me', email: 'forget.me@example.com', company: 'Private' });
      await submitLead({ name: 'Forget Me', email: 'Forget.Me@example.com', company: 'Private' });
      await signIn(page, OWNER);
      await page.getByRole('link', { name: 'Inbox' }).click();
      await page.getByRole('button', { name: 'Erase by e-mail' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('E-mail address').fill('forget.me@example.com');
      await dialog.getByRole('button', { name: 'Find their leads' }).click();
      await expect(dialog).toContainText('2 leads');
      await dialog.getByRole('button', { name: 'Erase 2 leads' }).click();
      await expect.poll(() => server.store.countLeadsByEmail('forget.me@example.com')).toBe(0);

      await page.getByRole('link', { name: 'Audit log' }).click();
      const log = page.getByRole('table');
      await expect(log).toContainText('Erased leads');
      await expect(log).not.toContainText('forget.me');
    });

    test('a viewer reads leads but is refused an admin action, in the app and at the API', async ({ page }) => {
      await signIn(page, VIEWER);
      await page.getByRole('link', { name: 'Inbox' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inbox');
      await expect(page.getByRole('button', { name: 'Erase by e-mail' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
      const session = (await (await page.request.get(`${server.url}/console/api/session`)).json()) as { csrfToken: string };
      const refused = await page.request.post(`${server.url}/console/api/erasures`, {
        headers: { 'x-csrf-token': session.csrfToken, origin: server.url },
        data: { email: 'grace@navy.example', count: 1 },
      });
      expect(refused.status()).toBe(403);
      expect(await server.store.countLeadsByEmail('grace@navy.example')).toBe(1);
    });

    test('every screen passes axe (WCAG 2.2 AA) at phone and desktop widths, and the inbox never widens the page', async ({ browser }) => {
      test.skip(harness.kind !== 'sqlite', 'The screens are the same on every store: checked once.');
      // Fourteen screens, each read whole by axe.
      test.setTimeout(120_000);
      const id = await submitLead({ name: 'Axe Person', email: 'axe@example.com', company: 'Accessible Ltd' });
      await waitForState(id, 'delivered');
      for (const width of [390, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        await page.goto(`${server.url}/console`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the console');
        expect(await axeViolations(page), `sign-in at ${width} px`).toEqual([]);
        await signIn(page, OWNER);
        for (const [screen, heading] of [
          ['', 'Health'],
          ['leads', 'Inbox'],
          ['spam', 'Spam'],
          [`leads/${id}`, 'Axe Person'],
          ['audit', 'Audit log'],
          ['settings', 'Settings'],
        ] as const) {
          await page.goto(`${server.url}/console/${screen}`);
          await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
          await expect(page.getByText(/^Loading/)).toHaveCount(0);
          expect(await axeViolations(page), `/console/${screen} at ${width} px`).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), `/console/${screen} at ${width} px`).toBeLessThanOrEqual(
            width,
          );
        }
        await context.close();
      }
    });

    test('a removed account is signed out everywhere at once, the studio included', async ({ page, browser }) => {
      const editor = 'eddie@example.com';
      await server.addAccount(editor, 'admin', PASSWORD);
      const studio = await startStudio({ env: { ...server.env } });
      try {
        await signIn(page, editor);
        const studioContext = await browser.newContext();
        const studioPage = await studioContext.newPage();
        await studioPage.goto(studio.url);
        await studioPage.getByLabel('Email').fill(editor);
        await studioPage.getByLabel('Password').fill(PASSWORD);
        await studioPage.getByRole('button', { name: 'Sign in' }).click();
        await expect(studioPage.getByText(`Editing as ${editor}`)).toBeVisible();

        // What `npm run users -- remove` does.
        expect(await server.store.removeAccount(editor)).toEqual({ kind: 'removed' });

        expect((await studioPage.request.get(`${studio.url}/api/entries`)).status()).toBe(401);
        await page.reload();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the console');
        expect((await page.request.get(`${server.url}/console/api/leads`)).status()).toBe(401);
        await studioContext.close();
      } finally {
        await studio.stop();
      }
    });
  });
}
