// Security headers on every kind of response, and a site that works under its own
// Content-Security-Policy: any violation (a `securitypolicyviolation` event or a console "Refused to …")
// during hydration, client-side navigation, forms or toasts fails the test.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { bootModules } from '../../renderer/boot-loader.ts';
import { cspHash, findInlineScripts } from '../../scripts/seo/csp-manifest.ts';
import { CSP_MANIFEST_FILE, type CspManifest } from '../../content-model/load/build-files.ts';
import { isSameDocument, markDocument, ROUTES, waitForHydration } from './support.ts';

const distDir = path.resolve(import.meta.dirname, '../..', process.env.DIST_DIR ?? 'dist');
const manifest = JSON.parse(readFileSync(path.join(distDir, CSP_MANIFEST_FILE), 'utf8')) as CspManifest;

function directives(csp: string) {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );
}

test.describe('security headers', () => {
  test('every kind of response carries them', async ({ request }) => {
    const home = await (await request.get('/')).text();
    const asset = bootModules(home)[0]!;
    const responses = {
      page: await request.get('/'),
      'inner page': await request.get('/about'),
      asset: await request.get(asset),
      image: await request.get('/og/index.png'),
      sitemap: await request.get('/sitemap.xml'),
      'not-found page': await request.get('/no/such/page'),
      'missing asset': await request.get('/assets/missing.js'),
      'api not found': await request.get('/api/nothing'),
      'lead api, invalid': await request.post('/api/leads', { data: {} }),
      health: await request.get('/healthz'),
    };
    for (const [what, response] of Object.entries(responses)) {
      const headers = response.headers();
      expect(headers['content-security-policy'], what).toBeDefined();
      expect(headers['x-content-type-options'], what).toBe('nosniff');
      expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
      expect(headers['permissions-policy'], what).toMatch(/camera=\(\).*geolocation=\(\).*microphone=\(\).*payment=\(\).*usb=\(\)/);
      // The test build's SITE_URL is http: no HSTS (it would pin a plain-http origin).
      expect(headers['strict-transport-security'], what).toBe(
        manifest.siteUrl.startsWith('https://') ? expect.stringMatching(/^max-age=/) : undefined,
      );
    }
    expect(responses['not-found page'].status()).toBe(404);
    expect(responses['lead api, invalid'].status()).toBe(400);
  });

  test('the policy: scripts only from our origin plus the hashes of the inline scripts the build really emits', async ({ request }) => {
    const csp = directives((await request.get('/')).headers()['content-security-policy']!);
    // Hash every inline executable script of every route ourselves, so the policy is proven to cover them.
    const hashes = new Set<string>();
    for (const route of [...ROUTES.map((r) => r.path), '/no/such/page', '/blog/no-such-article']) {
      for (const script of findInlineScripts(await (await request.get(route)).text())) hashes.add(cspHash(script));
    }
    expect(csp.get('script-src')).toEqual(["'self'", ...[...hashes].sort()]);
    expect(manifest.scriptHashes).toEqual([...hashes].sort());
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('form-action')?.[0]).toBe("'self'");
    expect(csp.get('connect-src')?.[0]).toBe("'self'");
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('font-src')).toEqual(["'self'"]);
  });
});

/** Records CSP violations from the first byte on: the DOM event and Chromium's console message. */
async function watchCsp(page: Page) {
  const violations: string[] = [];
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}

test.describe('the site under its Content-Security-Policy', () => {
  test('hydration of every route, with no violation', async ({ page }) => {
    // Many pages in one journey.
    test.slow();
    const violations = await watchCsp(page);
    for (const route of ROUTES) {
      await page.goto(route.path);
      await waitForHydration(page);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    }
    await page.goto('/no/such/page');
    await waitForHydration(page);
    expect(violations).toEqual([]);
  });

  test('client-side navigation across every route, with no violation', async ({ page }) => {
    // Many pages in one journey.
    test.slow();
    const violations = await watchCsp(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await waitForHydration(page);
    await markDocument(page);
    for (const route of ROUTES.slice(1)) {
      // Through the router (not every route is in the menus): a history entry and popstate, as Back does.
      await page.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, route.path);
      await expect(page).toHaveURL(route.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    }
    expect(await isSameDocument(page), 'no full page load happened').toBe(true);
    expect(violations).toEqual([]);
  });

  test('forms and toasts: validation toast, a real submission to the relay and its toast, with no violation', async ({ page }) => {
    // Many pages in one journey.
    test.slow();
    const violations = await watchCsp(page);
    await page.goto('/contact');
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Send Us a Message' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();

    await form.getByLabel('Full Name').fill('Ada Lovelace');
    await form.getByLabel('Email', { exact: true }).fill('ada@analytical.example');
    await form.getByLabel('Phone', { exact: true }).fill('512-555-0147');
    await form.getByLabel('Service Interest').selectOption({ index: 1 });
    await form.getByLabel('Message', { exact: true }).fill('We would like an AI receptionist for after-hours calls.');
    const posted = page.waitForResponse((response) => response.url().endsWith('/api/leads') && response.request().method() === 'POST');
    await form.getByRole('button', { name: 'Send Message' }).click();
    expect((await posted).status()).toBeLessThan(500);
    await expect(page.locator('[data-sonner-toast]').last()).toBeVisible();

    // The ROI calculator draws a chart and the home form too.
    await page.goto('/calculator');
    await waitForHydration(page);
    await page.goto('/');
    await waitForHydration(page);
    expect(violations).toEqual([]);
  });
});
