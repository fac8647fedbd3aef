// Developer tool: screenshots of pages at phone and desktop widths, to look at what visitors see.
// Usage: npm run screenshots -- [base URL] [paths…]   (default: http://127.0.0.1:4321, every main route)
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.ts';

const [base = 'http://127.0.0.1:4321', ...requested] = process.argv.slice(2);
const paths = requested.length
  ? requested
  : [
      '/',
      '/calculator',
      '/about',
      '/services',
      '/voice-ai',
      '/blog',
      '/blog/what-is-ai-consulting',
      '/faqs',
      '/testimonials',
      '/contact',
      '/privacy-policy',
      '/thankyou',
      '/ai-transformation',
      '/missing-page',
    ];
const WIDTHS = [390, 1280];
const outDir = path.resolve(import.meta.dirname, '..', '.tmp', 'screens');
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_FLAGS,
});
for (const width of WIDTHS) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  for (const route of paths) {
    await page.goto(new URL(route, base).href, { waitUntil: 'networkidle' });
    const file = path.join(outDir, `${route === '/' ? 'home' : route.slice(1).replace(/\//g, '_')}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await page.close();
}
await browser.close();
