// The studio's content checks, used as an editor would meet them: each suggestion named beside the
// field it is about (a title too long for a search result, with the search result and the social
// card beside it; a picture described by its file name; a button that says "click here"; a heading
// that skips a level in an article), none of them stopping a publish; and a brand colour too light to
// read text on, an error that does stop it.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

let studio: RunningStudio;
test.beforeAll(async () => {
  studio = await startStudio();
});
test.afterAll(async () => {
  await studio?.stop();
});

async function openFile(page: Page, name: string | RegExp) {
  await page.goto(studio.url);
  await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name }).first().click();
  await expect(page.getByRole('status').filter({ hasText: /^(No unpublished changes|Draft saved|Editing…)$/ })).toBeVisible();
}

async function waitForDraftSaved(page: Page) {
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
}

/** The text a screen reader reads after a field's name: its messages, then its help. */
async function description(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | '),
  );
}

async function discardChanges(page: Page) {
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No unpublished changes' })).toBeVisible();
}

test('a title too long for search results: the suggestion beside it, the search result cut, and the card the build draws', async ({
  page,
}) => {
  await openFile(page, /^About/);
  // The search title waits closed under "Page settings", with how the page looks in search results.
  await page.locator('summary', { hasText: 'Page settings' }).click();
  const title = page.getByLabel(/^Search title/);
  await title.fill('Who we are, how we work, and why growing businesses choose us');
  await waitForDraftSaved(page);
  await expect.poll(() => description(title)).toMatch(/^Suggestion: This title is 85 characters as search results show it/);
  await expect(title).not.toHaveAttribute('aria-invalid', 'true');

  await page.getByText('Search result and social card').click();
  const result = page.locator('[data-search-result]');
  await expect(result).toContainText('Who we are, how we work, and why growing businesses choose …');
  await expect(page.getByText(/The title has 85 characters; about 60 are shown/)).toBeVisible();
  const card = page.getByRole('img', {
    name: 'The card drawn for this page: Who we are, how we work, and why growing businesses choose us',
  });
  await expect(card).toBeVisible();
  await expect.poll(() => card.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1200);

  // A suggestion does not stop a publish.
  await page.getByRole('button', { name: /Review and publish/ }).click();
  await expect(page.getByText('1 suggestion')).toBeVisible();
  await expect(page.getByText(/title: this title is 85 characters as search results show it/i)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeEnabled();
  await page.getByRole('link', { name: 'Edit' }).first().click();
  await discardChanges(page);
});

test('a picture described by its file name and a button that says "click here": each suggestion beside its field', async ({ page }) => {
  await openFile(page, /^About/);
  await page.getByRole('button', { name: /Meet Our Leadership Team/ }).click();
  const alt = page.getByLabel(/^Description/).first();
  await alt.fill('sarah-chen.svg');
  await waitForDraftSaved(page);
  await expect.poll(() => description(alt)).toMatch(/^Suggestion: This picture's description is a file name \("sarah-chen.svg"\)/);
  await expect(alt).not.toHaveAttribute('aria-invalid', 'true');

  // One block is open at a time: opening the call to action closes the team.
  await page.getByRole('button', { name: /Ready to See What AI Can Do/ }).click();
  const label = page.getByLabel(/^Label/).first();
  await label.fill('Click here');
  await waitForDraftSaved(page);
  await expect.poll(() => description(label)).toMatch(/^Suggestion: The link text "Click here" says nothing on its own/);
  await discardChanges(page);
});

test('an article heading that skips a level: the suggestion beside the article text', async ({ page }) => {
  await openFile(page, /^How AI Voice Agents Improve Customer Service/);
  const text = page.getByLabel(/^Article text/);
  await text.press('ControlOrMeta+End');
  await text.pressSequentially('\n\n#### Questions to ask a vendor\n');
  await waitForDraftSaved(page);
  await expect
    .poll(() => description(text))
    .toMatch(/Suggestion: The heading "Questions to ask a vendor" jumps from level 2 to level 4: use ###/);
  await discardChanges(page);
});

test('a brand colour too light for white text: the error beside the colour, and Publish refused', async ({ page }) => {
  await openFile(page, /^Site settings/);
  const primary = page.getByLabel(/^Primary$/).first();
  await primary.fill('#A5B4FC');
  await waitForDraftSaved(page);
  await expect.poll(() => description(primary)).toMatch(/contrast/i);
  await expect(primary).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: /Review and publish/ }).click();
  await expect(page.getByText('Publishing is not possible yet:')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeDisabled();
  await page.getByRole('link', { name: 'Edit' }).first().click();
  await discardChanges(page);
});
