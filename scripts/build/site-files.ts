// The files of a build that the content reaches, written the same way by a full build
// (scripts/build/build-site.ts, after bundling) and by an incremental one (scripts/build/incremental.ts,
// into a copy of the live build): every prerendered page, routes.json, roi-parameters.json,
// business-hours.json, callback-consent.json, the
// search and sharing files (Open Graph pictures, sitemap, feed, robots.txt, csp.json) and
// incremental.json, the record the next build compares with.
//
// A file that belongs in every build (whatever the content) is written here too, through `output`,
// so both kinds of build write it.
import { pathToFileURL } from 'node:url';
import { buildRoiParameters } from '../../lead/roi/parameters.ts';
import { bootTags } from '../../renderer/boot-loader.ts';
import { ROUTE_ID_ATTRIBUTE } from '../../ui/page/page-markers.ts';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import {
  BUILD_STATE_FILE,
  CALLBACK_CONSENT_FILE,
  CLIENT_DIR,
  BUSINESS_HOURS_FILE,
  ROI_PARAMETERS_FILE,
  ROUTES_FILE,
  serializeBusinessHoursFile,
  serializeRoutesFile,
  type RoutesFile,
} from '../../content-model/load/build-files.ts';
import { createSeoBuild } from '../seo/seo-build.ts';
import type { SeoSummary } from '../seo/seo-build.ts';
import { digest, serializeBuildState, type BuildInputs, type BuildState } from './build-inputs.ts';
import type { BuildOutput } from './build-output.ts';
import { chunkGraph, type ChunkGraphData } from './chunk-graph.ts';
import { renderDocument } from './document.ts';
import { contentValue, prerenderContentOf, providePrerenderContent } from './prerender-content.ts';

type RenderedPage = {
  status: number;
  appHtml: string;
  routeId: string;
  head: string;
  pageName: string;
  islandTypes: string[];
};
export type PrerenderEntry = {
  render(url: string): Promise<RenderedPage>;
  listRoutes(): { pages: { name: string; path: string }[]; articlePath: string; articleSlugs: string[] };
  FONT_URL: string;
  THEME_COLOR: string;
};

const NOT_FOUND_URL = '/__not-found__';
const MISSING_ARTICLE_SLUG = '__missing-article__';
const ORIGIN = 'http://prerender.local';

/**
 * Loads the prerender bundle (`<serverDir>/entry-server.js`) for `content`. The site settings, ROI
 * numbers, article list and routes are read now, once; pages and articles as each route renders.
 */
export async function loadPrerenderEntry(serverDir: string, content: ContentBundle, settings: PublicSettings): Promise<PrerenderEntry> {
  providePrerenderContent(prerenderContentOf(content, settings));
  return (await import(pathToFileURL(`${serverDir}/entry-server.js`).href)) as PrerenderEntry;
}

export type SiteFilesInput = {
  content: ContentBundle;
  settings: PublicSettings;
  /** Loaded for this content's site settings, ROI numbers, article list and routes. */
  entry: PrerenderEntry;
  chunks: ChunkGraphData;
  inputs: BuildInputs;
  output: BuildOutput;
  /** What the previous build recorded (an incremental build), so unchanged pages are not rendered again. */
  previous?: BuildState;
};

export type SiteFilesSummary = { pages: number; rendered: number; seo: SeoSummary };

export async function writeSiteFiles({
  content,
  settings,
  entry,
  chunks,
  inputs,
  output,
  previous,
}: SiteFilesInput): Promise<SiteFilesSummary> {
  const seo = createSeoBuild(content, settings);
  const reads: Record<string, string[]> = {};
  const { routes, rendered } = await prerenderRoutes({ content, settings, entry, chunks, seo, output, previous, reads });
  output.write(ROUTES_FILE, serializeRoutesFile(routes));
  output.write(ROI_PARAMETERS_FILE, `${JSON.stringify(buildRoiParameters(content.roi), null, 2)}\n`);
  output.write(BUSINESS_HOURS_FILE, serializeBusinessHoursFile(content.site.businessHours));
  // The relay stores the wording the pages show, word for word, with each lead that ticks the box.
  const { version, text } = content.site.callbackConsent ?? {};
  output.write(CALLBACK_CONSENT_FILE, `${JSON.stringify({ wording: version && text ? { version, text } : null }, null, 2)}\n`);
  const htmlFiles = [...Object.values(routes.pages), routes.notFound, ...Object.values(routes.notFoundByPrefix)];
  const seoSummary = await seo.writeFiles({ output, routePaths: Object.keys(routes.pages), htmlFiles });
  output.write(
    BUILD_STATE_FILE,
    serializeBuildState({ inputs, renderNodeEnv: process.env.NODE_ENV ?? null, chunks, keys: output.keys, reads }),
  );
  return { pages: htmlFiles.length, rendered, seo: seoSummary };
}

type PrerenderInput = Omit<SiteFilesInput, 'inputs'> & {
  seo: ReturnType<typeof createSeoBuild>;
  reads: Record<string, string[]>;
};

/**
 * What a page's HTML is made from, apart from what every page shares (recorded as the build's
 * inputs): its address, its JSON-LD and the texts its render read, with their values.
 */
function pageKey(content: ContentBundle, url: string, seoHead: string, reads: readonly string[]): string {
  return digest({ url, seoHead, reads: reads.map((id) => [id, contentValue(content, id) ?? null]) });
}

async function prerenderRoutes({ content, settings, entry, chunks: chunkData, seo, output, previous, reads }: PrerenderInput) {
  const chunks = chunkGraph(chunkData);
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

  // Each render's reads of pages and articles are noted against the page being rendered.
  let reading: Set<string> | undefined;
  providePrerenderContent(prerenderContentOf(content, settings, (id) => reading?.add(id)));

  const routes: RoutesFile = { pages: {}, notFound: '404.html', notFoundByPrefix: {} };
  let rendered = 0;
  for (const job of jobs) {
    const file = `${CLIENT_DIR}/${job.file}`;
    const seoHead = seo.headFor(job.url);
    const before = previous?.reads[file];
    if (before !== undefined && output.reusable(file, pageKey(content, job.url, seoHead, before))) {
      // Nothing this page was drawn from changed: the live build's file stays.
      reads[file] = before;
      output.record(file, pageKey(content, job.url, seoHead, before));
    } else {
      reading = new Set();
      const page = await entry.render(`${ORIGIN}${job.url}`);
      const read = [...reading].sort();
      reading = undefined;
      rendered++;
      if (page.status !== job.expectStatus) throw new Error(`${job.url} rendered with status ${page.status}, expected ${job.expectStatus}`);
      // A page without interactive blocks starts the shell alone; one with islands preloads their code.
      const routeChunks = chunks.islandChunks(page.islandTypes);
      const preloads = [
        ...chunks.startup.filter((chunk) => chunk !== chunks.entryFile),
        ...routeChunks.filter((chunk) => !chunks.startup.includes(chunk)),
      ];
      const head = [`<link rel="preload" href="${entry.FONT_URL}" as="font" type="font/woff2" crossorigin>`, page.head, seoHead].join(
        '\n    ',
      );
      const html = renderDocument({
        themeColor: entry.THEME_COLOR,
        head,
        rootAttributes: `${ROUTE_ID_ATTRIBUTE}="${page.routeId}"`,
        appHtml: page.appHtml,
        tail: bootTags(
          `/${chunks.entryFile}`,
          [...new Set(preloads)].filter((chunk) => chunk.endsWith('.js')).map((chunk) => `/${chunk}`),
        ),
      });
      output.write(file, html);
      reads[file] = read;
      output.record(file, pageKey(content, job.url, seoHead, read));
    }
    if (job.file === '404.html') routes.notFound = job.file;
    else if (job.url.endsWith(MISSING_ARTICLE_SLUG)) routes.notFoundByPrefix[job.url.slice(0, -MISSING_ARTICLE_SLUG.length)] = job.file;
    else routes.pages[job.url] = job.file;
  }
  return { routes, rendered };
}

export function htmlFileFor(urlPath: string): string {
  return urlPath === '/' ? 'index.html' : `${urlPath.replace(/^\/|\/$/g, '')}/index.html`;
}
