// `npm run build`: builds the site into dist/ (or OUT_DIR) from content/ (or CONTENT_DIR), with the
// build-time settings (SITE_URL, BOOKING_URL, PUBLIC_LEAD_ENDPOINT), naming the commit built
// (BUILD_COMMIT, else the checkout's HEAD) in dist/client/build.json. A content mistake or a bad
// setting ends the build with plain messages and nothing else: an editor reads what to fix, not a
// stack trace.
import path from 'node:path';
import { readPublicSettings } from '../renderer/build-settings.ts';
import { ContentError } from '../content-model/content-issue.ts';
import { loadContent } from '../content-model/load/load-content.ts';
import { buildCommit } from './build/build-commit.ts';
import { buildSite } from './build/build-site.ts';

const root = path.resolve(import.meta.dirname, '..');
const outDir = process.env.OUT_DIR ? path.resolve(process.env.OUT_DIR) : path.join(root, 'dist');
const contentDir = process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : undefined;

function fail(message: string): never {
  process.stderr.write(`${message}\nThe build stopped; nothing in ${path.relative(root, outDir) || outDir} was changed.\n`);
  process.exit(1);
}

let settings;
try {
  settings = readPublicSettings(process.env);
} catch (error) {
  fail(`Build settings:\n${(error as Error).message}`);
}

let commit;
try {
  commit = buildCommit(root, process.env);
} catch (error) {
  fail(`Build settings:\n${(error as Error).message}`);
}

let content;
try {
  content = loadContent({ root, contentDir });
} catch (error) {
  if (!(error instanceof ContentError)) throw error;
  fail(error.message);
}

if (content.warnings.length > 0) {
  const count = content.warnings.length === 1 ? '1 content warning' : `${content.warnings.length} content warnings`;
  console.log(`${count} (advice that stops nothing): npm run check:content lists them.`);
}

const started = performance.now();
const summary = await buildSite({ root, outDir, content, settings, commit, contentDir });
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `Built ${summary.pages} pages into ${path.relative(root, outDir) || outDir} in ${seconds(performance.now() - started)} ` +
    `(bundles ${seconds(summary.bundleMs)}, prerender and files ${seconds(summary.prerenderMs)}, console ${seconds(summary.consoleMs)}); ` +
    `${summary.compressedFiles} files precompressed.`,
);
const { ogImages, sitemapUrls, feedItems, inlineScriptHashes } = summary.seo;
console.log(
  `SEO: ${ogImages} Open Graph images, ${sitemapUrls} sitemap URLs, ${feedItems} feed items, ${inlineScriptHashes} inline script hash(es) for the CSP.`,
);
