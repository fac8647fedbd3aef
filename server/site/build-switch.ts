import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ROUTES_FILE } from '../../content-model/load/build-files.ts';

// A running server follows a new build without a restart. The content studio publishes by building
// into a fresh folder and pointing DIST_DIR (a symbolic link) at it in one rename; `npm run build`
// rewrites DIST_DIR in place. Either way the folder DIST_DIR resolves to, or its route table,
// changes: the server then loads the new build and answers from it. Requests already being
// answered finish from the folder they started with, which stays on disk.

/**
 * How often DIST_DIR is looked at (one realpath and one stat). A publish shows within this (plus the
 * reload): a studio publish of one page takes a few hundred milliseconds, so a whole second here
 * would be most of the wait.
 */
export const BUILD_CHECK_INTERVAL_MS = 200;

export type BuildSwitchWatch = { stop(): void };

/** What identifies the build DIST_DIR holds right now: the folder it resolves to and when its route table was written. */
export async function buildSignature(distDir: string): Promise<string | undefined> {
  try {
    const folder = await realpath(distDir);
    const routes = await stat(path.join(folder, ROUTES_FILE));
    return `${folder}\n${routes.mtimeMs}\n${routes.size}`;
  } catch {
    // Mid-rewrite (`npm run build` empties the folder first): keep serving the build already loaded.
    return undefined;
  }
}

/**
 * Calls `onSwitch` once DIST_DIR holds another build than `signature` says. A failing `onSwitch`
 * (a half-written build) is reported and tried again on the next change.
 */
export function watchBuildSwitch(
  distDir: string,
  signature: string | undefined,
  onSwitch: () => Promise<void>,
  onError: (error: unknown) => void,
  intervalMs = BUILD_CHECK_INTERVAL_MS,
): BuildSwitchWatch {
  let known = signature;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      const current = await buildSignature(distDir);
      if (current === undefined || current === known) return;
      known = current;
      await onSwitch();
    })()
      .catch(onError)
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
