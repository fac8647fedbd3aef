// Vite plugin: writes client/.vite/chunk-modules.json, which source modules each emitted chunk holds
// and how many bytes each contributes. The budget tests (tests/e2e/budgets.spec.ts) use it to prove
// that heavy libraries (react-markdown, remark-gfm, zod, the form engine) load only on the routes
// that use them. Dot folders are never served, so it stays private.
import path from 'node:path';
import type { Plugin } from 'vite';

export const CHUNK_MODULES_FILE = '.vite/chunk-modules.json';

/** Chunk file (e.g. "assets/index-abc.js") → module id relative to the project (e.g. "node_modules/zod/…") → rendered bytes. */
export type ChunkModules = Record<string, Record<string, number>>;

export function chunkModulesPlugin(root: string): Plugin {
  return {
    name: 'chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment?.config.consumer === 'server') return;
      const report: ChunkModules = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        report[output.fileName] = Object.fromEntries(
          Object.entries(output.modules).map(([id, info]) => [toProjectPath(root, id), info.renderedLength]),
        );
      }
      this.emitFile({ type: 'asset', fileName: CHUNK_MODULES_FILE, source: `${JSON.stringify(report, null, 1)}\n` });
    },
  };
}

function toProjectPath(root: string, id: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  return path.isAbsolute(clean) ? path.relative(root, clean).split(path.sep).join('/') : clean;
}
