// The build a studio publish runs: only what the change reaches when that can be shown to give the
// same files as a full build, else the full build (`npm run build`, in its own process).
//
// An incremental build starts from a copy of the live build (hard links: nothing is copied, and the
// live build, being served, is never written), then writes what the content reaches through the
// same code as the full build (site-files.ts), with the live build's prerender bundle:
//   - a page is rendered again only when a text it was drawn from (its page file, its article) or
//     its JSON-LD changed; an Open Graph picture only when its title or label changed;
//   - the sitemap, feed, robots.txt, routes.json, roi-parameters.json, business-hours.json, csp.json and incremental.json
//     are made again (they cost nothing) and replace the live build's only when they differ;
//   - precompressed copies are made for the files written anew.
// A full build instead when the live build has no record of what it was made from, or when what it
// was made from differs in anything that reaches the bundles or every page (build-inputs.ts: the
// code, build settings, site settings, ROI numbers, article list, routes, uploaded pictures).
//
// The studio runs incremental builds in one long-lived process (build-worker.ts, started by
// studio/server/site-builder.ts), which keeps the prerender bundle, the picture renderer and its
// fonts loaded between publishes.
import { copyFileSync, cpSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContent } from '../../content-model/load/load-content.ts';
import { readPublicSettings } from '../../renderer/build-settings.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import { buildInputs, digest, fullBuildReason, readBuildState, type BuildState } from './build-inputs.ts';
import { buildPaths, writeBuildInfo } from '../../content-model/load/build-files.ts';
import { buildCommit } from './build-commit.ts';
import { incrementalOutput } from './build-output.ts';
import { loadPrerenderEntry, writeSiteFiles, type PrerenderEntry } from './site-files.ts';
import { prerenderContentOf, providePrerenderContent } from './prerender-content.ts';

export type IncrementalResult = { kind: 'incremental'; rendered: number; written: readonly string[] } | { kind: 'full'; reason: string };

/** The prerender bundle an incremental build renders with, kept loaded while the inputs it read stay the same. */
export type PrerenderCache = {
  entry(key: string, serverDir: string, content: ContentBundle, settings: PublicSettings): Promise<PrerenderEntry>;
  close(): void;
};

export function createPrerenderCache(): PrerenderCache {
  let loaded: { key: string; entry: PrerenderEntry; dir: string } | undefined;
  return {
    async entry(key, serverDir, content, settings) {
      if (loaded?.key === key) return loaded.entry;
      if (loaded) rmSync(loaded.dir, { recursive: true, force: true });
      // A copy of its own: the bundle loads chunks as pages need them, after the build it came
      // from may have been removed.
      const dir = mkdtempSync(path.join(tmpdir(), 'site-prerender-'));
      cpSync(serverDir, dir, { recursive: true });
      loaded = { key, entry: await loadPrerenderEntry(dir, content, settings), dir };
      return loaded.entry;
    },
    close() {
      if (loaded) rmSync(loaded.dir, { recursive: true, force: true });
      loaded = undefined;
    },
  };
}

/**
 * Builds into `outDir` from the live build `previous` and the content on disk, when that gives the
 * same files as a full build; otherwise writes nothing and says why a full build is needed.
 */
export async function buildIncrementally(options: {
  root: string;
  env: NodeJS.ProcessEnv;
  outDir: string;
  previous: string;
  cache: PrerenderCache;
}): Promise<IncrementalResult> {
  const { root, env, outDir, previous, cache } = options;
  const contentDir = env.CONTENT_DIR ? path.resolve(env.CONTENT_DIR) : undefined;
  const settings = readPublicSettings(env);
  const content = loadContent({ root, contentDir });
  const inputs = buildInputs({ root, content, settings, nodeEnv: env.NODE_ENV, skip: [outDir, ...(contentDir ? [contentDir] : [])] });
  const state = readBuildState(previous);
  const reason = fullBuildReason(state, inputs);
  if (reason !== undefined || state === undefined) return { kind: 'full', reason: reason ?? 'no record' };
  renderAs(state);

  rmSync(outDir, { recursive: true, force: true });
  linkBuild(previous, outDir);
  const entry = await cache.entry(digest(inputs), buildPaths(previous).serverDir, content, settings);
  const output = incrementalOutput(outDir, state.keys);
  const site = await writeSiteFiles({ content, settings, entry, chunks: state.chunks, inputs, output, previous: state });
  await output.finish();
  // The build file names this build, as a full build's does (a copy of the live build's would not).
  writeBuildInfo(buildPaths(outDir).clientDir, { commit: buildCommit(root, env), builtAt: new Date().toISOString() });
  return { kind: 'incremental', rendered: site.rendered, written: output.written };
}

/**
 * Gets ready for incremental builds from the build `previous` (just made by a full build): loads its
 * prerender bundle and renders the home page once, so the next publish pays for neither.
 */
export async function prepareIncremental(options: {
  root: string;
  env: NodeJS.ProcessEnv;
  previous: string;
  cache: PrerenderCache;
}): Promise<void> {
  const { root, env, previous, cache } = options;
  const contentDir = env.CONTENT_DIR ? path.resolve(env.CONTENT_DIR) : undefined;
  const settings = readPublicSettings(env);
  const content = loadContent({ root, contentDir });
  const inputs = buildInputs({ root, content, settings, nodeEnv: env.NODE_ENV, skip: contentDir ? [contentDir] : [] });
  const state = readBuildState(previous);
  if (state === undefined || fullBuildReason(state, inputs) !== undefined) return;
  renderAs(state);
  const entry = await cache.entry(digest(inputs), buildPaths(previous).serverDir, content, settings);
  providePrerenderContent(prerenderContentOf(content, settings));
  await entry.render('http://prerender.local/');
}

/**
 * Renders as the build `state` came from did: React's production or development build, as the full
 * build's bundler chose by NODE_ENV (in this process, with no bundler, nothing would set it).
 */
function renderAs(state: BuildState): void {
  if (state.renderNodeEnv === null) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = state.renderNodeEnv;
}

/**
 * `to` as a copy of the build `from`: its files hard-linked (a copy where links cannot be made),
 * apart from the files at the top (routes.json and the like), which are copied: whatever writes
 * them can never reach the live build's.
 */
function linkBuild(from: string, to: string): void {
  const visit = (source: string, target: string, top: boolean) => {
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(source)) {
      const file = path.join(source, name);
      const copy = path.join(target, name);
      if (statSync(file).isDirectory()) visit(file, copy, false);
      else if (top) copyFileSync(file, copy);
      else {
        try {
          linkSync(file, copy);
        } catch {
          copyFileSync(file, copy);
        }
      }
    }
  };
  visit(from, to, true);
}
