// Renders every route of the built site to static HTML (plus the two "not found" screens), lists the
// chunks each route needs for the boot loader (renderer/boot-loader.ts: the app's scripts start after
// the first paint), writes dist/routes.json for the server, and precompresses every text file
// (brotli and gzip) so no byte is compressed at request time.
// Search and sharing files (JSON-LD, Open Graph images, sitemap, robots, RSS, csp.json) come from scripts/seo/.
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bootTags } from '../renderer/boot-loader.ts';
import { readPublicSettings } from '../renderer/build-settings.ts';
import { ROUTE_ID_ATTRIBUTE } from '../renderer/hydration-data.ts';
import { loadContent } from '../renderer/load-content.ts';
import { createSeoBuild, type SeoSummary } from './seo/seo-build.ts';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

type Manifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; src?: string }>;
type RenderedPage = { status: number; appHtml: string; routeId: string; dataScript: string; head: string; pageName: string; blockTypes: string[] };
type ServerEntry = {
  render(url: string): Promise<RenderedPage>;
  listRoutes(): { pages: { name: string; path: string }[]; articlePath: string; articleSlugs: string[] };
  FONT_URL: string;
};

export type RoutesFile = { pages: Record<string, string>; notFound: string; notFoundByPrefix: Record<string, string> };

const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest|map)$/;
const NOT_FOUND_URL = '/__not-found__';
const MISSING_ARTICLE_SLUG = '__missing-article__';
const ORIGIN = 'http://prerender.local';
const ROOT_PLACEHOLDER = '<div id="root"><!--app-html--></div>';
const REACT_DOM_CLIENT = 'node_modules/react-dom/client.js';

export async function prerender(distDir: string, options: { contentDir?: string } = {}): Promise<RoutesFile & { seo: SeoSummary }> {
  const clientDir = path.join(distDir, 'client');
  const root = path.resolve(import.meta.dirname, '..');
  // The same content and settings the Vite build used (CONTENT_DIR, SITE_URL, … from the environment).
  const seo = createSeoBuild(loadContent({ root, contentDir: options.contentDir }), readPublicSettings(process.env));
  const entry = (await import(pathToFileURL(path.join(distDir, 'server', 'entry-server.js')).href)) as ServerEntry;
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entryKey = findEntryKey(manifest);
  const entryFile = manifest[entryKey]!.file;
  // The entry imports react-dom/client dynamically (renderer/entry-client.tsx); every page needs it at once.
  if (!manifest[entryKey]!.dynamicImports?.includes(REACT_DOM_CLIENT)) throw new Error(`The entry chunk no longer imports ${REACT_DOM_CLIENT} dynamically; update prerender.ts`);
  const entryChunks = collectChunks(manifest, [entryKey, REACT_DOM_CLIENT]);
  const template = withoutViteEntryTags(readFileSync(path.join(clientDir, 'index.html'), 'utf8'), collectChunks(manifest, [entryKey]));
  if (!template.includes(ROOT_PLACEHOLDER)) throw new Error(`index.html must contain ${ROOT_PLACEHOLDER}`);
  const { pages, articlePath, articleSlugs } = entry.listRoutes();

  const jobs: { url: string; file: string; expectStatus: number }[] = [];
  for (const page of pages) {
    if (page.path === '*') jobs.push({ url: NOT_FOUND_URL, file: '404.html', expectStatus: 200 });
    else if (page.path === articlePath) {
      const prefix = articlePath.slice(0, articlePath.indexOf(':'));
      for (const slug of articleSlugs) jobs.push({ url: `${prefix}${slug}`, file: htmlFileFor(`${prefix}${slug}`), expectStatus: 200 });
      jobs.push({ url: `${prefix}${MISSING_ARTICLE_SLUG}`, file: `${prefix.slice(1)}404.html`, expectStatus: 404 });
    } else jobs.push({ url: page.path, file: htmlFileFor(page.path), expectStatus: 200 });
  }

  const routes: RoutesFile = { pages: {}, notFound: '404.html', notFoundByPrefix: {} };
  for (const job of jobs) {
    const rendered = await entry.render(`${ORIGIN}${job.url}`);
    if (rendered.status !== job.expectStatus) throw new Error(`${job.url} rendered with status ${rendered.status}, expected ${job.expectStatus}`);
    const routeKeys = [pageModuleKey(manifest, rendered.pageName), ...rendered.blockTypes.map((t) => blockModuleKey(manifest, t))];
    const preloads = collectChunks(manifest, routeKeys).filter((file) => !entryChunks.includes(file));
    const scripts = [...entryChunks.filter((f) => f !== entryFile), ...preloads].filter((f) => f.endsWith('.js')).map((f) => `/${f}`);
    const head = [
      `<link rel="preload" href="${entry.FONT_URL}" as="font" type="font/woff2" crossorigin>`,
      rendered.head,
      seo.headFor(job.url),
    ].join('\n    ');
    // Function replacers: page text may contain "$&" or "$'", which string replacements would expand.
    const html = template
      .replace('<!--app-head-->', () => head)
      .replace(ROOT_PLACEHOLDER, () => `<div id="root" ${ROUTE_ID_ATTRIBUTE}="${rendered.routeId}">${rendered.appHtml}</div>`)
      .replace('<!--app-data-->', () => `${rendered.dataScript}\n    ${bootTags(`/${entryFile}`, scripts)}`);
    writeFile(path.join(clientDir, job.file), html);
    if (job.file === '404.html') routes.notFound = job.file;
    else if (job.url.endsWith(MISSING_ARTICLE_SLUG)) routes.notFoundByPrefix[job.url.slice(0, -MISSING_ARTICLE_SLUG.length)] = job.file;
    else routes.pages[job.url] = job.file;
  }
  writeFileSync(path.join(distDir, 'routes.json'), JSON.stringify(routes, null, 2) + '\n');
  const htmlFiles = jobs.map((job) => job.file);
  const summary = await seo.writeFiles({ distDir, clientDir, routePaths: Object.keys(routes.pages), htmlFiles });
  return { ...routes, seo: summary };
}

export function htmlFileFor(urlPath: string): string {
  return urlPath === '/' ? 'index.html' : `${urlPath.replace(/^\/|\/$/g, '')}/index.html`;
}

/**
 * index.html as Vite wrote it, minus the entry's <script type="module"> and modulepreload tags: those
 * would start every script before the first paint. The boot loader starts them after it instead.
 */
function withoutViteEntryTags(html: string, entryChunks: readonly string[]): string {
  let result = html;
  for (const file of entryChunks.filter((f) => f.endsWith('.js'))) {
    const tag = [`<script type="module" crossorigin src="/${file}"></script>`, `<link rel="modulepreload" crossorigin href="/${file}">`].find((t) => result.includes(t));
    if (!tag) throw new Error(`index.html: Vite's tag for ${file} was not found; update withoutViteEntryTags for the new output`);
    result = result.replace(tag, '');
  }
  if (/<script type="module"|rel="modulepreload"/.test(result)) throw new Error('index.html still starts scripts before the first paint');
  return result;
}

function findEntryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!key) throw new Error('The client build has no entry chunk');
  return key;
}

function pageModuleKey(manifest: Manifest, pageName: string): string {
  return findKey(manifest, (key) => key.endsWith(`virtual:content/page/${pageName}`), `page "${pageName}"`);
}

function blockModuleKey(manifest: Manifest, type: string): string {
  return findKey(manifest, (key) => key === `blocks/${type}/Block.tsx`, `block "${type}"`);
}

function findKey(manifest: Manifest, test: (key: string) => boolean, what: string): string {
  const key = Object.keys(manifest).find(test);
  if (!key) throw new Error(`No chunk found for ${what} in the Vite manifest`);
  return key;
}

/** The files of these chunks and of everything they import statically, in load order. */
function collectChunks(manifest: Manifest, keys: string[]): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    chunk.imports?.forEach(visit);
    files.push(chunk.file);
  };
  keys.forEach(visit);
  return files;
}

function writeFile(file: string, content: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

export function compressTree(dir: string): number {
  let count = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      count += compressTree(file);
      continue;
    }
    if (!COMPRESSIBLE.test(name)) continue;
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    count++;
  }
  return count;
}

if (import.meta.main) {
  const distDir = process.env.OUT_DIR ? path.resolve(process.env.OUT_DIR) : path.resolve(import.meta.dirname, '..', 'dist');
  const started = performance.now();
  const routes = await prerender(distDir, { contentDir: process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : undefined });
  const compressed = compressTree(path.join(distDir, 'client'));
  const pageCount = Object.keys(routes.pages).length + 1 + Object.keys(routes.notFoundByPrefix).length;
  const { ogImages, sitemapUrls, feedItems, inlineScriptHashes } = routes.seo;
  console.log(`prerendered ${pageCount} pages, compressed ${compressed} files in ${Math.round(performance.now() - started)} ms`);
  console.log(`seo: ${ogImages} Open Graph images, ${sitemapUrls} sitemap URLs, ${feedItems} feed items, ${inlineScriptHashes} inline script hashes for the CSP`);
}
