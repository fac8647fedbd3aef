// Shared helpers for the browser journeys: content facts, console capture, reload detection.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../..');
type SiteYaml = { navigation: { label: string; href: string }[]; bookingUrl: string; contact: { email: string; phoneHref: string } };
export const site = parse(readFileSync(path.join(root, 'content/site.yaml'), 'utf8')) as SiteYaml;
/** The booking page the build used: BOOKING_URL wins over site.yaml. */
export const BOOKING_URL = process.env.BOOKING_URL || site.bookingUrl;

export const ROUTES: { path: string; h1: RegExp | string }[] = [
  { path: '/', h1: 'Transform Your Business with Premier AI' },
  { path: '/calculator', h1: /ROI/ },
  { path: '/about', h1: /./ },
  { path: '/services', h1: /./ },
  { path: '/voice-ai', h1: /./ },
  { path: '/blog', h1: /./ },
  { path: '/blog/what-is-ai-consulting', h1: /AI Consulting/ },
  { path: '/faqs', h1: /./ },
  { path: '/testimonials', h1: /./ },
  { path: '/contact', h1: /./ },
  { path: '/disclaimer', h1: 'Disclaimer' },
  { path: '/privacy-policy', h1: 'Privacy Policy' },
  { path: '/terms-of-service', h1: 'Terms of Service' },
  { path: '/thankyou', h1: /./ },
  { path: '/ai-transformation', h1: /./ },
];

/** Collects console errors and warnings (hydration mismatches are reported there). */
export function watchConsole(page: Page) {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') messages.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  return messages;
}

/** Marks the current document; the mark survives client-side navigation but not a full page load. */
export async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
}

export async function isSameDocument(page: Page) {
  return page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
}

/**
 * Waits until the page is interactive: the page shell marks <html> once the islands on screen have
 * hydrated. Islands further down hydrate as they come near the screen, and forms when the visitor
 * points at them, so, as a visitor would, this scrolls to each of them, points at a form, waits for
 * it, and scrolls back.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  const islands = page.locator('[data-island]');
  const count = await islands.count();
  if (count === 0) return;
  const [x, y] = await page.evaluate(() => [window.scrollX, window.scrollY]);
  for (let i = 0; i < count; i++) {
    const island = islands.nth(i);
    if ((await island.getAttribute('data-hydrated')) !== null) continue;
    // The island's content can be replaced while it hydrates (a block that fails shows its error
    // instead), which detaches the element being scrolled to: find it again and scroll once more.
    const content = island.locator(':scope > *').first();
    await content.scrollIntoViewIfNeeded().catch(() => content.scrollIntoViewIfNeeded());
    // A form waits for the visitor even on screen (renderer/shell/islands.ts): pointing at it starts it.
    if ((await island.locator('form').count()) > 0) await content.hover({ force: true }).catch(() => {});
    await page.waitForFunction((index) => document.querySelectorAll('[data-island]')[index]?.hasAttribute('data-hydrated'), i);
  }
  await page.evaluate(([left, top]) => window.scrollTo({ left, top, behavior: 'instant' }), [x, y] as const);
}
