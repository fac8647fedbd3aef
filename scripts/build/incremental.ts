// The build a studio publish runs: only what the change reaches when that can be shown to give the
// same files as a full build, else the full build (`npm run build`, in its own process).
//
// An incremental build starts from a copy of the live build (hard links: nothing is copied, and the
// live build, being served, is never written), then writes what the content reaches through the
// same code as the full build (site-files.ts), with the live build's prerender bundle:
//   - a page is rendered again only when a text it was drawn from (its page file, its article) or
//     its JSON-LD changed; an Open Graph picture only when its title or label changed;
//   - the sitemap, feed, robots.txt, routes.json, roi-parameters.json, csp.json and incremental.json
//     are made again (they cost nothing) and replace the live build's only when they differ;
//   - precompressed copies are made for the files written anew.
// A full build instead when the live build has no record of what it was made from, or when what it
// was made from differs in anything that reaches the bundles or every page (build-inputs.ts: the
// code, build settings, site settings, ROI numbers, article list, routes, uploaded pictures).
//
// The incremental builds run in one long-lived process (build-worker.ts), which keeps the prerender
// bundle, the picture renderer and its fonts loaded between publishes.
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadContent } from '../../content-model/load/load-content.ts';
import { readPublicSettings } from '../../renderer/build-settings.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import { buildInputs, digest, fullBuildReason, readBuildState } from './build-inputs.ts';
import { incrementalOutput } from './build-output.ts';
import { loadPrerenderEntry, writeSiteFiles, type PrerenderEntry } from './site-files.ts';

const run = promisify(execFile);

/** What a publish changed: the content files (relative to the project) and the build live before it. */
export type BuildChange = { readonly changed: readonly string[]; readonly previous: string | null };

export type BuildReport =
  | { kind: 'incremental'; rendered: number; written: readonly string[]; ms: number }
  | { kind: 'full'; reason: string; ms: number };

export type IncrementalResult =
  | { kind: 'incremental'; rendered: number; written: readonly string[] }
  | { kind: 'full'; reason: string };

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
  const inputs = buildInputs({ root, content, settings, skip: [outDir, ...(contentDir ? [contentDir] : [])] });
  const state = readBuildState(previous);
  const reason = fullBuildReason(state, inputs);
  if (reason !== undefined || state === undefined) return { kind: 'full', reason: reason ?? 'no record' };

  rmSync(outDir, { recursive: true, force: true });
  linkBuild(previous, outDir);
  const entry = await cache.entry(digest(inputs), path.join(previous, 'server'), content, settings);
  const output = incrementalOutput(outDir, state.keys);
  const site = await writeSiteFiles({ content, settings, entry, chunks: state.chunks, inputs, output, previous: state });
  await output.finish();
  return { kind: 'incremental', rendered: site.rendered, written: output.written };
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

/** `npm run build` into `outDir`, in its own process: a crash or a content mistake cannot take the studio down. */
export async function runFullBuild(root: string, outDir: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await run(process.execPath, [path.join(root, 'scripts', 'build.ts')], {
    cwd: root,
    env: { ...env, OUT_DIR: outDir },
    maxBuffer: 16 * 1024 * 1024,
  });
}

export type SiteBuilder = {
  build(outDir: string, change: BuildChange): Promise<BuildReport>;
  /** Stops the build process kept for incremental builds. */
  close(): void;
};

type WorkerAnswer = { id: number; result?: IncrementalResult | { kind: 'stale' }; error?: string };

/** The studio's builds: incremental when it can be, else full; one at a time (the publisher queues them). */
export function createSiteBuilder(options: { root: string; env?: NodeJS.ProcessEnv; log?: (line: string) => void }): SiteBuilder {
  const { root } = options;
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  let worker: ChildProcess | undefined;
  let nextId = 0;

  const startWorker = (): ChildProcess => {
    const child = fork(path.join(import.meta.dirname, 'build-worker.ts'), [], {
      cwd: root,
      env: { ...env, SITE_ROOT: root },
      execArgv: [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('exit', () => {
      if (worker === child) worker = undefined;
    });
    idle(child);
    return child;
  };
  // The build process never keeps the studio running on its own.
  const idle = (child: ChildProcess) => {
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  };
  const busy = (child: ChildProcess) => {
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
  };

  const ask = (outDir: string, previous: string): Promise<IncrementalResult | { kind: 'stale' }> => {
    worker ??= startWorker();
    const child = worker;
    const id = ++nextId;
    busy(child);
    return new Promise<IncrementalResult | { kind: 'stale' }>((resolve, reject) => {
      const onMessage = (answer: WorkerAnswer) => {
        if (answer.id !== id) return;
        done();
        if (answer.error !== undefined || answer.result === undefined) reject(new Error(answer.error ?? 'no answer'));
        else resolve(answer.result);
      };
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`the build process stopped (exit code ${code})`));
      };
      const done = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        idle(child);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, outDir, previous });
    });
  };

  const incremental = async (outDir: string, previous: string): Promise<IncrementalResult> => {
    let result = await ask(outDir, previous);
    // The build process loaded code that has changed on disk since: a new one loads the new code.
    if (result.kind === 'stale') result = await ask(outDir, previous);
    if (result.kind === 'stale') return { kind: 'full', reason: 'the build process could not load the current code' };
    return result;
  };

  return {
    async build(outDir, { changed, previous }) {
      const started = performance.now();
      const what = changed.length > 0 ? changed.join(', ') : 'no file';
      let reason = 'there is no live build to start from';
      if (previous !== null) {
        try {
          const result = await incremental(outDir, previous);
          if (result.kind === 'incremental') {
            const ms = Math.round(performance.now() - started);
            log(`Site build (${what}): incremental, ${result.rendered} page(s) rendered, ${result.written.length} file(s) written, in ${ms} ms.`);
            return { ...result, ms };
          }
          reason = result.reason;
        } catch (error) {
          // Correctness first: whatever went wrong, the full build decides.
          reason = `the incremental build failed (${(error as Error).message.split('\n')[0]})`;
          rmSync(outDir, { recursive: true, force: true });
        }
      }
      await runFullBuild(root, outDir, env);
      const ms = Math.round(performance.now() - started);
      log(`Site build (${what}): full, because ${reason}, in ${ms} ms.`);
      return { kind: 'full', reason, ms };
    },
    close() {
      worker?.kill();
      worker = undefined;
    },
  };
}
