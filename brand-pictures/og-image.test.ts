import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../content-model/load/load-content.ts';
import {
  LOGO_IMAGE_SIZE,
  MAX_CARD_TEXT,
  OG_IMAGE_SIZE,
  readPngSize,
  renderFaviconSvg,
  renderLogoImage,
  renderOgImage,
  titleFontSizePx,
} from './og-image.ts';

const { site } = loadContent({ root: path.resolve(import.meta.dirname, '..') });

describe('Open Graph images', () => {
  it('draws a 1200×630 PNG from a title, with fonts read from disk', async () => {
    const png = await renderOgImage(
      { title: 'What Is AI Consulting? A Practical Guide for Business Owners', eyebrow: 'Strategy' },
      { site, host: 'premieraiconsulting.com' },
    );
    expect(readPngSize(png)).toEqual(OG_IMAGE_SIZE);
    expect(png.length).toBeGreaterThan(5_000);
  });

  it('different titles give different pictures', async () => {
    const brand = { site, host: 'example.com' };
    const [a, b] = await Promise.all([renderOgImage({ title: 'About Us' }, brand), renderOgImage({ title: 'Contact Us' }, brand)]);
    expect(a.equals(b)).toBe(false);
  });

  it('draws a square logo for Organization data', async () => {
    expect(readPngSize(await renderLogoImage(site))).toEqual(LOGO_IMAGE_SIZE);
  });

  it('draws the favicon as a small SVG whose letter is a path, not text needing a font', async () => {
    const svg = await renderFaviconSvg(site);
    expect(svg).toMatch(/^<svg width="64" height="64"/);
    expect(svg).toContain('<path');
    expect(svg).not.toContain('<text');
    expect(svg.length).toBeLessThan(4_000);
  });

  it.each([
    ['About Us', 80],
    ['Frequently Asked Questions about AI', 68],
    ['What Is AI Consulting? A Practical Guide for Business Owners', 56],
  ])('a %j title is set at %i px', (title, size) => expect(titleFontSizePx(title)).toBe(size));
});

describe('the card of a very long title', () => {
  it('is drawn from the first characters only, quickly (300,000 characters held the thread for seconds)', async () => {
    const brand = { site: { company: site.company, brand: site.brand }, host: 'example.com' };
    const started = performance.now();
    const long = await renderOgImage({ title: 'x'.repeat(300_000), eyebrow: 'y'.repeat(300_000) }, brand);
    expect(performance.now() - started).toBeLessThan(3000);
    const cut = await renderOgImage({ title: 'x'.repeat(MAX_CARD_TEXT), eyebrow: 'y'.repeat(MAX_CARD_TEXT) }, brand);
    expect(long.equals(cut)).toBe(true);
  });
});
