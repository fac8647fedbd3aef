// The search-and-sharing part of `npm run build`, called by scripts/build/build-site.ts: JSON-LD for each
// page's head while prerendering, then the files beside the pages: an Open Graph image per route,
// the logo and favicon, sitemap.xml, robots.txt, the blog's RSS feed, and DIST_DIR/csp.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalUrl, ogImagePath } from '../../renderer/head-tags.ts';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import { buildCspManifest, CSP_MANIFEST_FILE } from './csp-manifest.ts';
import { buildJsonLd, buildSiteJsonLd, LOGO_PATH, renderJsonLdScript, type JsonLdContext } from './json-ld.ts';
import { renderFaviconSvg, renderLogoImage, renderOgImage } from '../../brand-pictures/og-image.ts';
import { buildRssFeed, RSS_FEED_PATH } from './rss.ts';
import { listSeoPages, type SeoPage } from './seo-pages.ts';
import { buildRobotsTxt, buildSitemap, ROBOTS_PATH, SITEMAP_PATH } from './sitemap.ts';

export type SeoBuild = {
  pages: readonly SeoPage[];
  /** The JSON-LD <script> for a prerendered address (the not-found screens get the site-wide part). */
  headFor(urlPath: string): string;
  /** Writes everything else once all pages are in `clientDir`. `htmlFiles` are relative to it. */
  writeFiles(options: {
    distDir: string;
    clientDir: string;
    routePaths: readonly string[];
    htmlFiles: readonly string[];
  }): Promise<SeoSummary>;
};

/** index.html links it; drawn from the brand so it always matches the logo. */
export const FAVICON_PATH = '/favicon.svg';

export type SeoSummary = { ogImages: number; sitemapUrls: number; feedItems: number; inlineScriptHashes: number };

export function createSeoBuild(content: Pick<ContentBundle, 'site' | 'pages' | 'posts'>, settings: PublicSettings): SeoBuild {
  const pages = listSeoPages(content);
  const pagesByPath = new Map(pages.map((page) => [page.path, page]));
  const context: JsonLdContext = { site: content.site, siteUrl: settings.siteUrl, pagesByPath };

  return {
    pages,
    headFor(urlPath) {
      const page = pagesByPath.get(urlPath);
      return page
        ? renderJsonLdScript(buildJsonLd(page, context), canonicalUrl(settings.siteUrl, page.path))
        : renderJsonLdScript(buildSiteJsonLd(context));
    },
    async writeFiles({ distDir, clientDir, routePaths, htmlFiles }) {
      const missing = routePaths.filter((route) => !pagesByPath.has(route));
      const extra = pages.filter((page) => !routePaths.includes(page.path)).map((page) => page.path);
      if (missing.length > 0 || extra.length > 0)
        throw new Error(
          `SEO pages and prerendered routes differ: missing ${missing.join(', ') || 'none'}; extra ${extra.join(', ') || 'none'}`,
        );

      const write = (urlPath: string, data: string | Buffer) => {
        const file = path.join(clientDir, urlPath);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, data);
      };
      const brand = { site: content.site, host: new URL(settings.siteUrl).host };
      for (const page of pages) {
        write(
          ogImagePath(page.path),
          await renderOgImage({ title: page.name, ...(page.post ? { eyebrow: page.post.meta.category } : {}) }, brand),
        );
      }
      write(LOGO_PATH, await renderLogoImage(content.site));
      write(FAVICON_PATH, await renderFaviconSvg(content.site));

      const sitemap = buildSitemap(pages, settings.siteUrl);
      write(SITEMAP_PATH, sitemap);
      write(ROBOTS_PATH, buildRobotsTxt(settings.siteUrl));
      const feed = buildRssFeed(pages, content.site, settings.siteUrl);
      write(RSS_FEED_PATH, feed);

      const manifest = buildCspManifest(
        htmlFiles.map((file) => ({ file, html: readFileSync(path.join(clientDir, file), 'utf8') })),
        settings,
      );
      writeFileSync(path.join(distDir, CSP_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

      return {
        ogImages: pages.length,
        sitemapUrls: sitemap.match(/<url>/g)?.length ?? 0,
        feedItems: feed.match(/<item>/g)?.length ?? 0,
        inlineScriptHashes: manifest.scriptHashes.length,
      };
    },
  };
}
