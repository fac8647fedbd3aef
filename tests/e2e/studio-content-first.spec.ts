// A page opens on its content: Home shows its blocks, its settings wait closed under "Page
// settings", its address "/" is shown but cannot be changed, the hero's sub-line is a box for
// several lines, and a link is pointed at a page of the site by the page's name. On a phone the
// studio's header is one line and the start screen says where the pages are.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';

test.describe.configure({ mode: 'serial' });

let studio: RunningStudio;
test.beforeAll(async () => {
  studio = await startStudio();
});
test.afterAll(async () => {
  await studio?.stop();
});

const FILE_OPENED = /^(No unpublished changes|Draft saved|Editing…)$/;
const HOME = 'content/pages/home.yaml';

async function openHome(page: Page) {
  await page.goto(studio.url);
  await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /^Home/ }).first().click();
  await expect(page.getByRole('status').filter({ hasText: FILE_OPENED })).toBeVisible();
}

/** The draft the studio holds for a file, as the server sends it to the form. */
async function draftOf(page: Page, file: string): Promise<Record<string, unknown>> {
  const answer = await page.request.get(`${studio.url}/api/file?path=${encodeURIComponent(file)}`);
  return ((await answer.json()) as { data: Record<string, unknown> }).data;
}

test('Home opens on its blocks, its settings closed; its address is shown but cannot be changed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openHome(page);
  // Named as the site's links name it, not by its search title.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
  const settings = page.locator('details', { has: page.locator('summary', { hasText: 'Page settings' }) });
  await expect(settings).not.toHaveAttribute('open');
  await expect(settings.locator('summary')).toContainText('Address, search title, search description');
  await expect(page.getByRole('textbox', { name: /^Search title/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: /^Blocks/ })).toBeInViewport();
  await expect(page.getByRole('button', { name: /^1\. .*Transform Your Business/ })).toBeInViewport();

  await settings.locator('summary').press('Enter');
  await expect(settings).toHaveAttribute('open');
  const address = page.getByRole('textbox', { name: /^Address/ });
  await expect(address).toHaveValue('/');
  await expect(address).toHaveAttribute('readonly');
  await expect(address).toHaveAccessibleDescription(/This is the home page: its address is always "\/"/);
  await address.press('End');
  await address.pressSequentially('home');
  await expect(address).toHaveValue('/');
  await expect(page.getByRole('button', { name: 'Change address' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: /^Search title/ })).toHaveValue(/Premier AI Consulting/);
  await expect(page.getByRole('status').filter({ hasText: 'No unpublished changes' })).toBeVisible();
});

test("the hero's sub-line is a box for several lines, and a button is pointed at a page by its name", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openHome(page);
  await page.getByRole('button', { name: /^1\. .*Transform Your Business/ }).click();
  const hero = page.getByRole('region', { name: /^Blocks/ }).locator(':scope > ol > li[data-item="0"]');
  const subLine = hero.getByRole('textbox', { name: /^Text/ });
  await expect(subLine).toHaveJSProperty('tagName', 'TEXTAREA');
  await subLine.fill('Voice agents that answer every call.\nAutomation that pays for itself.');

  const button = hero
    .getByRole('region', { name: /^Actions/ })
    .locator('li[data-item]')
    .first();
  const link = button.getByRole('group', { name: /^Link/ });
  await link.getByRole('radio', { name: 'A page of this site' }).check();
  await link.getByLabel('Which page').selectOption({ label: 'Contact' });
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect
    .poll(async () => {
      const blocks = (await draftOf(page, HOME)).blocks as { text?: string; actions?: { href: string }[] }[];
      return [blocks[0]!.text, blocks[0]!.actions![0]!.href];
    })
    .toEqual(['Voice agents that answer every call.\nAutomation that pays for itself.', '/contact']);

  // "Booking page" writes the word the site reads for the booking link.
  await link.getByRole('radio', { name: 'Booking page' }).check();
  await expect
    .poll(async () => ((await draftOf(page, HOME)).blocks as { actions?: { href: string }[] }[])[0]!.actions![0]!.href)
    .toBe('booking');

  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('Discard every unpublished change to "Home"?');
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No unpublished changes' })).toBeVisible();
});

test('on a phone the header is one line and the start screen says the pages are behind "Pages"', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(studio.url);
  const welcome = page.getByRole('main');
  await expect(welcome.getByText('Press “Pages” at the top to see the site’s pages')).toBeVisible();
  await expect(welcome.getByText(/on the left/)).toBeHidden();
  const header = page.getByRole('banner');
  const pages = header.getByRole('button', { name: 'Pages' });
  const publish = header.getByRole('button', { name: /Review and publish/ });
  const more = header.getByRole('button', { name: /^More/ });
  for (const button of [pages, publish, more]) await expect(button).toBeVisible();
  const boxes = await Promise.all([header, pages, publish, more].map(async (element) => (await element.boundingBox())!));
  expect(boxes[0]!.height).toBeLessThan(64);
  // One line: every button's middle at the same height (the main button is a little taller).
  const middles = boxes.slice(1).map((box) => box.y + box.height / 2);
  expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The rest of the header is one press away, and so are the pages.
  await more.click();
  await expect(header.getByRole('button', { name: 'History', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(header.getByRole('button', { name: 'History', exact: true })).toBeHidden();
  await expect(more).toBeFocused();
  await pages.click();
  await expect(page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /^Home/ }).first()).toBeVisible();

  // On a wide screen the pages are on the left, and the start screen says so.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(welcome.getByText('Choose a page on the left')).toBeVisible();
  await expect(welcome.getByText(/Press “Pages”/)).toBeHidden();
});

test('page settings, the link chooser and the header are axe-clean at 1280 px and 390 px', async ({ page }) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${studio.url}/?file=${encodeURIComponent(HOME)}`);
    await expect(page.getByRole('status').filter({ hasText: FILE_OPENED })).toBeVisible();
    await page.locator('summary', { hasText: 'Page settings' }).click();
    await page.getByRole('button', { name: /^1\. .*Transform Your Business/ }).click();
    const hero = page.getByRole('region', { name: /^Blocks/ }).locator(':scope > ol > li[data-item="0"]');
    await hero.locator('summary', { hasText: 'Advanced' }).first().click();
    if (width === 390) await page.getByRole('button', { name: /^More/ }).click();
    const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target}`)).toEqual([]);
  }
});
