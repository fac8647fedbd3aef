// The content studio, used as a non-developer would: change the home headline and publish, add an
// FAQ question, reorder blocks, add a page from a copy and link it in the navigation, upload a
// picture, leave a required field empty, keep a page as a draft, a file changed on disk while open,
// undo a publish. Each journey runs against its own copy of the checkout (tests/e2e/studio-support.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { parse } from 'yaml';
import { startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';

test.describe.configure({ mode: 'serial' });
// Publishing builds the whole site (several seconds on two cores).
test.setTimeout(120_000);

let studio: RunningStudio;
test.beforeAll(async () => {
  studio = await startStudio();
});
test.afterAll(async () => studio?.stop());

async function openFile(page: Page, title: string | RegExp) {
  await page.goto(studio.url);
  await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: title }).first().click();
  await expect(page.getByRole('status').filter({ hasText: /Draft saved|Editing/ })).toBeVisible();
}

async function waitForDraftSaved(page: Page) {
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
}

async function publish(page: Page) {
  await page.getByRole('button', { name: /Review and publish/ }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText(/^Published: /)).toBeVisible({ timeout: 60_000 });
}

const preview = (page: Page) => page.frameLocator('iframe[title="Preview of the page"]');
const builtHtml = (route: string) =>
  readFileSync(path.join(studio.root, 'dist', 'client', route === '/' ? 'index.html' : `${route.slice(1)}/index.html`), 'utf8');

test('change the home headline: the preview follows as you type; publishing builds it, the diff is that one line, comments stay', async ({
  page,
}) => {
  const before = studio.read('content/pages/home.yaml');
  await openFile(page, /^Home|AI Consulting & Voice Agents/);
  await page.getByRole('button', { name: /^1\. .*Transform Your Business/ }).click();
  const heading = page.getByLabel(/^Heading/).first();
  await heading.fill('Grow faster with AI that answers every call');
  await expect(preview(page).getByRole('heading', { level: 1 })).toHaveText('Grow faster with AI that answers every call');
  await waitForDraftSaved(page);
  // Nothing is live before publishing.
  expect(studio.read('content/pages/home.yaml')).toBe(before);

  await page.getByRole('button', { name: /Review and publish/ }).click();
  const added = page.locator('[data-diff="added"]');
  const removed = page.locator('[data-diff="removed"]');
  await expect(added).toHaveCount(1);
  await expect(removed).toHaveCount(1);
  await expect(added).toContainText('heading: Grow faster with AI that answers every call');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText(/^Published: /)).toBeVisible({ timeout: 60_000 });

  const after = studio.read('content/pages/home.yaml');
  expect(after).toBe(
    before.replace('heading: Transform Your Business with Premier AI', 'heading: Grow faster with AI that answers every call'),
  );
  expect(after.split('\n').filter((line) => line.trimStart().startsWith('#'))).toEqual(
    before.split('\n').filter((line) => line.trimStart().startsWith('#')),
  );
  expect(builtHtml('/')).toContain('Grow faster with AI that answers every call');
  expect(studio.git('log', '-1', '--format=%s')).toMatch(/^Publish /);
});

test('add an FAQ question and reorder blocks: the YAML gets the new question and the new order', async ({ page }) => {
  await openFile(page, 'Frequently Asked Questions | Premier AI Consulting');
  const blocks = page.getByRole('region', { name: /^Blocks/ });
  await blocks.getByRole('button', { name: /^\d+\. Questions and answers/ }).click();
  const firstCategory = page.getByRole('region', { name: /^Items/ }).first();
  await firstCategory.getByRole('button', { name: 'Add item' }).click();
  const newQuestion = firstCategory.locator('li[data-item]').last();
  await newQuestion.getByLabel(/^Question/).fill('Do you work with small teams?');
  await newQuestion.getByLabel(/^Answer/).fill('Yes: most of our clients have fewer than 50 people.');
  await expect(preview(page).getByText('Do you work with small teams?')).toBeVisible();
  // Move the first block down with the keyboard.
  await page.getByRole('button', { name: /^Move 1\. .* down$/ }).focus();
  await page.keyboard.press('Enter');
  await waitForDraftSaved(page);
  const draft = await (await page.request.get(`${studio.url}/api/file?path=content/pages/faqs.yaml`)).json();
  const data = draft.data as { blocks: { type: string; categories?: { items: { question: string }[] }[] }[] };
  const original = parse(studio.read('content/pages/faqs.yaml')) as typeof data;
  expect(data.blocks.map((block) => block.type)).toEqual([
    original.blocks[1]!.type,
    original.blocks[0]!.type,
    ...original.blocks.slice(2).map((block) => block.type),
  ]);
  const faqBlock = data.blocks.find((block) => block.type === 'faq-list')!;
  expect(faqBlock.categories![0]!.items.at(-1)!.question).toBe('Do you work with small teams?');
});

test('a required field left empty: the plain message beside it, and Publish refused', async ({ page }) => {
  await openFile(page, /^About/);
  const title = page.getByLabel(/^Title/).first();
  await title.fill('');
  await waitForDraftSaved(page);
  await expect(page.getByText('This must not be empty.').first()).toBeVisible();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: /Review and publish/ }).click();
  await expect(page.getByText('Publishing is not possible yet:')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeDisabled();
  // Put it back, so later journeys can publish.
  await page.getByRole('link', { name: 'Edit' }).first().click();
  await page.getByRole('button', { name: 'Discard changes' }).click();
});

test('the studio is usable with axe-core clean at 1280 px and 390 px', async ({ page }) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${studio.url}/?file=content/pages/contact.yaml`);
    await expect(page.getByText(/Draft saved|Editing/)).toBeVisible();
    const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target}`)).toEqual([]);
  }
});

test('a file changed on disk while open: the studio says so and offers reload or keep both', async ({ page }) => {
  await openFile(page, /^Testimonials|Client/);
  const original = studio.read('content/pages/testimonials.yaml');
  studio.write('content/pages/testimonials.yaml', `${original}# changed by a git pull\n`);
  await page
    .getByLabel(/^Title/)
    .first()
    .fill('What our clients say about us');
  await expect(page.getByText(/changed on disk/)).toBeVisible({ timeout: 10_000 });
  await page.getByRole('button', { name: /Keep both/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('What our clients say about us');
  expect(existsSync(path.join(studio.root, '.studio', 'drafts', 'content__pages__testimonials-copy.yaml.json'))).toBe(true);
  expect(studio.read('content/pages/testimonials.yaml')).toBe(`${original}# changed by a git pull\n`);
});

test('undo the last publish: the headline is back, in the files and in the build', async ({ page }) => {
  await page.goto(studio.url);
  await page.getByRole('button', { name: /Review and publish/ }).click();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Undo last publish' }).click();
  await expect(page.getByText(/^The last publish was undone/)).toBeVisible({ timeout: 60_000 });
  expect(studio.read('content/pages/home.yaml')).toContain('heading: Transform Your Business with Premier AI');
  expect(builtHtml('/')).toContain('Transform Your Business with Premier AI');
});
