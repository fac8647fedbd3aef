// What a build was made from, recorded in every build as incremental.json (BUILD_STATE_FILE in
// content-model/load/build-files.ts), so a later build can tell what changed since:
//   - the inputs that reach the bundles or every page: the code, the build settings, the site
//     settings, the ROI numbers, the article list the blog list block carries, the routes and the
//     uploaded pictures the content uses. When one of them differs, only a full build is right.
//   - per file that costs to make (a page's HTML, an Open Graph picture), the key of what it was made
//     from; a page's key names the texts its render read (scripts/build/prerender-content.ts).
//   - the browser bundle's chunk graph, so a page rendered again preloads the same chunks.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import { uploadsUsedBy } from './public-files.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import type { ChunkGraphData } from './chunk-graph.ts';
import { blogIndexEntry } from '../../content-model/blog-index.ts';
import { routeTable, siteModule } from './prerender-content.ts';
import { buildPaths } from '../../content-model/load/build-files.ts';

/** Raised when what the state records, or how, changes: an older build then never serves as a base. */
const STATE_FORMAT = 3;

export type BuildInputs = {
  code: string;
  settings: string;
  /** The mode the bundles are made in: NODE_ENV, or `production` when it is not set (as the bundler does). */
  nodeEnv: string;
  site: string;
  roi: string;
  blogIndex: string;
  routes: string;
  uploads: string;
};

export type BuildState = {
  format: number;
  inputs: BuildInputs;
  /** NODE_ENV while the pages rendered: the prerender bundle picks React's production or development build by it. */
  renderNodeEnv: string | null;
  chunks: ChunkGraphData;
  /** Build file (relative to the build folder) → the key of what it was made from. */
  keys: Record<string, string>;
  /** A page's HTML file (relative to the build folder) → the texts its render read ("page:home"). */
  reads: Record<string, string[]>;
};

/** Hex digest of a value's JSON (or of a string as it is). */
export function digest(value: unknown): string {
  return createHash('sha256')
    .update(typeof value === 'string' ? value : JSON.stringify(value))
    .digest('hex')
    .slice(0, 32);
}

/** Folders at the project root that are not code: build output, local data, tests, documents (and its *.md files). */
const NOT_CODE = new Set([
  'node_modules',
  'dist',
  'dist.studio-next',
  'data',
  'test-results',
  'playwright-report',
  'coverage',
  'content',
  'tests',
  'docs',
]);
/**
 * Files no build reads, wherever they are: databases and their journals (a server pointed at a lead
 * store outside data/ keeps its visit counts beside it, and writes them on every request), logs and
 * the type checker's notes.
 */
const NOT_CODE_FILE = /\.(sqlite|sqlite3|db)(-wal|-shm|-journal)?$|\.log$|\.tsbuildinfo$/;
const UPLOADS = path.join('public', 'images', 'uploads');

/** File digests by path, size and time of change: a file is read again only when it changed. */
const fileDigests = new Map<string, string>();

function fileDigest(file: string, size: number, mtimeMs: number): string {
  const known = `${file}\0${size}\0${mtimeMs}`;
  let value = fileDigests.get(known);
  if (value === undefined) {
    value = createHash('sha256').update(readFileSync(file)).digest('hex');
    fileDigests.set(known, value);
  }
  return value;
}

/**
 * A fingerprint of everything but the content that a build reads: every file of the project (by
 * name and bytes, never by time) apart from the content, uploaded pictures, installed packages (they
 * count through npm's record of what is installed), dotfiles and dot folders (.studio, .tmp), tests,
 * documents, output folders and data files. Any change (a `git pull`, an `npm install`, an edited
 * component) makes the next publish a full build; a copy of the project has the same fingerprint, and
 * nothing a build, the studio or a running server writes changes it.
 */
export function codeFingerprint(root: string, skip: readonly string[] = []): string {
  const hash = createHash('sha256');
  const skipped = new Set(skip.map((dir) => path.resolve(dir)));
  const visit = (dir: string, relative: string) => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      const rel = relative ? path.join(relative, name) : name;
      const notCode = relative === '' && (NOT_CODE.has(name) || name.endsWith('.md'));
      if (notCode || name.startsWith('.') || NOT_CODE_FILE.test(name) || skipped.has(file) || rel === UPLOADS) continue;
      let stats;
      try {
        stats = statSync(file);
      } catch {
        continue; // a link to nothing
      }
      if (stats.isDirectory()) visit(file, rel);
      else hash.update(`${rel}\0${fileDigest(file, stats.size, stats.mtimeMs)}\n`);
    }
  };
  visit(root, '');
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  hash.update(existsSync(installed) ? readFileSync(installed) : 'no packages');
  return hash.digest('hex').slice(0, 32);
}

export function buildInputs(options: {
  root: string;
  content: ContentBundle;
  settings: PublicSettings;
  /** NODE_ENV as the build was started with (unset: the bundler makes it `production`). */
  nodeEnv: string | undefined;
  /** Folders inside the project that are not code (the content folder, the build's own output). */
  skip?: readonly string[];
}): BuildInputs {
  const { root, content, settings } = options;
  const uploads = [...uploadsUsedBy(content)].sort().map((name) => {
    const file = path.join(root, UPLOADS, name);
    const stats = existsSync(file) ? statSync(file) : undefined;
    return [name, stats?.size ?? null, stats?.mtimeMs ?? null];
  });
  return {
    code: codeFingerprint(root, options.skip),
    settings: digest(settings),
    nodeEnv: bundleMode(options.nodeEnv),
    site: digest(siteModule(content, settings)),
    roi: digest(content.roi),
    blogIndex: digest(content.posts.map(blogIndexEntry)),
    routes: digest(routeTable(content)),
    uploads: digest(uploads),
  };
}

/**
 * The mode the bundler builds in for a NODE_ENV: unset or empty is `production`, as the bundler sets
 * it. `npm run build` runs with it unset, the studio with `production` (it built its own app with the
 * same bundler first): both make the same bundles, so both record the same.
 */
export function bundleMode(nodeEnv: string | undefined): string {
  return nodeEnv?.trim() || 'production';
}

/** The content modules the inputs stand for (site settings, ROI numbers, article list). */
const BROWSER_CONTENT = new Set(['virtual:content/site', 'virtual:content/roi', 'virtual:content/blog-index']);

const INPUT_NAMES: Record<keyof BuildInputs, string> = {
  code: 'the code (a component, a build script, an installed package or a public file)',
  settings: 'the build settings',
  nodeEnv: 'NODE_ENV',
  site: 'the site settings',
  roi: 'the ROI numbers',
  blogIndex: 'the article list (a title, excerpt, date, author, category, picture or order)',
  routes: 'the routes (a page or article added, removed or moved)',
  uploads: 'the uploaded pictures the content uses',
};

/** Why `previous` cannot be the base of a build of `current`, or undefined when it can. */
export function fullBuildReason(previous: BuildState | undefined, current: BuildInputs): string | undefined {
  if (previous === undefined) return 'the live build has no record of what it was built from';
  if (previous.format !== STATE_FORMAT) return 'the live build was made by an older build';
  // The inputs compared below are all that may reach the browser bundle: a bundle that carries more
  // (a page's text) can only be made again by the full build.
  const unknown = previous.chunks.contentModules.filter((id) => !BROWSER_CONTENT.has(id));
  if (unknown.length > 0) return `the browser bundle holds ${unknown.join(', ')}`;
  const changed = (Object.keys(INPUT_NAMES) as (keyof BuildInputs)[]).filter((name) => previous.inputs[name] !== current[name]);
  return changed.length > 0 ? `${changed.map((name) => INPUT_NAMES[name]).join(', ')} changed` : undefined;
}

export function readBuildState(buildDir: string): BuildState | undefined {
  try {
    return JSON.parse(readFileSync(buildPaths(buildDir).buildState, 'utf8')) as BuildState;
  } catch {
    return undefined;
  }
}

export function serializeBuildState(state: Omit<BuildState, 'format'>): string {
  const sorted = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  const { inputs, renderNodeEnv, chunks, keys, reads } = state;
  return `${JSON.stringify({ format: STATE_FORMAT, inputs, renderNodeEnv, chunks, keys: sorted(keys), reads: sorted(reads) }, null, 2)}\n`;
}
