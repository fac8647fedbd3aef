import { expect, test } from '@playwright/test';
import { ROUTES, watchConsole, waitForHydration } from './support.ts';

test.describe('every route', () => {
  for (const route of ROUTES) {
    test(`${route.path} is prerendered: its main heading is in the raw HTML and it hydrates cleanly`, async ({ page, request }) => {
      const response = await request.get(route.path);
      expect(response.status()).toBe(200);
      const html = await response.text();
      const h1 =
        html
          .match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]
          ?.replace(/<[^>]+>/g, '')
          .trim() ?? '';
      expect(h1.length).toBeGreaterThan(0);
      if (typeof route.h1 === 'string') expect(h1).toContain(route.h1.replace(/'/g, '&#x27;'));
      else expect(h1).toMatch(route.h1);
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{50,}">/);
      expect(html).toContain('<link rel="canonical"');

      const messages = watchConsole(page);
      await page.goto(route.path);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      expect(messages, 'no console errors or hydration warnings').toEqual([]);
    });
  }

  test('titles are unique per route', async ({ request }) => {
    const titles = await Promise.all(
      ROUTES.map(async (r) => (await (await request.get(r.path)).text()).match(/<title>([^<]+)<\/title>/)?.[1]),
    );
    expect(new Set(titles).size).toBe(ROUTES.length);
  });
});

test.describe('not found', () => {
  test('an unknown address answers 404 with the 404 page and logs the missing path', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.locator('main p', { hasText: /^404$/ })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Oops! Page not found');
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(errors.some((e) => e.includes('/no/such/page'))).toBe(true);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL('/');
  });

  test('an unknown article answers 404 with "Article Not Found" and a way back', async ({ page, request }) => {
    const raw = await request.get('/blog/no-such-article');
    expect(raw.status()).toBe(404);
    expect(await raw.text()).toContain('Article Not Found');
    await page.goto('/blog/no-such-article');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Article Not Found');
    await page.getByRole('link', { name: 'Back to Blog' }).first().click();
    await expect(page).toHaveURL('/blog');
  });

  test('client-side navigation to an unknown article shows "Article Not Found" too', async ({ page }) => {
    await page.goto('/blog');
    await waitForHydration(page);
    await page.evaluate(() => {
      window.history.pushState({}, '', '/blog/missing-one');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Article Not Found');
  });
});
