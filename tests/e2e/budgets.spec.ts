// Performance budgets as byte counts over the build the browser tests serve (DIST_DIR, default dist/).
// Deterministic: no browser, no timing; each route's HTML is followed to everything it loads first
// (scripts/budgets/route-weight.ts), text counted at its gzip size.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CHUNK_MODULES_FILE, type ChunkModules } from '../../scripts/budgets/chunk-modules-plugin.ts';
import { kb, weighBuild, type RouteWeight } from '../../scripts/budgets/route-weight.ts';
import { loadContent } from '../../scripts/content/load-content.ts';
import type { BlockType } from '../../generated/content-types.ts';

const KIB = 1024;
const BUDGET = {
  /** gzip JavaScript any route loads before it is interactive. */
  scriptBytes: 150 * KIB,
  /** HTML, scripts, styles, the preloaded font and eager images together. */
  totalBytes: 250 * KIB,
  preloadedFonts: 1,
} as const;

// Heavy libraries and the block types that are allowed to bring them.
const MARKDOWN_BLOCKS: BlockType[] = ['article', 'faq-list', 'legal-sections', 'rich-text'];
const FORM_BLOCKS: BlockType[] = ['form', 'roi-calculator'];
const HEAVY_MODULES = [
  { name: 'react-markdown', pattern: /node_modules\/react-markdown\//, blocks: MARKDOWN_BLOCKS },
  { name: 'remark-gfm / micromark GFM', pattern: /node_modules\/(remark-gfm|micromark-extension-gfm[^/]*)\//, blocks: MARKDOWN_BLOCKS },
  { name: 'zod', pattern: /node_modules\/zod\//, blocks: FORM_BLOCKS },
  { name: 'the form engine', pattern: /^blocks\/forms\/use-lead-form\.ts$/, blocks: FORM_BLOCKS },
] as const;

const root = path.resolve(import.meta.dirname, '../..');
const distDir = path.resolve(root, process.env.DIST_DIR ?? 'dist');
const weights = weighBuild(distDir);
const content = loadContent({ root });
const ARTICLE_PREFIX = '/blog/';

/** The block types a prerendered route shows, from its page file (articles: the article page). */
function blockTypesOf(weight: RouteWeight): Set<BlockType> {
  const isArticle = weight.route.startsWith(ARTICLE_PREFIX);
  const page =
    content.pages.find(({ page }) => (isArticle ? page.path === '/blog/:slug' : page.path === weight.route)) ??
    content.pages.find(({ page }) => page.path === '*')!;
  return new Set(page.page.blocks.map((block) => block.type));
}

test.describe('byte budgets per route', () => {
  test('the analysis sees every prerendered page and real scripts', () => {
    expect(weights.length).toBeGreaterThanOrEqual(15);
    for (const weight of weights) expect(weight.resources.filter((r) => r.kind === 'script').length, weight.route).toBeGreaterThan(0);
    // Printed so a failing run shows where the bytes went.
    console.log(
      weights
        .map((w) => `${w.route.padEnd(60)} JS ${kb(w.scriptBytes).padStart(9)}  first load ${kb(w.totalBytes).padStart(9)}`)
        .join('\n'),
    );
  });

  for (const weight of weights) {
    test(`${weight.route}: JS ≤ 150 KB gzip, first load ≤ 250 KB, one preloaded font, sized images`, () => {
      const scripts = weight.resources.filter((r) => r.kind === 'script').map((r) => `${r.url} ${kb(r.bytes)}`);
      expect(weight.scriptBytes, `JavaScript on ${weight.route}:\n${scripts.join('\n')}`).toBeLessThanOrEqual(BUDGET.scriptBytes);
      expect(weight.totalBytes, `first load of ${weight.route}`).toBeLessThanOrEqual(BUDGET.totalBytes);
      expect(weight.preloadedFonts.length, 'preloaded fonts').toBeLessThanOrEqual(BUDGET.preloadedFonts);
      expect(weight.imagesWithoutSize, '<img> without width and height').toEqual([]);
    });

    test(`${weight.route}: heavy libraries only where a block needs them`, () => {
      const blocks = blockTypesOf(weight);
      for (const heavy of HEAVY_MODULES) {
        const loaded = [...weight.modules].some((id) => heavy.pattern.test(id));
        const needed = heavy.blocks.some((type) => blocks.has(type));
        if (loaded)
          expect(needed, `${heavy.name} loads on ${weight.route}, whose blocks (${[...blocks].join(', ')}) do not use it`).toBe(true);
      }
    });
  }

  test('the chunk map names modules, so the library check above can see them', () => {
    const chunkModules = JSON.parse(readFileSync(path.join(distDir, 'client', CHUNK_MODULES_FILE), 'utf8')) as ChunkModules;
    const all = new Set(Object.values(chunkModules).flatMap((modules) => Object.keys(modules)));
    expect([...all].some((id) => id.startsWith('node_modules/react-dom/'))).toBe(true);
    for (const heavy of HEAVY_MODULES)
      expect(
        [...all].some((id) => heavy.pattern.test(id)),
        `${heavy.name} is somewhere in the build`,
      ).toBe(true);
  });
});
