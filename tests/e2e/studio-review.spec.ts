// Review before publish and scheduled publishing, with the team's accounts and STUDIO_REVIEW=required:
// an editor asks for review, an admin sends it back with a comment that the editor sees beside the
// draft, the editor changes it and asks again, and the admin publishes it. Then a publish scheduled
// half a minute ahead happens although the studio was restarted in between.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'correct horse battery staple';
const EDITOR = 'maria@example.com';
const ADMIN = 'ana@example.com';
const HOME = 'content/pages/home.yaml';

let studio: RunningStudio;
test.beforeAll(async () => {
  studio = await startStudio({
    accounts: [
      { email: EDITOR, role: 'editor', password: PASSWORD },
      { email: ADMIN, role: 'admin', password: PASSWORD },
    ],
    env: { STUDIO_REVIEW: 'required', STUDIO_TIME_ZONE: 'UTC' },
  });
});
test.afterAll(async () => {
  // Stopping the studio may wait for it to finish closing, and then removes its copy of the site.
  test.setTimeout(60_000);
  await studio?.stop();
});

/** The screen as axe-core sees it (the preview frame, the site's own page, is checked with the site). */
async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target}`);
}

/**
 * Each person's session from their first sign-in through the form. A later test starts signed in,
 * as the person coming back to the studio would: each repeat of the form costs a page load and a
 * deliberately slow password check, and proves nothing the first did not.
 */
const sessions = new Map<string, Awaited<ReturnType<BrowserContext['storageState']>>>();

async function signIn(browser: Browser, email: string): Promise<Page> {
  const saved = sessions.get(email);
  const page = await (await browser.newContext(saved ? { storageState: saved } : {})).newPage();
  await page.goto(studio.url);
  if (!saved) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await expect(page.getByText(`Editing as ${email}`)).toBeVisible();
  if (!saved) sessions.set(email, await page.context().storageState());
  return page;
}

/** Opens the home page's editor and gives its first block the heading `text`, waiting for the draft to be saved. */
async function changeHomeHeading(page: Page, text: string) {
  await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /^Home/ }).first().click();
  await expect(page.getByRole('status').filter({ hasText: /^(No unpublished changes|Draft saved|Editing…)$/ })).toBeVisible();
  await page.getByRole('button', { name: /^1\. / }).click();
  await page
    .getByLabel(/^Heading/)
    .first()
    .fill(text);
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
}

test('an editor’s change is sent back with a comment, changed, asked again, and published by an admin', async ({ browser }) => {
  test.setTimeout(150_000);
  const maria = await signIn(browser, EDITOR);
  await changeHomeHeading(maria, 'Spring is here');

  await maria.getByRole('button', { name: /Review and publish/ }).click();
  await expect(maria.getByRole('button', { name: 'Ask for review' })).toBeEnabled();
  await expect(maria.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0);
  await maria.getByLabel('Note for the reviewer (optional)').fill('A spring headline for the home page');
  await maria.getByRole('button', { name: 'Ask for review' }).click();
  await expect(maria.getByText('Asked for review: an admin will publish your changes or send them back with a comment.')).toBeVisible();

  const ana = await signIn(browser, ADMIN);
  await ana.getByRole('button', { name: 'Review requests (1)' }).click();
  const request = ana.getByRole('article', { name: 'Home' });
  await expect(request.getByLabel('Note from the editor')).toHaveText('A spring headline for the home page');
  // The change as the form names it, before and after; the file's lines one click away.
  await expect(request.getByText('Home › Hero › Heading', { exact: true })).toBeVisible();
  await expect(request.locator('ins')).toContainText('Spring is here');
  await expect(request.getByText('Show the file’s lines')).toBeVisible();
  await expect(request.locator('[data-diff="added"]')).toContainText('Spring is here');
  await expect(request.frameLocator('iframe[title="Preview of the page"]').getByRole('heading', { level: 1 })).toHaveText('Spring is here');
  expect(await axeViolations(ana)).toEqual([]);
  await request.getByLabel(`Comment for ${EDITOR}`).fill('Which spring? Name the year, please.');
  await request.getByRole('button', { name: 'Send back with comment' }).click();
  await expect(ana.getByText(`Sent back to ${EDITOR} with your comment.`)).toBeVisible();
  expect(studio.read(HOME)).not.toContain('Spring is here');

  // The editor sees the comment beside the draft, changes it and asks again.
  await maria.reload();
  await changeHomeHeading(maria, 'Spring 2027 is here');
  await expect(maria.getByRole('note', { name: 'Review comment' })).toContainText('Which spring? Name the year, please.');
  await expect(maria.getByRole('note', { name: 'Review comment' })).toContainText(`Sent back by ${ADMIN}`);
  await maria.getByRole('button', { name: /Review and publish/ }).click();
  await expect(maria.getByRole('note', { name: 'Review comment' })).toContainText('Which spring? Name the year, please.');
  expect(await axeViolations(maria)).toEqual([]);
  await maria.getByRole('button', { name: 'Ask for review' }).click();
  await expect(maria.getByText('Asked for review: an admin will publish your changes or send them back with a comment.')).toBeVisible();

  await ana.reload();
  await ana.getByRole('button', { name: 'Review requests (1)' }).click();
  await expect(ana.getByRole('article', { name: 'Home' }).locator('[data-diff="added"]')).toContainText('Spring 2027 is here');
  await ana.getByRole('button', { name: 'Approve and publish', exact: true }).click();
  await expect(ana.getByText('Published: Home.')).toBeVisible({ timeout: 90_000 });
  expect(studio.read(HOME)).toContain('Spring 2027 is here');
  const commit = studio.git('log', '-1', '--format=%an%n%B');
  expect(commit).toContain(ADMIN);
  expect(commit).toContain(`Asked for by ${EDITOR}; approved by ${ADMIN}.`);
  await expect(ana.getByText('No changes are waiting for review.')).toBeVisible();
});

test('a publish scheduled half a minute ahead happens after the studio is restarted', async ({ browser }) => {
  test.setTimeout(240_000);
  const ana = await signIn(browser, ADMIN);
  await changeHomeHeading(ana, 'Summer is coming');
  await ana.getByRole('button', { name: /Review and publish/ }).click();
  await expect(ana.getByText('Times are UTC.')).toBeVisible();
  // The studio's time zone is UTC: half a minute from now, to the second. That leaves room to
  // schedule and restart the studio before the time comes, on a busy machine too, and the test
  // waits for that half minute in real time.
  const at = new Date(Date.now() + 30_000).toISOString().slice(0, 19);
  await ana.getByLabel('Publish at').fill(at);
  await ana.getByRole('button', { name: 'Schedule publish' }).click();
  await expect(ana.getByRole('status').filter({ hasText: /^Scheduled: Home — .* \(UTC\)\.$/ })).toBeVisible();
  // Shown as scheduled, not offered for publishing again.
  await expect(ana.getByRole('region', { name: 'Scheduled to go live' })).toContainText(/Home: .* \(UTC\), scheduled by Ana/);

  const commits = () => Number(studio.git('rev-list', '--count', 'HEAD'));
  const before = commits();
  await studio.restart();
  expect(studio.read(HOME)).not.toContain('Summer is coming');
  // Published (its commit is the last step) by the restarted studio, at its time.
  await expect.poll(commits, { timeout: 180_000, intervals: [1_000] }).toBe(before + 1);
  expect(studio.read(HOME)).toContain('Summer is coming');
  expect(studio.git('log', '-1', '--format=%an')).toBe(`${ADMIN}\n`);

  // The session lives in the lead store: still signed in, and nothing is waiting any more.
  await expect.poll(() => studio.scheduleStatuses()).toEqual(['published']);
  await ana.reload();
  await ana.getByRole('button', { name: /Review and publish/ }).click();
  await expect(ana.getByRole('heading', { level: 1, name: 'Review and publish' })).toBeVisible();
  await expect(ana.getByRole('region', { name: 'Scheduled to go live' })).toHaveCount(0);
});
