import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { shippedRoiParameters } from '../../content-model/testing/shipped-content.ts';
import { parseConfig } from '../config.ts';
import {
  BUILD_INFO_FILE,
  BUSINESS_HOURS_FILE,
  CALLBACK_CONSENT_FILE,
  CLIENT_DIR,
  ROI_PARAMETERS_FILE,
  ROUTES_FILE,
  serializeBusinessHoursFile,
} from '../../content-model/load/build-files.ts';
import type { Config, Environment } from '../config.ts';

// A small build in a temp folder, shaped like the `npm run build` output the server expects:
// dist/routes.json and dist/client/ with .br and .gz siblings for compressible files.

export const FIXTURE_PAGES = {
  '/': 'index.html',
  '/about': 'about/index.html',
  '/blog': 'blog/index.html',
  '/blog/what-is-ai-consulting': 'blog/what-is-ai-consulting/index.html',
} as const;

export const FIXTURE_ASSET = 'assets/entry-client-3f9a2c1b.js';

const html = (heading: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${heading}</title></head>` +
  `<body><main><h1>${heading}</h1>${'<p>Prerendered content for crawlers and people without JavaScript.</p>'.repeat(20)}</main></body></html>\n`;

// Compressible files get .br and .gz siblings, like the build writes them.
export const FIXTURE_TEXT_FILES: Readonly<Record<string, string>> = {
  'index.html': html('Home'),
  'about/index.html': html('About Us'),
  'blog/index.html': html('Blog'),
  'blog/what-is-ai-consulting/index.html': html('What Is AI Consulting?'),
  '404.html': html('Oops! Page not found'),
  'blog/404.html': html('Article Not Found'),
  [FIXTURE_ASSET]: `export const hydrate = () => console.log("hydrated");\n`.repeat(30),
  'assets/style-9b1c2d3e.css': `body { margin: 0; font-family: system-ui; }\n`.repeat(30),
  'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8"/></svg>\n`,
  'robots.txt': 'User-agent: *\nAllow: /\nSitemap: https://example.com/sitemap.xml\n',
  'sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n`,
  'site.webmanifest': JSON.stringify({ name: 'Fixture', icons: [] }),
  'verify-google.html': '<!doctype html><p>google-site-verification</p>\n',
  [BUILD_INFO_FILE]: `${JSON.stringify({ commit: '3f9a2c1b'.repeat(5), builtAt: '2026-03-02T10:41:07.120Z' })}\n`,
};

// A PNG signature plus padding: not compressible, so no siblings.
export const FIXTURE_IMAGE = 'images/logo.png';
export const FIXTURE_IMAGE_WITH_SPACE = 'images/team photo.png';
const PNG_BYTES = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256, 7)]);

export const FIXTURE_ROUTES = {
  pages: FIXTURE_PAGES,
  notFound: '404.html',
  notFoundByPrefix: { '/blog/': 'blog/404.html' },
};

// Outside the public root: must never be served.
export const FIXTURE_SECRET = 'not-public: secret build metadata';

export type SiteFixture = {
  distDir: string;
  clientDir: string;
  remove(): Promise<void>;
};

/** The "call me back now" wording the fixture's build shows. */
export const FIXTURE_CALLBACK_WORDING = Object.freeze({
  version: 'fixture-1',
  text: 'By ticking this box, I agree that Example Co may call me now using an automated or artificial voice. Consent is not a condition of purchase.',
});

export async function createSiteFixture(options: { largeFile?: { name: string; bytes: number } } = {}): Promise<SiteFixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'site-fixture-'));
  const distDir = path.join(root, 'dist');
  const clientDir = path.join(distDir, CLIENT_DIR);
  const write = async (file: string, content: string | Buffer): Promise<void> => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  };

  for (const [file, text] of Object.entries(FIXTURE_TEXT_FILES)) {
    const target = path.join(clientDir, file);
    await write(target, text);
    await write(`${target}.br`, brotliCompressSync(text));
    await write(`${target}.gz`, gzipSync(text));
  }
  await write(path.join(clientDir, FIXTURE_IMAGE), PNG_BYTES);
  await write(path.join(clientDir, FIXTURE_IMAGE_WITH_SPACE), PNG_BYTES);
  await write(path.join(clientDir, '.env'), 'SECRET=1\n');
  await write(path.join(distDir, ROUTES_FILE), JSON.stringify(FIXTURE_ROUTES, null, 2));
  await write(path.join(distDir, ROI_PARAMETERS_FILE), JSON.stringify(shippedRoiParameters()));
  await write(
    path.join(distDir, BUSINESS_HOURS_FILE),
    serializeBusinessHoursFile({
      timeZone: 'America/New_York',
      days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
      opens: '09:00',
      closes: '18:00',
    }),
  );
  await write(path.join(distDir, CALLBACK_CONSENT_FILE), JSON.stringify({ wording: FIXTURE_CALLBACK_WORDING }));
  await write(path.join(distDir, 'secret.txt'), FIXTURE_SECRET);
  await write(path.join(root, 'secret.txt'), FIXTURE_SECRET);
  if (options.largeFile) await write(path.join(clientDir, options.largeFile.name), Buffer.alloc(options.largeFile.bytes, 'x'));

  return { distDir, clientDir, remove: () => rm(root, { recursive: true, force: true }) };
}

/** A quiet Config serving `distDir`, with an in-memory lead store unless `env` names one. */
export function fixtureConfig(distDir: string, env: Environment = {}): Config {
  const result = parseConfig({ DIST_DIR: distDir, LOG_LEVEL: 'silent', LEADS_DB_FILE: ':memory:', ...env });
  if (!result.success) throw new Error(result.errors.join('\n'));
  return result.data;
}
