// `npm run build`, in one process: load and check the content once, bundle the browser code and the
// prerender code through Vite's JavaScript API, then the files the content reaches (site-files.ts:
// every route prerendered into HTML, the search and sharing files, the ROI numbers the relay uses,
// the route table), the console, and precompressed copies of every text file.
//
// dist/ (its files are named and shaped in content-model/load/build-files.ts)
//   client/             the public root: pages (index.html per route, 404 pages), assets, public/
//                       (uploaded pictures only when published content uses them)
//   server/             the prerender bundle: code only, the content is handed to it as it runs
//                       (prerender-content.ts), so a later publish can render a changed page with it
//   routes.json         which HTML file answers which address (read by the server)
//   csp.json            hashes of the inline scripts, for the Content-Security-Policy
//   roi-parameters.json the checked ROI numbers, so the relay computes what the visitor saw
//   business-hours.json the site's business hours, so the sales clock runs on the published hours
//   incremental.json    what the build was made from, so a publish can rebuild only what a change
//                       reaches (build-inputs.ts, incremental.ts)
//   console/            the back office's app (index.html for every /console address, assets/), built
//                       apart so no public page holds any of its code (console-app.ts)
//   client/build.json   the commit built and when (build-commit.ts), so a deploy can be
//                       recognised; written last and never precompressed
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build as viteBuild } from 'vite';
import type { Rolldown } from 'vite';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import { buildPaths, writeBuildInfo } from '../../content-model/load/build-files.ts';
import type { SeoSummary } from '../seo/seo-build.ts';
import { buildInputs } from './build-inputs.ts';
import { compressTree, fullOutput } from './build-output.ts';
import { chunkGraphData } from './chunk-graph.ts';
import { buildConsoleApp } from './console-app.ts';
import { copyPublicFiles } from './public-files.ts';
import { loadPrerenderEntry, writeSiteFiles } from './site-files.ts';
import { browserBuildConfig, prerenderBuildConfig } from './vite-config.ts';

export { htmlFileFor } from './site-files.ts';
export { compressTree } from './build-output.ts';

export type BuildSiteOptions = {
  readonly root: string;
  readonly outDir: string;
  readonly content: ContentBundle;
  readonly settings: PublicSettings;
  /** The commit built (build-commit.ts `buildCommit`); null outside git. */
  readonly commit: string | null;
  /** Where the content was read from, when not `<root>/content` (it is not code: see build-inputs.ts). */
  readonly contentDir?: string;
};

export type BuildSummary = {
  pages: number;
  compressedFiles: number;
  seo: SeoSummary;
  bundleMs: number;
  prerenderMs: number;
  consoleMs: number;
};

export async function buildSite({ root, outDir, content, settings, contentDir, commit }: BuildSiteOptions): Promise<BuildSummary> {
  const started = performance.now();
  // Taken before bundling: a file changed while the build runs makes the next publish a full build.
  const inputs = buildInputs({
    root,
    content,
    settings,
    nodeEnv: process.env.NODE_ENV,
    skip: [outDir, ...(contentDir ? [contentDir] : [])],
  });
  rmSync(outDir, { recursive: true, force: true });
  const { clientDir, serverDir } = buildPaths(outDir);
  const viteOptions = { root, settings, content };
  const browser = await viteBuild(browserBuildConfig({ ...viteOptions, outDir: clientDir }));
  copyPublicFiles({ publicDir: path.join(root, 'public'), clientDir, content });
  await viteBuild(prerenderBuildConfig({ ...viteOptions, outDir: serverDir }));
  copyPageAssets(serverDir, clientDir);
  const bundled = performance.now();

  const chunks = chunkGraphData((Array.isArray(browser) ? browser : [browser]) as Rolldown.RolldownOutput[]);
  const entry = await loadPrerenderEntry(serverDir, content, settings);
  const site = await writeSiteFiles({ content, settings, entry, chunks, inputs, output: fullOutput(outDir) });
  const siteDone = performance.now();
  const consoleDir = await buildConsoleApp(root, outDir);
  const compressedFiles = compressTree(clientDir) + compressTree(consoleDir);
  writeBuildInfo(clientDir, { commit, builtAt: new Date().toISOString() });
  return {
    pages: site.pages,
    compressedFiles,
    seo: site.seo,
    bundleMs: bundled - started,
    prerenderMs: siteDone - bundled,
    consoleMs: performance.now() - siteDone,
  };
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
