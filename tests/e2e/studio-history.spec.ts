// The content studio's history, used as a non-developer would: the home headline published three
// times; the history lists the three publishes; the first one's page is drawn as it was in the
// preview, by the site's own renderer; restoring it makes a new commit (the later ones stay) and the
// live site, served by the site's own server on the same copy, shows the restored headline again.
import { expect, test, type Page } from '@playwright/test';
import { startSite, startStudio, type RunningSite, type RunningStudio } from '../../studio/testing/running-studio.ts';

test.describe.configure({ mode: 'serial' });
// Three publishes and a restore each build the whole site (several seconds each on two cores).
test.setTimeout(300_000);

let studio: RunningStudio;
let site: RunningSite;
test.beforeAll(async () => {
  studio = await startStudio();
  site = await startSite(studio.root);
});
test.afterAll(async () => {
  await site?.stop();
  await studio?.stop();
});

const HEADINGS = ['AI that answers every call this spring', 'Voice agents for every team this summer', 'Measurable profit within 90 days'];
const HOME = 'content/pages/home.yaml';

/** Changes the home page's first heading to `heading` and publishes it. */
async function publishHomeHeading(page: Page, heading: string) {
  await page.goto(`${studio.url}/?file=${encodeURIComponent(HOME)}`);
  await expect(page.getByRole('status').filter({ hasText: /^No unpublished changes$/ })).toBeVisible();
  await page.getByRole('button', { name: /^1\. / }).first().click();
  await page
    .getByLabel(/^Heading/)
    .first()
    .fill(heading);
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
  await page.getByRole('button', { name: /Review and publish/ }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText(/^Published: /)).toBeVisible({ timeout: 90_000 });
}

test('three publishes of the home page are listed; the first is previewed as it was and restored as a new publish', async ({ page }) => {
  for (const heading of HEADINGS) await publishHomeHeading(page, heading);
  const publishCommits = studio.git('log', '--format=%H', '-3').trim().split('\n');

  // The history, from the studio's header.
  await page.getByRole('button', { name: 'History', exact: true }).click();
  const publishes = page.getByRole('list', { name: 'Publishes' });
  const published = publishes.locator('li[data-version="publish"]');
  await expect(published).toHaveCount(3);
  for (const [index, commit] of publishCommits.entries()) {
    await expect(published.nth(index).getByRole('heading', { level: 2 })).toContainText('Published by');
    await expect(published.nth(index)).toContainText(`Commit ${commit.slice(0, 7)}`);
    await expect(published.nth(index).getByRole('link')).toHaveText(/^Home/);
  }
  // The content as shipped is a developer's commit, listed with its author.
  await expect(publishes.locator('li[data-version="commit"]')).toContainText('by Developer');

  // The oldest publish: its page as it was, drawn by the site's renderer, and how it differs from today.
  await published.nth(2).getByRole('link', { name: /^Home/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Home as published on / })).toBeVisible();
  const preview = page.frameLocator('iframe[title="Preview of this version"]');
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText(HEADINGS[0]!);
  // What that publish changed, in the form's words: the heading as shipped became its heading.
  await expect(page.getByText('Hero › Heading', { exact: true })).toBeVisible();
  await expect(page.locator('ins')).toContainText(HEADINGS[0]!);
  // The lines a restore changes, one click away.
  await expect(page.locator('[data-diff="added"]')).toBeHidden();
  await page.getByText('Show the file’s lines a restore changes').click();
  await expect(page.locator('[data-diff="removed"]')).toContainText(`heading: ${HEADINGS[2]}`);
  await expect(page.locator('[data-diff="added"]')).toContainText(`heading: ${HEADINGS[0]}`);

  // Restore, after saying yes to the question the studio asks first.
  let question = '';
  page.once('dialog', (dialog) => {
    question = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Restore this version' }).click();
  await expect(page.getByText(/^Restored: Home is live again/)).toBeVisible({ timeout: 90_000 });
  expect(question).toMatch(/^Restore “Home” as it was published on .*every later version stays in the history/);
  await expect(page.getByText(/This version is the same as the page today/)).toBeVisible();

  // A new commit, with the three publishes still in the log under it.
  const log = studio.git('log', '--format=%H %s', '-4').trim().split('\n');
  expect(log[0]).toMatch(/^[0-9a-f]{40} Restore Home as published \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  expect(log.slice(1).map((line) => line.split(' ')[0])).toEqual(publishCommits);
  expect(studio.read(HOME)).toBe(studio.git('show', `${publishCommits[2]}:${HOME}`));
  // The live site serves the restored headline.
  await expect.poll(async () => (await site.get('/')).text, { timeout: 10_000 }).toContain(HEADINGS[0]!);
  expect((await site.get('/')).text).not.toContain(HEADINGS[2]!);

  // From the page itself: its own history, the restore first.
  await page.getByRole('button', { name: /^Back to the history/ }).click();
  await expect(publishes.locator('li[data-version]').first()).toHaveAttribute('data-version', 'restore');
  await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /^Home/ }).first().click();
  await page.getByRole('button', { name: 'History of this page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'History of Home' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Versions' }).locator('li[data-version]')).toHaveCount(5);
});
