// Performance budgets as byte counts over the build the browser tests serve (DIST_DIR, default dist/).
// Deterministic: no browser, no timing; each route's HTML is followed to everything it loads first,
// and to what a client-side navigation to it loads (scripts/budgets/route-weight.ts), text counted at
// its gzip size.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import {
  CHUNK_MODULES_FILE,
  MODULE_GZIP_FILE,
  MODULE_IN_CHUNK_GZIP_FILE,
  type ChunkModules,
  type ModuleGzipBytes,
  type ModuleInChunkGzipBytes,
} from '../../scripts/budgets/chunk-modules-plugin.ts';
import { findConsoleCodeInPublicSite } from '../../scripts/budgets/console-separation.ts';
import { COMPILE_HINT } from '../../scripts/build/compile-hints-plugin.ts';
import { kb, weighBuild, type RouteWeight } from '../../scripts/budgets/route-weight.ts';
import { loadContent } from '../../content-model/load/load-content.ts';
import type { BlockType } from '../../generated/content-types.ts';

const KIB = 1024;
const BUDGET = {
  /** gzip JavaScript any route loads before it is interactive. */
  scriptBytes: 150 * KIB,
  /** gzip JavaScript of an article or a legal page: the page shell, no React (only interactive blocks bring it). */
  readingPageScriptBytes: 30 * KIB,
  /** A client-side navigation to an article or a legal page: its HTML (and no script). */
  readingPageNavigationBytes: 30 * KIB,
  /** A client-side navigation to any route: its HTML and its islands' code. */
  navigationBytes: 150 * KIB,
  /** HTML, scripts, styles, the preloaded font and eager images together. */
  totalBytes: 250 * KIB,
  preloadedFonts: 1,
  /**
   * gzip bytes the analytics beacon adds to every page's first load. The event's shape
   * (lead/beacon-event.ts) is not counted here: the visit's attribution, which every page keeps,
   * loads it too; the route totals above count it.
   */
  beaconBytes: 1 * KIB,
  /**
   * gzip bytes of the booking panel (the calendar inside the page after a lead form), which loads
   * only when the visitor presses "Pick a time now": no route's first load or navigation brings it.
   */
  bookingPanelBytes: 2 * KIB,
  /**
   * gzip bytes of the beacon and the field speed code together: what the beacon adds to its chunk
   * (compressed with its neighbours, as it is served) and the field speed chunk (web-vitals and the
   * report), which every page fetches once it has been painted.
   */
  beaconWithVitalsBytes: 3 * KIB,
} as const;
const BEACON_MODULE = 'renderer/shell/beacon.ts';
const BOOKING_PANEL_MODULE = 'forms/booking/BookingPanel.tsx';
const BOOKING_OFFER_MODULE = 'forms/booking/BookingOffer.tsx';
const VITALS_MODULE = 'renderer/shell/vitals.ts';
const SHELL_ENTRY_MODULE = 'renderer/shell/entry.ts';

// Heavy libraries and the islands (interactive block types) allowed to bring them. Markdown is
// rendered to HTML by the build and no island renders any, so its parser is on no route at all.
const FORM_ISLANDS: BlockType[] = ['form', 'roi-calculator'];
type HeavyModule = { readonly name: string; readonly pattern: RegExp; readonly islands: readonly BlockType[] };
const HEAVY_MODULES: readonly HeavyModule[] = [
  { name: 'react-markdown', pattern: /node_modules\/react-markdown\//, islands: [] },
  { name: 'remark-gfm / micromark GFM', pattern: /node_modules\/(remark-gfm|micromark-extension-gfm[^/]*)\//, islands: [] },
  { name: 'react-dom', pattern: /node_modules\/react-dom\//, islands: ['form', 'roi-calculator', 'countdown', 'not-found', 'booking'] },
  { name: 'zod', pattern: /node_modules\/zod\//, islands: FORM_ISLANDS },
  { name: 'the form engine', pattern: /^forms\/use-lead-form\.ts$/, islands: FORM_ISLANDS },
];

const root = path.resolve(import.meta.dirname, '../..');
const distDir = path.resolve(root, process.env.DIST_DIR ?? 'dist');
const weights = weighBuild(distDir);
const content = loadContent({ root });
const ARTICLE_PREFIX = '/blog/';

/** Articles and legal pages: pages people read, which must start with almost no JavaScript. */
function isReadingPage(weight: RouteWeight): boolean {
  if (weight.route.startsWith(ARTICLE_PREFIX)) return true;
  const page = content.pages.find(({ page }) => page.path === weight.route);
  return page?.page.blocks.some((block) => block.type === 'legal-sections') ?? false;
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

    test(`${weight.route}: navigating to it loads ≤ 150 KB gzip (HTML and its islands' code)`, () => {
      expect(weight.navigationBytes, `client-side navigation to ${weight.route}`).toBeLessThanOrEqual(BUDGET.navigationBytes);
    });

    test(`${weight.route}: heavy libraries only where an island needs them`, () => {
      const islands = weight.islandTypes.join(', ') || 'none';
      for (const heavy of HEAVY_MODULES) {
        const loaded = [...weight.modules].some((id) => heavy.pattern.test(id));
        const needed = heavy.islands.some((type) => weight.islandTypes.includes(type));
        if (loaded) expect(needed, `${heavy.name} loads on ${weight.route}, whose islands (${islands}) do not use it`).toBe(true);
      }
    });
  }

  const readingPages = weights.filter(isReadingPage);
  test('articles and legal pages are recognised (every article, three legal pages)', () => {
    expect(readingPages.filter((w) => w.route.startsWith(ARTICLE_PREFIX)).length).toBe(content.posts.length + 1);
    expect(readingPages.length).toBeGreaterThanOrEqual(content.posts.length + 4);
  });
  for (const weight of readingPages) {
    test(`${weight.route}: a page people read starts with ≤ 30 KB gzip of JavaScript, and a navigation to it loads ≤ 30 KB`, () => {
      expect(weight.scriptBytes, `JavaScript on ${weight.route}`).toBeLessThanOrEqual(BUDGET.readingPageScriptBytes);
      expect(weight.navigationBytes, `client-side navigation to ${weight.route}`).toBeLessThanOrEqual(BUDGET.readingPageNavigationBytes);
      expect(weight.islandTypes).toEqual([]);
    });
  }

  test('the analytics beacon is on every page and adds ≤ 1 KB gzip to its first load', () => {
    const gzipBytes = JSON.parse(readFileSync(path.join(distDir, 'client', MODULE_GZIP_FILE), 'utf8')) as ModuleGzipBytes;
    const beaconBytes = gzipBytes[BEACON_MODULE];
    console.log(`analytics beacon: ${beaconBytes ?? 'missing'} bytes gzip`);
    expect(beaconBytes, `${BEACON_MODULE} in the build`).toBeGreaterThan(0);
    expect(beaconBytes).toBeLessThanOrEqual(BUDGET.beaconBytes);
    for (const weight of weights) expect(weight.modules.has(BEACON_MODULE), `the beacon loads on ${weight.route}`).toBe(true);
  });

  test('the booking panel is in no first load and no navigation, and adds ≤ 2 KB gzip when the visitor asks for it', () => {
    const gzipBytes = JSON.parse(readFileSync(path.join(distDir, 'client', MODULE_GZIP_FILE), 'utf8')) as ModuleGzipBytes;
    const panelBytes = gzipBytes[BOOKING_PANEL_MODULE];
    console.log(`booking panel: ${panelBytes ?? 'missing'} bytes gzip`);
    expect(panelBytes, `${BOOKING_PANEL_MODULE} in the build`).toBeGreaterThan(0);
    expect(panelBytes).toBeLessThanOrEqual(BUDGET.bookingPanelBytes);
    // The offer that loads it is part of the form islands, so the analysis does see these modules.
    expect(weights.find((w) => w.route === '/calculator')?.modules.has(BOOKING_OFFER_MODULE)).toBe(true);
    for (const weight of weights)
      expect(weight.modules.has(BOOKING_PANEL_MODULE), `the booking panel loads on ${weight.route}`).toBe(false);
  });

  test('the beacon with field speed adds ≤ 3 KB gzip, and field speed is never in a first load before the first paint', () => {
    const inChunk = JSON.parse(readFileSync(path.join(distDir, 'client', MODULE_IN_CHUNK_GZIP_FILE), 'utf8')) as ModuleInChunkGzipBytes;
    const chunkModules = JSON.parse(readFileSync(path.join(distDir, 'client', CHUNK_MODULES_FILE), 'utf8')) as ChunkModules;
    const vitalsChunks = Object.entries(chunkModules).filter(([, modules]) => VITALS_MODULE in modules);
    expect(vitalsChunks.map(([, modules]) => Object.keys(modules).sort())).toEqual([
      ['node_modules/web-vitals/dist/web-vitals.js', VITALS_MODULE],
    ]);
    const [vitalsChunk] = vitalsChunks[0]!;
    const vitalsBytes = gzipSync(readFileSync(path.join(distDir, 'client', vitalsChunk)), { level: 9 }).byteLength;
    const beaconBytes = inChunk[BEACON_MODULE] ?? 0;
    console.log(
      `beacon in its chunk: ${beaconBytes} bytes gzip; field speed chunk: ${vitalsBytes} bytes gzip; together ${beaconBytes + vitalsBytes}`,
    );
    expect(beaconBytes).toBeGreaterThan(0);
    expect(beaconBytes + vitalsBytes).toBeLessThanOrEqual(BUDGET.beaconWithVitalsBytes);
    // The chunk is fetched by the beacon at an idle moment after the first paint: no page loads it, or
    // names it for preloading, as part of its first load.
    for (const weight of weights) {
      expect(
        [...weight.modules].filter((id) => id === VITALS_MODULE || id.startsWith('node_modules/web-vitals/')),
        weight.route,
      ).toEqual([]);
      expect(
        weight.resources.filter((resource) => resource.url.endsWith(`/${vitalsChunk}`)),
        weight.route,
      ).toEqual([]);
    }
  });

  test('the page shell and the field-speed code are compiled as they load (V8’s compile hint), and no other chunk is', () => {
    // Their listeners answer the visitor's first tap: compiled on first call, they were compiled
    // inside it. A large chunk compiled whole would cost more than it saves.
    const chunkModules = JSON.parse(readFileSync(path.join(distDir, 'client', CHUNK_MODULES_FILE), 'utf8')) as ChunkModules;
    const hinted = Object.keys(chunkModules).filter((file) =>
      readFileSync(path.join(distDir, 'client', file), 'utf8').startsWith(`${COMPILE_HINT}\n`),
    );
    const holding = (module: string) => Object.keys(chunkModules).filter((file) => module in chunkModules[file]!);
    expect(hinted.sort()).toEqual([...holding(SHELL_ENTRY_MODULE), ...holding(VITALS_MODULE)].sort());
    expect(hinted).toHaveLength(2);
  });

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

test.describe('the back office stays out of the public site', () => {
  test('the console is built beside the site, and no public page or chunk holds any of its code', () => {
    const consolePage = readFileSync(path.join(distDir, 'console/index.html'), 'utf8');
    expect(consolePage).toMatch(/<script type="module"[^>]* src="\/console\/assets\/[\w-]+\.js"/);
    expect(consolePage).toContain('<meta name="robots" content="noindex, nofollow"');
    expect(existsSync(path.join(distDir, 'client/console')), 'nothing of the console under the public root').toBe(false);
    expect(findConsoleCodeInPublicSite(distDir)).toEqual([]);
    // Every public route's own resources, as the byte budgets count them, come from the public root.
    for (const weight of weights)
      expect(
        weight.resources.filter((r) => r.url.startsWith('/console/')),
        weight.route,
      ).toEqual([]);
  });
});
