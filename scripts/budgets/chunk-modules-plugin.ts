// Vite plugin: writes client/.vite/chunk-modules.json, which source modules each emitted chunk holds
// and how many bytes each contributes, and client/.vite/module-gzip.json, each module's rendered code
// at its gzip size. The budget tests (tests/e2e/budgets.spec.ts) use them to prove that heavy
// libraries (react-markdown, remark-gfm, zod, the form engine) load only on the routes that use them,
// and that small always-loaded parts (the analytics beacon) stay small. Dot folders are never served,
// so both stay private.
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { minifySync, type Plugin } from 'vite';

export const CHUNK_MODULES_FILE = '.vite/chunk-modules.json';
export const MODULE_GZIP_FILE = '.vite/module-gzip.json';
export const MODULE_IN_CHUNK_GZIP_FILE = '.vite/module-in-chunk-gzip.json';

/**
 * Small modules every page loads whose weight is budgeted as what they add to their chunk's gzip size:
 * the chunk's modules minified and compressed together, less the same without the module.
 */
export const IN_CHUNK_MODULES = ['renderer/shell/beacon.ts'] as const;

/** Chunk file (e.g. "assets/index-abc.js") → module id relative to the project (e.g. "node_modules/zod/…") → rendered bytes. */
export type ChunkModules = Record<string, Record<string, number>>;

/**
 * Project module id (not node_modules) → gzip bytes of its rendered code alone, minified as the
 * chunk is (whitespace and names). Inside a chunk it shares the compression with its neighbours, so
 * what it adds to the chunk's gzip size is about this or less.
 */
export type ModuleGzipBytes = Record<string, number>;

/** Module id (one of IN_CHUNK_MODULES) → gzip bytes it adds to its chunk, compressed with its neighbours as it is served. */
export type ModuleInChunkGzipBytes = Record<string, number>;

export function chunkModulesPlugin(root: string): Plugin {
  return {
    name: 'chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment?.config.consumer === 'server') return;
      const report: ChunkModules = {};
      const gzipBytes: ModuleGzipBytes = {};
      const inChunkBytes: ModuleInChunkGzipBytes = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        report[output.fileName] = Object.fromEntries(
          Object.entries(output.modules).map(([id, info]) => [toProjectPath(root, id), info.renderedLength]),
        );
        for (const [id, info] of Object.entries(output.modules)) {
          const name = toProjectPath(root, id);
          if (info.code && !name.startsWith('node_modules/')) gzipBytes[name] = minifiedGzipBytes(name, info.code);
        }
        const modules = Object.entries(output.modules).map(([id, info]) => ({ name: toProjectPath(root, id), code: info.code ?? '' }));
        for (const measured of IN_CHUNK_MODULES) {
          if (!modules.some(({ name }) => name === measured)) continue;
          const joined = (keep: (name: string) => boolean) =>
            modules
              .filter(({ name }) => keep(name))
              .map(({ code }) => code)
              .join('\n');
          inChunkBytes[measured] =
            minifiedGzipBytes(
              output.fileName,
              joined(() => true),
            ) -
            minifiedGzipBytes(
              output.fileName,
              joined((name) => name !== measured),
            );
        }
      }
      this.emitFile({ type: 'asset', fileName: CHUNK_MODULES_FILE, source: `${JSON.stringify(report, null, 1)}\n` });
      this.emitFile({ type: 'asset', fileName: MODULE_GZIP_FILE, source: `${JSON.stringify(gzipBytes, null, 1)}\n` });
      this.emitFile({ type: 'asset', fileName: MODULE_IN_CHUNK_GZIP_FILE, source: `${JSON.stringify(inChunkBytes, null, 1)}\n` });
    },
  };
}

function minifiedGzipBytes(name: string, code: string): number {
  // No dead-code removal: the module's top-level names are used by the rest of its chunk.
  const minified = minifySync(name, code, { module: true, compress: false, mangle: { toplevel: true } });
  return gzipSync(minified.errors.length > 0 ? code : minified.code, { level: 9 }).byteLength;
}

function toProjectPath(root: string, id: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  return path.isAbsolute(clean) ? path.relative(root, clean).split(path.sep).join('/') : clean;
}
