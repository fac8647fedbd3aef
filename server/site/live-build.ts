import { realpath, stat } from 'node:fs/promises';
import { ROUTES_FILE } from '../../content-model/load/build-files.ts';
import { loadSiteBuild, type SiteBuild } from './site-build.ts';
import path from 'node:path';

// The build DIST_DIR holds, followed while the server runs: one service per process, with one timer,
// that every reader of the build asks (the site's pages and files, the relay's ROI numbers, the
// pages analytics may name). The content studio publishes by building into a fresh folder and
// pointing DIST_DIR (a symbolic link) at it in one rename; `npm run build` rewrites DIST_DIR in
// place. Either way the folder DIST_DIR resolves to, or its route table, changes: the service then
// loads the new build, and every reader gets it at once. Requests already being answered finish from
// the folder they started with, which stays on disk.

/**
 * How often DIST_DIR is looked at (one realpath and one stat). A publish shows within this (plus the
 * reload): a studio publish of one page takes a few hundred milliseconds, so a whole second here
 * would be most of the wait.
 */
export const BUILD_CHECK_INTERVAL_MS = 200;

/** What identifies the build DIST_DIR holds right now: the folder it resolves to and when its route table was written. */
export async function buildSignature(distDir: string): Promise<string | undefined> {
  try {
    const folder = await realpath(distDir);
    const routes = await stat(path.join(folder, ROUTES_FILE));
    return `${folder}\n${routes.mtimeMs}\n${routes.size}`;
  } catch {
    // Mid-rewrite (`npm run build` empties the folder first): keep the build already loaded.
    return undefined;
  }
}

/** Told of each new build once it is loaded; the service waits for it before it looks again. */
export type BuildListener = (build: SiteBuild) => void | Promise<void>;

export type LiveBuild = {
  /** The DIST_DIR this service follows, as configured. */
  readonly distDir: string;
  /** The build loaded last: the one every reader answers from now. */
  current(): SiteBuild;
  /**
   * Calls `listener` with each new build DIST_DIR holds from now on (after `current()` has changed);
   * returns what stops it. The first listener starts the timer (unless the service was made without one).
   */
  subscribe(listener: BuildListener): () => void;
  /**
   * Looks at DIST_DIR now, unless it was looked at less than `maxAgeMs` ago, and resolves once a new
   * build found is loaded and every listener has had it. Callers at the same time share one look.
   */
  refresh(maxAgeMs?: number): Promise<void>;
  /** Stops the timer; the build loaded last stays. */
  stop(): void;
};

export type LiveBuildOptions = {
  distDir: string;
  /** A new build that cannot be loaded, or a listener that fails: reported, and the previous build stays. */
  onError: (error: unknown) => void;
  /** How often the timer looks; `false` makes a service without a timer, looked at through `refresh` only. */
  intervalMs?: number | false;
  now?: () => number;
};

/**
 * Loads the build DIST_DIR holds (a missing or inconsistent one rejects with a SiteBuildError: the
 * server cannot start without one) and follows it from then on.
 */
export async function openLiveBuild(options: LiveBuildOptions): Promise<LiveBuild> {
  const { distDir, onError, now = Date.now } = options;
  const intervalMs = options.intervalMs ?? BUILD_CHECK_INTERVAL_MS;
  // Taken before the build is read: a build that lands while it is read is noticed on the next look.
  let known = await buildSignature(distDir);
  let build = await loadSiteBuild(distDir);
  const listeners = new Set<BuildListener>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let lookedAt = -Infinity;
  let looking: Promise<void> | undefined;

  async function look(): Promise<void> {
    const current = await buildSignature(distDir);
    if (current === undefined || current === known) return;
    // A broken build is reported once and read again when DIST_DIR changes.
    known = current;
    try {
      build = await loadSiteBuild(distDir);
    } catch (error) {
      onError(error);
      return;
    }
    for (const listener of [...listeners]) {
      try {
        await listener(build);
      } catch (error) {
        onError(error);
      }
    }
  }

  function refresh(maxAgeMs = 0): Promise<void> {
    if (looking) return looking;
    if (now() - lookedAt < maxAgeMs) return Promise.resolve();
    looking = look().finally(() => {
      lookedAt = now();
      looking = undefined;
    });
    return looking;
  }

  function startTimer(): void {
    if (timer !== undefined || stopped || intervalMs === false) return;
    timer = setInterval(() => {
      // A look still under way (a large build loading) is not joined by another.
      if (looking === undefined) void refresh();
    }, intervalMs);
    timer.unref();
  }

  return {
    distDir,
    current: () => build,
    subscribe(listener) {
      listeners.add(listener);
      startTimer();
      return () => listeners.delete(listener);
    },
    refresh,
    stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
    },
  };
}
