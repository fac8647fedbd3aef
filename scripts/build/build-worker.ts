// The process the studio keeps for incremental builds (started by incremental.ts): the prerender
// bundle, the picture renderer and its fonts stay loaded between publishes. It answers one request
// at a time, { id, outDir, previous }, with { id, result } or { id, error }; { id, prepare } gets it
// ready to build from the build `prepare` (after a full build). When the code on disk is
// no longer the code it loaded, it answers "stale" and stops; the studio starts a new one.
import path from 'node:path';
import { codeFingerprint } from './build-inputs.ts';
import { buildIncrementally, createPrerenderCache, prepareIncremental } from './incremental.ts';

const root = path.resolve(process.env.SITE_ROOT ?? process.cwd());
const contentDir = process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : undefined;
const skip = contentDir ? [contentDir] : [];
const loadedCode = codeFingerprint(root, skip);
const cache = createPrerenderCache();
// The environment as the studio gave it (an incremental build sets NODE_ENV in this process as it renders).
const env = { ...process.env };

type Request = { id: number; outDir: string; previous: string } | { id: number; prepare: string };

async function answer(request: Request): Promise<void> {
  if ('prepare' in request) {
    // Only saves time later: whatever fails here, the next build finds out again.
    if (codeFingerprint(root, skip) === loadedCode) await prepareIncremental({ root, env, previous: request.prepare, cache });
    return;
  }
  try {
    if (codeFingerprint(root, [...skip, request.outDir]) !== loadedCode) {
      process.send!({ id: request.id, result: { kind: 'stale' } }, () => stop());
      return;
    }
    const result = await buildIncrementally({ root, env, outDir: request.outDir, previous: request.previous, cache });
    process.send!({ id: request.id, result });
  } catch (error) {
    process.send!({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

let queue = Promise.resolve();
process.on('message', (request: Request) => {
  queue = queue.then(() => answer(request)).catch(() => undefined);
});

function stop() {
  cache.close();
  process.exit(0);
}

// The studio stopped: so does its build process.
process.on('disconnect', stop);
