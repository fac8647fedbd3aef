// Changes in the form's words, as a marketer reads them before publishing: the home page's heading
// edited, then the publish screen names it as the form does ("Home › Hero › Heading"), with what it
// said before and says after, the words that went and came marked, no file words anywhere on the
// screen, and the file's lines one click away. On a phone the Publish button is in sight at once.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';
import { jargonIn } from '../../studio/app/testing/plain-words.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

let studio: RunningStudio;
test.beforeAll(async () => {
  studio = await startStudio();
});
test.afterAll(async () => {
  await studio?.stop();
});

const NEW_HEADING = 'Grow faster with AI that answers every call';
const SHOTS = process.env.STUDIO_SCREENSHOTS;

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target}`);
}

async function editHomeHeading(page: Page) {
  await page.goto(studio.url);
  await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /^Home/ }).first().click();
  await page.getByRole('button', { name: /^1\. .*Transform Your Business/ }).click();
  await page
    .getByLabel(/^Heading/)
    .first()
    .fill(NEW_HEADING);
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
}

test('the publish screen says the change as the form names it, before and after, with the file’s lines one click away', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await editHomeHeading(page);
  await page.getByRole('button', { name: /Review and publish/ }).click();

  const panel = page.getByRole('region', { name: 'Review and publish' });
  const home = panel.getByRole('article').filter({ hasText: 'Home › Hero › Heading' });
  await expect(home.getByText('Home › Hero › Heading')).toBeVisible();
  // Rewritten whole: the old heading went, the new one came.
  await expect(home.locator('del')).toHaveText(/Transform Your Business with Premier AI/);
  await expect(home.locator('ins')).toHaveText(/Grow faster with AI that answers every call/);
  // A screen reader hears which words went and which came.
  await expect(home.locator('del')).toContainText('removed:');
  await expect(home.locator('ins')).toContainText('added:');
  expect(jargonIn(await panel.innerText())).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/changes-1280.png`, fullPage: true });

  // The file's lines, for whoever wants them: one click away.
  const lines = home.locator('[data-diff="added"]');
  await expect(lines).toBeHidden();
  await home.getByText('Show the file’s lines').click();
  await expect(lines).toBeVisible();
  await expect(lines).toContainText(`heading: ${NEW_HEADING}`);
  await expect(home.locator('[data-diff="removed"]')).toContainText('heading: Transform Your Business with Premier AI');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/changes-lines-1280.png`, fullPage: true });
});

test('on a phone, Publish is in sight without scrolling when there is one change', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(studio.url);
  await page.getByRole('button', { name: /Review and publish \(1\)/ }).click();
  await expect(page.getByText('Home › Hero › Heading')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeInViewport({ ratio: 1 });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/changes-390.png` });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/changes-390-full.png`, fullPage: true });
});

test('once published, the history says what that version changed in the form’s words', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(studio.url);
  await page.getByRole('button', { name: /Review and publish \(1\)/ }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText(/^Published: /)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await page
    .getByRole('list', { name: 'Publishes' })
    .locator('li[data-version="publish"]')
    .first()
    .getByRole('link', { name: /^Home/ })
    .click();
  const version = page.getByRole('region', { name: /^Home as published on / });
  await expect(version.getByText('Hero › Heading', { exact: true })).toBeVisible();
  await expect(version.locator('del')).toHaveText(/Transform Your Business with Premier AI/);
  await expect(version.locator('ins')).toHaveText(new RegExp(NEW_HEADING));
  expect(await axeViolations(page)).toEqual([]);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/version-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/version-390.png`, fullPage: true });
});

test('a picture changed shows as the two pictures, drawn by the studio, each with its description', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(studio.url);
  const about = 'content/pages/about.yaml';
  const { csrfToken } = (await (await page.request.get(`${studio.url}/api/session`)).json()) as { csrfToken: string };
  const opened = (await (await page.request.get(`${studio.url}/api/file?path=${about}`)).json()) as {
    data: unknown;
    revision: number;
    diskVersion: string;
  };
  const data = JSON.parse(
    JSON.stringify(opened.data)
      .replace('/images/team/sarah-chen.svg', '/images/team/priya-patel.svg')
      .replace('Portrait of Dr. Sarah Chen, Founder and CEO', 'Portrait of our founder at the Austin office'),
  ) as unknown;
  const saved = await page.request.put(`${studio.url}/api/file`, {
    headers: { 'x-csrf-token': csrfToken },
    data: { path: about, data, revision: opened.revision, diskVersion: opened.diskVersion },
  });
  expect(saved.ok()).toBe(true);

  await page.getByRole('button', { name: /Review and publish/ }).click();
  const change = page.getByRole('article').filter({ hasText: 'About' }).getByRole('listitem');
  await expect(change.getByText(/^About › Team › Members › Member 1 › /)).toBeVisible();
  await expect(change.locator('figcaption')).toHaveText([
    'Before: “Portrait of Dr. Sarah Chen, Founder and CEO”',
    'After: “Portrait of our founder at the Austin office”',
  ]);
  // The thumbnails are the pictures themselves, loaded from the studio.
  // Read once they had the time to arrive: a thumbnail shown an instant ago may still be loading.
  await expect
    .poll(() => change.locator('img').evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0)))
    .toEqual([true, true]);
  expect(jargonIn(await change.innerText())).toEqual([]);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/picture-1280.png`, fullPage: true });
});
