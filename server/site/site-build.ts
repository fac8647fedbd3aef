import { readFile, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { CLIENT_DIR, parseRoutesFile, ROUTES_FILE, SiteBuildError } from '../../content-model/load/build-files.ts';

// What the build wrote to DIST_DIR (content-model/load/build-files.ts names and shapes the files),
// checked whenever a build is loaded: the route table, and the files of the public root it points to.
// Only files listed here can ever be served, so nothing outside the public root (the route table
// included) and no precompressed sibling (.br, .gz) is reachable by URL, however the URL is spelled.

export const PRECOMPRESSED_EXTENSIONS = ['.br', '.gz'] as const;

export type SiteBuild = Readonly<{
  /** Absolute path of the public root. */
  clientDir: string;
  /** Route (`/`, `/about`) → page file relative to clientDir. */
  pages: ReadonlyMap<string, string>;
  /** URL path of a page file (`/about/index.html`) → its route (`/about`). */
  pageFileRoutes: ReadonlyMap<string, string>;
  /** URL paths (`/robots.txt`) of every other servable file; the file is the path without its leading slash. */
  files: ReadonlySet<string>;
  notFound: string;
  /** Longest prefix first, so the most specific not-found page wins. */
  notFoundByPrefix: ReadonlyArray<readonly [prefix: string, file: string]>;
}>;

export async function loadSiteBuild(distDir: string): Promise<SiteBuild> {
  const displayDir = `${distDir.replace(/[\\/]+$/, '')}/`;
  // Through a symbolic link (a studio publish), the build is the folder the link points to now: files
  // are read from there even after the link moves on, so one answer never mixes two builds.
  const buildDir = await realpath(distDir).catch(() => path.resolve(distDir));
  const routesFile = path.join(buildDir, ROUTES_FILE);
  const clientDir = path.join(buildDir, CLIENT_DIR);

  const routesText = await readFile(routesFile, 'utf8').catch((error: unknown) => {
    if (isMissing(error)) throw new SiteBuildError(`No build found in ${displayDir}: run \`npm run build\` first`);
    throw error;
  });
  const allFiles = await listFiles(clientDir).catch((error: unknown) => {
    if (isMissing(error)) {
      throw new SiteBuildError(`Incomplete build: ${displayDir}${CLIENT_DIR}/ is missing; run \`npm run build\` again`);
    }
    throw error;
  });

  const manifest = parseRoutesFile(routesText, `${displayDir}${ROUTES_FILE}`);
  const problems: string[] = [];
  const requireFile = (file: string, where: string): void => {
    if (!allFiles.has(file)) problems.push(`${where} points to "${file}", which is not in ${displayDir}${CLIENT_DIR}/`);
  };

  const pageFileRoutes = new Map<string, string>();
  for (const [route, file] of manifest.pages) {
    requireFile(file, `pages["${route}"]`);
    pageFileRoutes.set(`/${file}`, route);
  }
  requireFile(manifest.notFound, 'notFound');
  for (const [prefix, file] of manifest.notFoundByPrefix) requireFile(file, `notFoundByPrefix["${prefix}"]`);
  if (problems.length > 0) {
    throw new SiteBuildError(`${displayDir}${ROUTES_FILE} does not match the build:\n  ${problems.join('\n  ')}`);
  }

  // HTML documents are reachable only through their routes; not-found pages never answer 200.
  const routedFiles = new Set([...manifest.pages.values(), manifest.notFound, ...manifest.notFoundByPrefix.map(([, file]) => file)]);
  const files = new Set<string>();
  for (const file of allFiles) {
    if (!routedFiles.has(file) && !isPrecompressedSibling(file)) files.add(`/${file}`);
  }

  return Object.freeze({
    clientDir,
    pages: manifest.pages,
    pageFileRoutes,
    files,
    notFound: manifest.notFound,
    notFoundByPrefix: [...manifest.notFoundByPrefix].sort(([a], [b]) => b.length - a.length),
  });
}

async function listFiles(root: string): Promise<Set<string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = new Set<string>();
  for (const entry of entries) {
    // Regular files only: symlinks could point outside the public root.
    if (!entry.isFile()) continue;
    const relative = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    // Dotfiles (.DS_Store, .env copied by mistake) are never public.
    if (relative.split('/').some((segment) => segment.startsWith('.'))) continue;
    files.add(relative);
  }
  return files;
}

function isPrecompressedSibling(file: string): boolean {
  return PRECOMPRESSED_EXTENSIONS.some((extension) => file.endsWith(extension));
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
