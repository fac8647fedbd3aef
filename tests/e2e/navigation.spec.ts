import { expect, test } from '@playwright/test';
import { BOOKING_URL, isSameDocument, markDocument, site, waitForHydration } from './support.ts';

test('the top navigation lists its links in order and marks the current page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/about');
  await waitForHydration(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const links = nav.getByRole('link');
  const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  expect(hrefs.slice(0, 8)).toEqual(['/', '/about', '/services', '/voice-ai', '/blog', '/faqs', '/testimonials', '/contact']);
  await expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('link', { name: /home$/i }).first()).toHaveAttribute('href', '/');
});

test('links navigate client-side without reloading the document', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await waitForHydration(page);
  await markDocument(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const { label, href } of site.navigation.slice(1)) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(href);
    await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  expect(await isSameDocument(page)).toBe(true);
  const title = await page.title();
  await nav.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page).not.toHaveTitle(title);
  expect(await isSameDocument(page)).toBe(true);
});

test('"Calculate ROI" on the home page loads /calculator as a full page load', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  await markDocument(page);
  await page.getByRole('link', { name: 'Calculate ROI' }).first().click();
  await expect(page).toHaveURL('/calculator');
  await waitForHydration(page);
  expect(await isSameDocument(page)).toBe(false);
});

test('every booking link opens the booking page in a new tab, safely', async ({ page }) => {
  for (const path of ['/', '/services', '/faqs', '/testimonials', '/thankyou']) {
    await page.goto(path);
    const booking = page.locator(`a[href="${BOOKING_URL}"]`);
    expect(await booking.count(), `${path} has a booking link`).toBeGreaterThan(0);
    for (const link of await booking.all()) {
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  }
});

test('the footer has its links, the 2024 copyright, a social link and a mailto link', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  const hrefs = await footer.locator('a').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  for (const href of ['/', '/about', '/blog', '/testimonials', '/contact', '/privacy-policy', '/terms-of-service', '/disclaimer', '/faqs'])
    expect(hrefs).toContain(href);
  expect(hrefs).toContain(`mailto:${site.contact.email}`);
  expect(hrefs.some((h) => h?.startsWith('https://www.linkedin.com/'))).toBe(true);
  await expect(footer).toContainText('© 2024');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu opens and closes with "Toggle menu", closes on a link and on Escape', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    const toggle = page.getByRole('button', { name: 'Toggle menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await toggle.click();
    await expect(nav).toBeHidden();

    await toggle.click();
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await nav.getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL('/services');
    await expect(nav).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});
