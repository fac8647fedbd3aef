// What a first visit to a prerendered route downloads, counted from the build output alone (no
// browser, so the numbers are exact and repeatable): the HTML, then the scripts its boot loader starts
// (the entry and the chunks it preloads; renderer/boot-loader.ts) with every chunk they import
// statically, stylesheets, the preloaded font and the images it loads eagerly. Text files count at their precompressed gzip size (the .gz the
// build writes, level 9); fonts and raster images at their size on disk.
//
// `node scripts/budgets/route-weight.ts [distDir]` prints the table.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { bootModules } from '../../renderer/boot-loader.ts';
import { buildPaths, readRoutesFile } from '../../content-model/load/build-files.ts';
import { CHUNK_MODULES_FILE, type ChunkModules } from './chunk-modules-plugin.ts';

export type Resource = { url: string; kind: 'html' | 'script' | 'style' | 'font' | 'image'; bytes: number };

export type RouteWeight = {
  route: string;
  file: string;
  resources: Resource[];
  /** gzip bytes of every script. */
  scriptBytes: number;
  /** Everything above together. */
  totalBytes: number;
  preloadedFonts: string[];
  /** <img> tags without both width and height. */
  imagesWithoutSize: string[];
  /** Source modules (project-relative ids) in the scripts. */
  modules: Set<string>;
  /** The interactive block types the page hydrates (its islands). */
  islandTypes: string[];
  /**
   * What a client-side navigation to the route downloads at most (arriving from a page that loaded
   * nothing beyond the page shell): the HTML, and the scripts beyond the shell.
   */
  navigationBytes: number;
};

const START_TAG = (name: string) => new RegExp(`<${name}\\b[^>]*>`, 'gi');
const ATTRIBUTE = /\s([^\s"'=<>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
// Static imports and re-exports in Rollup/Rolldown output: import{a}from"./x.js" · import"./x.js" · export*from"./x.js".
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

function attributes(tag: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const [, name, value = ''] of tag.slice(tag.search(/\s|>/)).matchAll(ATTRIBUTE))
    result.set(name!.toLowerCase(), value.replace(/^["']|["']$/g, ''));
  return result;
}

function tags(html: string, name: string) {
  return [...html.matchAll(START_TAG(name))].map(([tag]) => ({ tag, attrs: attributes(tag) }));
}

/** Bytes on the wire: the .gz sibling when the build wrote one, else the file itself. */
export function transferBytes(clientDir: string, url: string): number {
  const file = path.join(clientDir, decodeURIComponent(url.split(/[?#]/)[0]!));
  if (!existsSync(file)) throw new Error(`${url} is referenced but not in the build`);
  return existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : statSync(file).size;
}

/** A JS file's static imports as site URLs. */
export function staticImports(code: string, fromUrl: string): string[] {
  const base = new URL(fromUrl, 'http://site.invalid');
  return [...code.matchAll(STATIC_IMPORT)].map(([, specifier]) => new URL(specifier!, base).pathname);
}

export function weighRoute(clientDir: string, route: string, file: string, chunkModules: ChunkModules = {}): RouteWeight {
  const html = readFileSync(path.join(clientDir, file), 'utf8');
  const resources: Resource[] = [{ url: route, kind: 'html', bytes: transferBytes(clientDir, `/${file}`) }];

  const scripts = [
    ...tags(html, 'script')
      .filter(({ attrs }) => attrs.has('src'))
      .map(({ attrs }) => attrs.get('src')!),
    ...tags(html, 'link')
      .filter(({ attrs }) => attrs.get('rel') === 'modulepreload')
      .map(({ attrs }) => attrs.get('href')!),
    ...bootModules(html),
  ];
  const withStaticImports = (start: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const queue = [...start];
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      queue.push(...staticImports(readFileSync(path.join(clientDir, url), 'utf8'), url));
    }
    return seen;
  };
  const seen = withStaticImports(scripts);
  for (const url of seen) resources.push({ url, kind: 'script', bytes: transferBytes(clientDir, url) });
  // The boot loader's first module is the page shell, which every page has already started.
  const shell = withStaticImports(bootModules(html).slice(0, 1));

  const links = tags(html, 'link');
  for (const { attrs } of links.filter(({ attrs }) => attrs.get('rel') === 'stylesheet'))
    resources.push({ url: attrs.get('href')!, kind: 'style', bytes: transferBytes(clientDir, attrs.get('href')!) });
  const preloadedFonts = links
    .filter(({ attrs }) => attrs.get('rel') === 'preload' && attrs.get('as') === 'font')
    .map(({ attrs }) => attrs.get('href')!);
  for (const url of preloadedFonts) resources.push({ url, kind: 'font', bytes: transferBytes(clientDir, url) });
  for (const { attrs } of links.filter(({ attrs }) => attrs.get('rel') === 'preload' && attrs.get('as') === 'image'))
    resources.push({ url: attrs.get('href')!, kind: 'image', bytes: transferBytes(clientDir, attrs.get('href')!) });

  const images = tags(html, 'img');
  const imagesWithoutSize = images.filter(({ attrs }) => !attrs.get('width') || !attrs.get('height')).map(({ tag }) => tag);
  for (const { attrs } of images) {
    const src = attrs.get('src');
    if (!src || attrs.get('loading') === 'lazy' || src.startsWith('data:') || resources.some((r) => r.url === src)) continue;
    resources.push({ url: src, kind: 'image', bytes: transferBytes(clientDir, src) });
  }

  const modules = new Set<string>();
  for (const url of seen) for (const id of Object.keys(chunkModules[url.slice(1)] ?? {})) modules.add(id);
  const sum = (kinds: Resource['kind'][]) => resources.filter((r) => kinds.includes(r.kind)).reduce((total, r) => total + r.bytes, 0);
  const islandTypes = [...new Set([...html.matchAll(/\sdata-island="([a-z-]+)"/g)].map(([, type]) => type!))];
  const navigationBytes = resources
    .filter((r) => r.kind === 'html' || (r.kind === 'script' && !shell.has(r.url)))
    .reduce((total, r) => total + r.bytes, 0);
  return {
    route,
    file,
    resources,
    scriptBytes: sum(['script']),
    totalBytes: sum(['html', 'script', 'style', 'font', 'image']),
    preloadedFonts,
    imagesWithoutSize,
    modules,
    islandTypes,
    navigationBytes,
  };
}

/** Every prerendered page of a build: the routes, then the not-found pages. */
export function weighBuild(distDir: string): RouteWeight[] {
  const { clientDir } = buildPaths(distDir);
  const routes = readRoutesFile(distDir);
  const chunkModulesFile = path.join(clientDir, CHUNK_MODULES_FILE);
  const chunkModules = existsSync(chunkModulesFile) ? (JSON.parse(readFileSync(chunkModulesFile, 'utf8')) as ChunkModules) : {};
  const pages: [string, string][] = [
    ...Object.entries(routes.pages),
    ['(not found)', routes.notFound],
    ...Object.entries(routes.notFoundByPrefix).map(([prefix, file]): [string, string] => [`${prefix}(not found)`, file]),
  ];
  return pages.map(([route, file]) => weighRoute(clientDir, route, file, chunkModules));
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (import.meta.main) {
  const distDir = path.resolve(process.argv[2] ?? process.env.DIST_DIR ?? 'dist');
  const rows = weighBuild(distDir).map((w) => ({
    route: w.route,
    'JS (gzip)': kb(w.scriptBytes),
    'first load': kb(w.totalBytes),
    navigation: kb(w.navigationBytes),
    islands: w.islandTypes.join(' '),
    scripts: w.resources.filter((r) => r.kind === 'script').length,
    fonts: w.preloadedFonts.length,
  }));
  console.table(rows);
}
