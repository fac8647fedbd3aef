// A copy of a build in which every page has no script at all: the same HTML, styles, font and
// pictures, so the same first paint, but nothing to download, parse, run or hydrate. Lighthouse on
// this copy is the physical limit for that content; `npm run bench:pages -- --compare-no-script`
// measures each route next to it.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { buildPaths, readRoutesFile } from '../../content-model/load/build-files.ts';

// Every script element, external or inline, data blocks included: the copy runs nothing.
const SCRIPT_ELEMENT = /<script\b[^>]*>[\s\S]*?<\/script>\s*/gi;

export function withoutScripts(html: string): string {
  return html.replace(SCRIPT_ELEMENT, '');
}

/** Copies `distDir` to `copyDir` and removes the scripts from every page the server answers with. */
export function makeNoScriptCopy(distDir: string, copyDir: string): number {
  rmSync(copyDir, { recursive: true, force: true });
  cpSync(distDir, copyDir, { recursive: true });
  const routes = readRoutesFile(copyDir);
  const pages = new Set([...Object.values(routes.pages), routes.notFound, ...Object.values(routes.notFoundByPrefix)]);
  for (const page of pages) {
    const file = path.join(buildPaths(copyDir).clientDir, page);
    const html = withoutScripts(readFileSync(file, 'utf8'));
    writeFileSync(file, html);
    // The server sends the precompressed copies, so they must say the same.
    writeFileSync(`${file}.br`, brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }));
    writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
  }
  return pages.size;
}
