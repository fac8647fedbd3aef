// The back office's code stays out of the public site: no prerendered page refers to the console's
// files, no public file mentions its assets, and no public chunk holds a module of console/ (the
// chunk map written by chunk-modules-plugin.ts names each chunk's modules). Returns what breaks the
// rule, one sentence each; an empty list means the public site holds not a byte of the console.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildPaths, readRoutesFile } from '../../content-model/load/build-files.ts';
import { CHUNK_MODULES_FILE, type ChunkModules } from './chunk-modules-plugin.ts';

const CONSOLE_ASSETS = '/console/assets/';
const CONSOLE_MODULE = /^console\//;
const TEXT_FILE = /\.(html|js|mjs|css|json|xml|txt|webmanifest|svg)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

export function findConsoleCodeInPublicSite(distDir: string): string[] {
  const { clientDir } = buildPaths(distDir);
  const problems: string[] = [];
  const routes = readRoutesFile(distDir);
  const pages = [...Object.values(routes.pages), routes.notFound, ...Object.values(routes.notFoundByPrefix)];
  for (const page of pages) {
    const html = readFileSync(path.join(clientDir, page), 'utf8');
    if (/["'(=\s]\/console(\/|["'?#\s)])/.test(html)) problems.push(`${page} refers to the console`);
  }
  for (const file of filesUnder(clientDir).filter((name) => TEXT_FILE.test(name))) {
    if (readFileSync(file, 'utf8').includes(CONSOLE_ASSETS))
      problems.push(`${path.relative(clientDir, file)} mentions the console's assets (${CONSOLE_ASSETS})`);
  }
  const chunkModulesFile = path.join(clientDir, CHUNK_MODULES_FILE);
  if (existsSync(chunkModulesFile)) {
    const chunkModules = JSON.parse(readFileSync(chunkModulesFile, 'utf8')) as ChunkModules;
    for (const [chunk, modules] of Object.entries(chunkModules))
      for (const id of Object.keys(modules).filter((id) => CONSOLE_MODULE.test(id))) problems.push(`${chunk} holds ${id}`);
  }
  return problems;
}
