// `npm run build`, in one process: load and check the content once, bundle the browser code and the
// prerender code through Vite's JavaScript API, prerender every route into HTML this file writes
// itself, then the search and sharing files, the ROI numbers the relay uses, the route table and
// precompressed copies of every text file.
//
// dist/
//   client/             the public root: pages (index.html per route, 404 pages), assets, public/
//                       (uploaded pictures only when published content uses them)
//   server/             the prerender bundle (used once, here)
//   routes.json         which HTML file answers which address (read by the server)
//   csp.json            hashes of the inline scripts, for the Content-Security-Policy
//   roi-parameters.json the checked ROI numbers, so the relay computes what the visitor saw
//   console/            the back office's app (index.html for every /console address, assets/), built
//                       apart so no public page holds any of its code (console-app.ts)
//   client/build.json   the commit built and when (server/site/build-info.ts), so a deploy can be
//                       recognised; written last and never precompressed
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build as viteBuild } from 'vite';
import type { Rolldown } from 'vite';
import { buildRoiParameters } from '../../lead/roi/parameters.ts';
import { bootTags } from '../../renderer/boot-loader.ts';
import { ROUTE_ID_ATTRIBUTE } from '../../renderer/page-markers.ts';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import { ROI_PARAMETERS_FILE } from '../../server/leads/roi-parameters.ts';
import { writeBuildInfo } from '../../server/site/build-info.ts';
import { createSeoBuild } from '../seo/seo-build.ts';
import type { SeoSummary } from '../seo/seo-build.ts';
import { renderDocument } from './document.ts';
import { buildConsoleApp } from './console-app.ts';
import { copyPublicFiles } from './public-files.ts';
import { browserBuildConfig, prerenderBuildConfig } from './vite-config.ts';

export type RoutesFile = { pages: Record<string, string>; notFound: string; notFoundByPrefix: Record<string, string> };

export type BuildSiteOptions = {
  readonly root: string;
  readonly outDir: string;
  readonly content: ContentBundle;
  readonly settings: PublicSettings;
  /** The commit built (server/site/build-info.ts `buildCommit`); null outside git. */
  readonly commit: string | null;
};

export type BuildSummary = {
  pages: number;
  compressedFiles: number;
  seo: SeoSummary;
  bundleMs: number;
  prerenderMs: number;
  consoleMs: number;
};

type RenderedPage = {
  status: number;
  appHtml: string;
  routeId: string;
  head: string;
  pageName: string;
  islandTypes: string[];
};
type PrerenderEntry = {
  render(url: string): Promise<RenderedPage>;
  listRoutes(): { pages: { name: string; path: string }[]; articlePath: string; articleSlugs: string[] };
  FONT_URL: string;
  THEME_COLOR: string;
};

const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest|map)$/;
const NOT_FOUND_URL = '/__not-found__';
const MISSING_ARTICLE_SLUG = '__missing-article__';
const ORIGIN = 'http://prerender.local';

export async function buildSite({ root, outDir, content, settings, commit }: BuildSiteOptions): Promise<BuildSummary> {
  const started = performance.now();
  rmSync(outDir, { recursive: true, force: true });
  const clientDir = path.join(outDir, 'client');
  const serverDir = path.join(outDir, 'server');
  const viteOptions = { root, settings, content };
  const browser = await viteBuild(browserBuildConfig({ ...viteOptions, outDir: clientDir }));
  copyPublicFiles({ publicDir: path.join(root, 'public'), clientDir, content });
  await viteBuild(prerenderBuildConfig({ ...viteOptions, outDir: serverDir }));
  copyPageAssets(serverDir, clientDir);
  const bundled = performance.now();

  const chunks = readChunkGraph(browser);
  const entry = (await import(pathToFileURL(path.join(serverDir, 'entry-server.js')).href)) as PrerenderEntry;
  const seo = createSeoBuild(content, settings);
  const routes = await prerenderRoutes({ entry, chunks, clientDir, seo, content });
  writeFileSync(path.join(outDir, 'routes.json'), `${JSON.stringify(routes, null, 2)}\n`);
  writeFileSync(path.join(outDir, ROI_PARAMETERS_FILE), `${JSON.stringify(buildRoiParameters(content.roi), null, 2)}\n`);
  const htmlFiles = [...Object.values(routes.pages), routes.notFound, ...Object.values(routes.notFoundByPrefix)];
  const seoSummary = await seo.writeFiles({ distDir: outDir, clientDir, routePaths: Object.keys(routes.pages), htmlFiles });
  const siteDone = performance.now();
  const consoleDir = await buildConsoleApp(root, outDir);
  const compressedFiles = compressTree(clientDir) + compressTree(consoleDir);
  writeBuildInfo(clientDir, { commit, builtAt: new Date().toISOString() });
  return {
    pages: htmlFiles.length,
    compressedFiles,
    seo: seoSummary,
    bundleMs: bundled - started,
    prerenderMs: siteDone - bundled,
    consoleMs: performance.now() - siteDone,
  };
}

// ---------------------------------------------------------------------------------------------
// The browser bundle's chunks, as Rolldown reports them (not as file names or manifest keys, which
// depend on where node_modules lives).

type ChunkGraph = {
  /** The page shell's file with the chunks it imports statically: what every page starts. */
  readonly startup: readonly string[];
  readonly entryFile: string;
  /** The island runtime (React, react-dom, the providers) and the chunks of these interactive block types. */
  islandChunks(types: readonly string[]): string[];
};

const ISLAND_RUNTIME = /renderer[/\\]islands[/\\]hydrate-island\.tsx$/;

function readChunkGraph(result: Awaited<ReturnType<typeof viteBuild>>): ChunkGraph {
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const withImports = (files: readonly string[]): string[] => {
    const ordered: string[] = [];
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      byFile.get(file)?.imports.forEach(visit);
      ordered.push(file);
    };
    files.forEach(visit);
    return ordered;
  };
  const chunkOf = (moduleMatches: (facadeModuleId: string) => boolean, what: string): string => {
    const found = chunks.find((chunk) => chunk.facadeModuleId !== null && moduleMatches(chunk.facadeModuleId));
    if (found === undefined) throw new Error(`The browser bundle has no chunk for ${what}`);
    return found.fileName;
  };

  const entry = chunks.find((chunk) => chunk.isEntry);
  if (entry === undefined) throw new Error('The browser bundle has no entry chunk');
  const runtime = chunkOf((id) => ISLAND_RUNTIME.test(id), 'the island runtime (renderer/islands/hydrate-island.tsx)');
  // The runtime imports react-dom's client after a yield (renderer/islands/hydrate-island.tsx); every island needs it.
  const reactDomClient = byFile
    .get(runtime)
    ?.dynamicImports.find((file) => byFile.get(file)?.moduleIds.some((id) => /[/\\]react-dom[/\\]/.test(id)));
  if (reactDomClient === undefined)
    throw new Error('The island runtime does not load react-dom dynamically (renderer/islands/hydrate-island.tsx)');
  return {
    startup: withImports([entry.fileName]),
    entryFile: entry.fileName,
    islandChunks(types) {
      if (types.length === 0) return [];
      const blocks = types.map((type) => chunkOf((id) => id.endsWith(path.join('blocks', type, 'Block.tsx')), `block "${type}"`));
      return withImports([runtime, reactDomClient, ...blocks]);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Prerendering

type PrerenderInput = {
  entry: PrerenderEntry;
  chunks: ChunkGraph;
  clientDir: string;
  seo: ReturnType<typeof createSeoBuild>;
  content: ContentBundle;
};

async function prerenderRoutes({ entry, chunks, clientDir, seo }: PrerenderInput): Promise<RoutesFile> {
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
    if (rendered.status !== job.expectStatus)
      throw new Error(`${job.url} rendered with status ${rendered.status}, expected ${job.expectStatus}`);
    // A page without interactive blocks starts the shell alone; one with islands preloads their code.
    const routeChunks = chunks.islandChunks(rendered.islandTypes);
    const preloads = [
      ...chunks.startup.filter((file) => file !== chunks.entryFile),
      ...routeChunks.filter((file) => !chunks.startup.includes(file)),
    ];
    const head = [
      `<link rel="preload" href="${entry.FONT_URL}" as="font" type="font/woff2" crossorigin>`,
      rendered.head,
      seo.headFor(job.url),
    ].join('\n    ');
    const html = renderDocument({
      themeColor: entry.THEME_COLOR,
      head,
      rootAttributes: `${ROUTE_ID_ATTRIBUTE}="${rendered.routeId}"`,
      appHtml: rendered.appHtml,
      tail: bootTags(
        `/${chunks.entryFile}`,
        [...new Set(preloads)].filter((file) => file.endsWith('.js')).map((file) => `/${file}`),
      ),
    });
    writeFile(path.join(clientDir, job.file), html);
    if (job.file === '404.html') routes.notFound = job.file;
    else if (job.url.endsWith(MISSING_ARTICLE_SLUG)) routes.notFoundByPrefix[job.url.slice(0, -MISSING_ARTICLE_SLUG.length)] = job.file;
    else routes.pages[job.url] = job.file;
  }
  return routes;
}

/** Assets the prerender bundle wrote (same names as the browser bundle would give them) that the browser bundle lacks. */
function copyPageAssets(serverDir: string, clientDir: string) {
  const from = path.join(serverDir, 'assets');
  if (!existsSync(from)) return;
  for (const name of readdirSync(from)) {
    if (name.endsWith('.js') || existsSync(path.join(clientDir, 'assets', name))) continue;
    cpSync(path.join(from, name), path.join(clientDir, 'assets', name));
  }
}

export function htmlFileFor(urlPath: string): string {
  return urlPath === '/' ? 'index.html' : `${urlPath.replace(/^\/|\/$/g, '')}/index.html`;
}

function writeFile(file: string, content: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** Brotli and gzip copies beside every text file, so the server never compresses at request time. */
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
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    count++;
  }
  return count;
}
