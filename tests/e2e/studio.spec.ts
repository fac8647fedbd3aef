// The content studio, used as a non-developer would: change the home headline and publish, add an
// FAQ question, reorder blocks, add a page from a copy and link it in the navigation, upload a
// picture, leave a required field empty, keep a page as a draft, a file changed on disk while open,
// undo a publish. The journeys run in order against one copy of the checkout (studio/testing/running-studio.ts),
// with the site's own server running on that copy, so a publish is seen the way a visitor would see it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { Jimp } from 'jimp';
import { parse } from 'yaml';
import { formatRoiResult } from '../../forms/roi/format.ts';
import { calculateRoi } from '../../lead/roi/engine.ts';
import { buildRoiParameters, type RoiParametersContent } from '../../lead/roi/parameters.ts';
import { SAMPLE_VISITORS } from '../../studio/app/roi-samples.ts';
import { startSite, startStudio, type RunningSite, type RunningStudio } from '../../studio/testing/running-studio.ts';

test.describe.configure({ mode: 'serial' });
// Publishing builds the whole site (several seconds on two cores).
test.setTimeout(120_000);

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

/** The save status a file shows once it is open. */
const FILE_OPENED = /^(No unpublished changes|Draft saved|Editing…)$/;

async function openFile(page: Page, title: string | RegExp) {
  await page.goto(studio.url);
  await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: title }).first().click();
  await expect(page.getByRole('status').filter({ hasText: FILE_OPENED })).toBeVisible();
}

/** A page's address, search title and description wait closed under "Page settings": open them. */
async function openPageSettings(page: Page) {
  await page.locator('summary', { hasText: 'Page settings' }).click();
}

async function waitForDraftSaved(page: Page) {
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
}

async function publish(page: Page) {
  await page.getByRole('button', { name: /Review and publish/ }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText(/^Published: /)).toBeVisible({ timeout: 60_000 });
}

/** Discard changes, confirming the question the studio asks first. */
async function discardChanges(page: Page) {
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No unpublished changes' })).toBeVisible();
}

const preview = (page: Page) => page.frameLocator('iframe[title="Preview of the page"]');
const builtHtml = (route: string) =>
  readFileSync(path.join(studio.root, 'dist', 'client', route === '/' ? 'index.html' : `${route.slice(1)}/index.html`), 'utf8');

test('change the home headline: the preview follows as you type; publishing builds it, the diff is that one line, comments stay', async ({
  page,
}) => {
  const before = studio.read('content/pages/home.yaml');
  await openFile(page, /^Home/);
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
  // The running site serves the new build without a restart.
  await expect.poll(async () => (await site.get('/')).text, { timeout: 5_000 }).toContain('Grow faster with AI that answers every call');
  expect(studio.git('log', '-1', '--format=%s')).toMatch(/^Publish /);
  expect(studio.git('log', '-1', '--format=%an')).not.toBe('');
});

test('add an FAQ question and reorder blocks: the YAML gets the new question and the new order', async ({ page }) => {
  await openFile(page, /^FAQs/);
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

test('add a page copied from another and link it in the navigation: published, built and served', async ({ page }) => {
  await page.goto(studio.url);
  const navigator = page.getByRole('navigation', { name: 'Content' });
  await navigator.getByRole('button', { name: 'New page' }).click();
  await navigator.getByLabel(/^Name/).fill('spring-offer');
  await navigator.getByLabel('Start from').selectOption({ label: 'A copy of Turn AI Into Measurable Profit Within 90 Days' });
  await navigator.getByRole('button', { name: 'Create page' }).click();
  await expect(page.getByRole('main').getByText('/spring-offer', { exact: true })).toBeVisible();
  await openPageSettings(page);
  await page.getByLabel(/^Search title/).fill('Spring Offer | Premier AI Consulting');
  // A copy starts as a draft; this one goes live.
  await page.getByRole('checkbox', { name: 'Draft' }).uncheck();
  await waitForDraftSaved(page);

  await navigator.getByRole('link', { name: 'Site settings' }).click();
  const navigation = page.getByRole('region', { name: /^Navigation/ });
  await navigation.getByRole('button', { name: /^Add / }).click();
  const link = navigation.locator('li[data-item]').last();
  await link.getByLabel(/^Label/).fill('Spring offer');
  await link.getByLabel(/^Link/).fill('/spring-offer');
  await expect(preview(page).getByRole('link', { name: 'Spring offer' }).first()).toBeAttached();
  await waitForDraftSaved(page);

  await publish(page);
  expect(parse(studio.read('content/pages/spring-offer.yaml'))).toMatchObject({
    path: '/spring-offer',
    title: 'Spring Offer | Premier AI Consulting',
  });
  expect(studio.read('content/pages/spring-offer.yaml')).not.toMatch(/^draft:/m);
  // The running server looks for a new build every second.
  await expect.poll(async () => (await site.get('/spring-offer')).status, { timeout: 5_000 }).toBe(200);
  expect((await site.get('/spring-offer')).text).toContain('<title>Spring Offer | Premier AI Consulting</title>');
  expect((await site.get('/')).text).toContain('href="/spring-offer"');
  expect(studio.git('log', '-1', '--format=%B')).toMatch(/spring-offer/);
});

test('a new page kept as a draft: previewable in the studio, absent from the live site and the sitemap', async ({ page }) => {
  await page.goto(studio.url);
  const navigator = page.getByRole('navigation', { name: 'Content' });
  await navigator.getByRole('button', { name: 'New page' }).click();
  await navigator.getByLabel(/^Name/).fill('coming-soon');
  await navigator.getByRole('button', { name: 'Create page' }).click();
  await openPageSettings(page);
  await expect(page.getByRole('checkbox', { name: 'Draft' })).toBeChecked();
  await page.getByRole('button', { name: /^1\. Hero/ }).click();
  await page
    .getByLabel(/^Heading/)
    .first()
    .fill('Something new is coming');
  await expect(preview(page).getByRole('heading', { level: 1 })).toHaveText('Something new is coming');
  await waitForDraftSaved(page);

  await publish(page);
  expect(parse(studio.read('content/pages/coming-soon.yaml'))).toMatchObject({ draft: true });
  await expect.poll(async () => (await site.get('/sitemap.xml')).text, { timeout: 5_000 }).toContain('/spring-offer');
  expect((await site.get('/coming-soon')).status).toBe(404);
  expect((await site.get('/sitemap.xml')).text).not.toContain('/coming-soon');
  expect((await site.get('/sitemap.xml')).text).toContain('/spring-offer');
  // Still there to work on.
  await openFile(page, /^Something new is coming/);
  await expect(preview(page).getByRole('heading', { level: 1 })).toHaveText('Something new is coming');
});

test('upload a picture and use it: stored web-ready, its size known to the build, alt text required', async ({ page }) => {
  await openFile(page, /^About/);
  await page.getByRole('button', { name: /^\d+\. Team/ }).click();
  const member = page
    .getByRole('region', { name: /^Members/ })
    .locator('li[data-item]')
    .first();
  await member.getByRole('button', { name: 'Change picture' }).click();
  const upload = member.getByLabel(/^Upload a picture/);

  // An SVG (which can carry script) is refused, whatever its name says.
  await upload.setInputFiles({
    name: 'portrait.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await expect(member.getByRole('alert')).toContainText(/SVG|not a PNG, JPEG or WebP/);

  const picture = new Jimp({ width: 2400, height: 1600, color: 0x4f46e5ff });
  await upload.setInputFiles({ name: 'Sarah Chen portrait.png', mimeType: 'image/png', buffer: await picture.getBuffer('image/png') });
  const thumbnail = member.locator('img').first();
  await expect(thumbnail).toHaveAttribute('src', /^\/images\/uploads\/sarah-chen-portrait[\w-]*\.png$/, { timeout: 20_000 });
  const src = (await thumbnail.getAttribute('src'))!;
  const alt = member.getByLabel(/^Description/);
  await alt.fill('');
  await waitForDraftSaved(page);
  await expect(alt).toHaveAttribute('aria-invalid', 'true');
  await alt.fill('Sarah Chen in the office');
  await expect(preview(page).locator(`img[src="${src}"]`)).toBeAttached();
  await waitForDraftSaved(page);

  await publish(page);
  const stored = await Jimp.read(path.join(studio.root, 'public', src));
  expect([stored.width, stored.height]).toEqual([1600, 1067]);
  await expect.poll(async () => (await site.get('/about')).text, { timeout: 5_000 }).toContain(src);
  const about = (await site.get('/about')).text;
  expect(about).toMatch(new RegExp(`<img[^>]*src="${src}"[^>]*alt="Sarah Chen in the office"[^>]*width="1600"[^>]*height="1067"`));
  // The server serves files the new build added once it has read the build's file list (within a second).
  await expect.poll(async () => (await site.get(src)).status, { timeout: 5_000 }).toBe(200);
  // The picture is committed with the page that uses it, so a fresh clone builds.
  expect(studio.git('show', '--name-only', '--format=', 'HEAD').split('\n')).toContain(`public${src}`);
});

test('the preview and the form follow each other: opening a block scrolls the preview to it, clicking a block opens it', async ({
  page,
}) => {
  await openFile(page, /^Contact/);
  const blocks = page.getByRole('region', { name: /^Blocks/ });
  const last = blocks.locator(':scope > ol > li[data-item]').last();
  await last.locator('[data-item-heading]').click();
  const lastIndex = Number(await last.getAttribute('data-item'));
  const frame = preview(page);
  await expect(frame.locator(`[data-studio-block="${lastIndex}"] > *`).first()).toHaveAttribute('data-studio-selected', '');
  await expect.poll(() => frame.locator('html').evaluate(() => window.scrollY)).toBeGreaterThan(100);

  // Back at the top of the preview, a click on the first block opens it in the form, with focus on it.
  await frame
    .locator('[data-studio-block="0"] > *')
    .first()
    .click({ position: { x: 20, y: 20 } });
  const first = blocks.locator('li[data-item="0"] [data-item-heading]');
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await expect(first).toBeFocused();
  await expect(last.locator('[data-item-heading]')).toHaveAttribute('aria-expanded', 'false');
});

test('script written into content is shown as text in the studio and its preview, never run', async ({ page }) => {
  const attack = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
  // A page no link names: the navigator names it by its first heading, the editor by its title.
  const original = studio.read('content/pages/thankyou.yaml');
  studio.write(
    'content/pages/thankyou.yaml',
    original.replace(/^title: .*$/m, `title: '${attack}'`).replace(/^ {4}heading: .*$/m, `    heading: '${attack}'`),
  );
  try {
    await page.goto(studio.url);
    await expect(page.getByRole('navigation', { name: 'Content' }).getByText(attack)).toBeVisible();
    await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: attack }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(attack);
    await page.getByRole('button', { name: /^1\. / }).click();
    await page
      .getByLabel(/^Heading/)
      .first()
      .fill(attack);
    await expect(preview(page).getByRole('heading', { level: 1 })).toHaveText(attack);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(
      await preview(page)
        .locator('html')
        .evaluate(() => (window as { __pwned?: number }).__pwned),
    ).toBeUndefined();
  } finally {
    await page
      .getByRole('button', { name: 'Discard changes' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    studio.write('content/pages/thankyou.yaml', original);
  }
});

test('keyboard only: add a block from the palette (it opens with the schema’s example) and move it up; the preview shows it', async ({
  page,
}) => {
  await openFile(page, /^Services/);
  const blocks = page.getByRole('region', { name: /^Blocks/ });
  const before = await blocks.locator(':scope > ol > li[data-item]').count();
  await blocks.getByRole('button', { name: 'Add a block' }).focus();
  await page.keyboard.press('Enter');
  await page
    .getByRole('list', { name: 'Block types' })
    .getByRole('button', { name: /^Statistics/ })
    .focus();
  await page.keyboard.press('Enter');
  // Focus lands on the new block, opened, with the schema's example as its content.
  const added = blocks.locator(`li[data-item="${before}"] [data-item-heading]`).first();
  await expect(added).toBeFocused();
  await expect(added).toHaveAttribute('aria-expanded', 'true');
  await expect(
    blocks
      .locator(`li[data-item="${before}"]`)
      .getByLabel(/^Value/)
      .first(),
  ).not.toHaveValue('');
  await page.keyboard.press('Tab'); // ↑ (move up)
  await expect(page.getByRole('button', { name: `Move ${before + 1}. Statistics up` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(blocks.locator(`li[data-item="${before - 1}"] [data-item-heading]`).first()).toHaveText(
    new RegExp(`^${before}\\. Statistics`),
  );
  await expect(preview(page).locator(`[data-studio-block="${before - 1}"]`)).toBeAttached();
  await waitForDraftSaved(page);
  await discardChanges(page);
});

test('the ROI numbers: the visitor examples beside them are worked out again as a number changes', async ({ page }) => {
  await openFile(page, 'ROI calculator numbers');
  const example = page.getByRole('region', { name: 'What the calculator tells visitors' });
  const firstRoi = example.getByRole('row').nth(1).getByRole('cell').last();
  const roi = parse(studio.read('content/roi.yaml')) as RoiParametersContent;
  const expected = (content: RoiParametersContent) =>
    formatRoiResult(calculateRoi(SAMPLE_VISITORS[0]!.inputs, buildRoiParameters(content))).roi;
  await expect(firstRoi).toHaveText(expected(roi));
  await page.getByLabel(/^Investment/).fill(String(roi.investmentUsd * 2));
  await expect(firstRoi).toHaveText(expected({ ...roi, investmentUsd: roi.investmentUsd * 2 }));
  await page.getByLabel(/^Investment/).fill('');
  await expect(example.getByRole('status')).toContainText('No example until the numbers are complete');
  await page.getByLabel(/^Investment/).fill(String(roi.investmentUsd));
  await expect(firstRoi).toHaveText(expected(roi));
  await expect(page.getByRole('status').filter({ hasText: FILE_OPENED })).toHaveText(/No unpublished changes|Editing…/);
});

test('a required field left empty: the plain message beside it, and Publish refused', async ({ page }) => {
  await openFile(page, /^About/);
  await openPageSettings(page);
  const title = page.getByLabel(/^Search title/);
  await title.fill('');
  await waitForDraftSaved(page);
  await expect(page.getByText('A title is needed here: write one.').first()).toBeVisible();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: /Review and publish/ }).click();
  await expect(page.getByText('Publishing is not possible yet:')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeDisabled();
  // Put it back, so later journeys can publish.
  await page.getByRole('link', { name: 'Edit' }).first().click();
  await discardChanges(page);
});

test('Review and publish opened straight after typing: the edit is saved first, then shown and publishable', async ({ page }) => {
  await openFile(page, /^About/);
  await openPageSettings(page);
  await page.getByLabel(/^Search title/).fill('About Premier AI, the people');
  // No pause for the autosave: the review screen must send the edit and wait for it.
  await page.getByRole('button', { name: /Review and publish/ }).click();
  // The file is named as the page list names it; its diff holds the title just typed.
  await expect(page.getByRole('heading', { level: 2, name: /^About/ })).toBeVisible();
  await expect(page.locator('[data-diff="added"]')).toContainText('About Premier AI, the people');
  await expect(page.getByText('There are no unpublished changes.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: /Review and publish \(1\)/ })).toBeVisible();
  // Put it back, so later journeys start from the shipped text.
  await page.getByRole('link', { name: 'Edit' }).first().click();
  await discardChanges(page);
});

test('the studio is usable with axe-core clean at 1280 px and 390 px', async ({ page }) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${studio.url}/?file=content/pages/contact.yaml`);
    await expect(page.getByRole('status').filter({ hasText: FILE_OPENED })).toBeVisible();
    const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target}`)).toEqual([]);
  }
});

test('a file changed on disk while open: the studio says so and offers reload or keep both', async ({ page }) => {
  await openFile(page, /^Testimonials/);
  const original = studio.read('content/pages/testimonials.yaml');
  studio.write('content/pages/testimonials.yaml', `${original}# changed by a git pull\n`);
  await openPageSettings(page);
  await page.getByLabel(/^Search title/).fill('What our clients say about us');
  await expect(page.getByText(/was changed by someone else/)).toBeVisible({ timeout: 10_000 });
  await page.getByRole('button', { name: /Keep both/ }).click();
  await expect(page).toHaveURL(/file=content%2Fpages%2Ftestimonials-copy\.yaml/);
  await openPageSettings(page);
  await expect(page.getByLabel(/^Search title/)).toHaveValue('What our clients say about us');
  expect(readdirSync(path.join(studio.root, '.studio', 'drafts'))).toContain('content__pages__testimonials-copy.yaml.json');
  expect(studio.read('content/pages/testimonials.yaml')).toBe(`${original}# changed by a git pull\n`);
});

test('two tabs on one page: the second is told, and neither loses its work', async ({ page, context }) => {
  const other = await context.newPage();
  await openFile(page, /^Terms of Service/);
  await openFile(other, /^Terms of Service/);
  await openPageSettings(page);
  await page.getByLabel(/^Search title/).fill('Terms of Service (first tab) | Premier AI');
  await waitForDraftSaved(page);
  await openPageSettings(other);
  await other.getByLabel(/^Search description/).fill('The second tab wrote this description, which is long enough to be valid here.');
  await expect(other.getByText(/saved by .* in another tab or by another person/)).toBeVisible({ timeout: 10_000 });
  // The second tab keeps its version as a copy; the first tab's draft stays as it was.
  await other.getByRole('button', { name: /Keep both/ }).click();
  await expect(other).toHaveURL(/terms-of-service-copy\.yaml/);
  await openPageSettings(other);
  await expect(other.getByLabel(/^Search description/)).toHaveValue(
    'The second tab wrote this description, which is long enough to be valid here.',
  );
  const first = await (await page.request.get(`${studio.url}/api/file?path=content/pages/terms-of-service.yaml`)).json();
  expect(first.data.title).toBe('Terms of Service (first tab) | Premier AI');
  await other.close();
});

test('undo the last publish: the picture change is gone from the files, the build and the live site', async ({ page }) => {
  await page.goto(studio.url);
  await page.getByRole('button', { name: /Review and publish/ }).click();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Undo last publish' }).click();
  await expect(page.getByText(/^The last publish was undone/)).toBeVisible({ timeout: 60_000 });
  expect(studio.read('content/pages/about.yaml')).toContain('src: /images/team/sarah-chen.svg');
  await expect.poll(async () => (await site.get('/about')).text, { timeout: 5_000 }).toContain('/images/team/sarah-chen.svg');
  // Earlier publishes stay.
  expect((await site.get('/')).text).toContain('Grow faster with AI that answers every call');
  expect(studio.git('log', '-1', '--format=%s')).toMatch(/^Undo /);
});
