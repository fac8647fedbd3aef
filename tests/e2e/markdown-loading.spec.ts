// Markdown text arrives as prerendered HTML and stays that HTML: blocks with Markdown are static, so
// the parser never reaches the browser, on a page load or after client-side navigation (which brings
// the next page's prerendered HTML). Links in that HTML navigate client-side.
import { expect, test, type Page } from '@playwright/test';
import { isSameDocument, markDocument, waitForHydration } from './support.ts';

/** Records which scripts load, by file name. */
function recordScripts(page: Page) {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('.js')) scripts.push(pathname);
  });
  return scripts;
}
const isParser = (file: string) => /\/MarkdownContent-[^/]+\.js$/.test(file);

test('a prerendered FAQ page starts without the Markdown parser, and its text stays', async ({ page }) => {
  const scripts = recordScripts(page);
  await page.goto('/faqs');
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
  expect(scripts.filter(isParser)).toEqual([]);
  const answer = page.locator('main details[open] p').first();
  await expect(answer).toContainText(/video call/);
});

test('after client-side navigation the text is the prerendered HTML, and the parser still does not load', async ({ page }) => {
  await page.goto('/faqs');
  await waitForHydration(page);
  const prerendered = await page.locator('main details').first().innerHTML();
  await page.goto('/');
  await waitForHydration(page);
  await markDocument(page);
  const scripts = recordScripts(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs', exact: true }).first().click();
  await expect(page).toHaveURL('/faqs');
  await expect(page.locator('main details').first().locator('p').first()).toContainText(/video call/);
  await waitForHydration(page);
  expect(scripts.filter(isParser)).toEqual([]);
  expect(await isSameDocument(page)).toBe(true);
  expect(await page.locator('main details').first().innerHTML()).toBe(prerendered);
});

test('a link inside Markdown HTML navigates client-side', async ({ page }) => {
  await page.goto('/faqs');
  await waitForHydration(page);
  await markDocument(page);
  await page.locator('main details').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
  await page.locator('main details a[href="/calculator"]').first().click();
  await expect(page).toHaveURL('/calculator');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('ROI');
  expect(await isSameDocument(page)).toBe(true);
});
