// The search-and-sharing part of `npm run build`, called by scripts/build/build-site.ts: JSON-LD for each
// page's head while prerendering, then the files beside the pages: an Open Graph image per route,
// the logo and favicon, sitemap.xml, robots.txt, the blog's RSS feed, and DIST_DIR/csp.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalUrl, ogImagePath } from '../../renderer/head-tags.ts';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import { buildCspManifest } from './csp-manifest.ts';
import { bookingFrameOf } from '../../content-model/booking-frame.ts';
import { CLIENT_DIR, CSP_MANIFEST_FILE, serializeCspManifest } from '../../content-model/load/build-files.ts';
import { buildJsonLd, buildSiteJsonLd, LOGO_PATH, renderJsonLdScript, type JsonLdContext } from './json-ld.ts';
import { renderFaviconSvg, renderLogoImage, renderOgImage } from '../../brand-pictures/og-image.ts';
import { buildRssFeed, RSS_FEED_PATH } from './rss.ts';
import { listSeoPages, type SeoPage } from './seo-pages.ts';
import { writeMade, type BuildOutput } from '../build/build-output.ts';
import { digest } from '../build/build-inputs.ts';

/** The public root inside a build. */
import { buildRobotsTxt, buildSitemap, ROBOTS_PATH, SITEMAP_PATH } from './sitemap.ts';

export type SeoBuild = {
  pages: readonly SeoPage[];
  /** The JSON-LD <script> for a prerendered address (the not-found screens get the site-wide part). */
  headFor(urlPath: string): string;
  /** Writes everything else once all pages are in the build's client/. `htmlFiles` are relative to client/. */
  writeFiles(options: { output: BuildOutput; routePaths: readonly string[]; htmlFiles: readonly string[] }): Promise<SeoSummary>;
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
    async writeFiles({ output, routePaths, htmlFiles }) {
      const missing = routePaths.filter((route) => !pagesByPath.has(route));
      const extra = pages.filter((page) => !routePaths.includes(page.path)).map((page) => page.path);
      if (missing.length > 0 || extra.length > 0)
        throw new Error(
          `SEO pages and prerendered routes differ: missing ${missing.join(', ') || 'none'}; extra ${extra.join(', ') || 'none'}`,
        );

      const file = (urlPath: string) => `${CLIENT_DIR}${urlPath}`;
      const brand = { site: content.site, host: new URL(settings.siteUrl).host };
      // Pictures cost to draw: each is drawn again only when what it shows changed.
      for (const page of pages) {
        const card = { title: page.name, ...(page.post ? { eyebrow: page.post.meta.category } : {}) };
        await writeMade(output, file(ogImagePath(page.path)), digest({ card, brand }), () => renderOgImage(card, brand));
      }
      const logoKey = digest({ company: content.site.company, brand: content.site.brand });
      await writeMade(output, file(LOGO_PATH), logoKey, () => renderLogoImage(content.site));
      await writeMade(output, file(FAVICON_PATH), logoKey, () => renderFaviconSvg(content.site));

      const sitemap = buildSitemap(pages, settings.siteUrl);
      output.write(file(SITEMAP_PATH), sitemap);
      output.write(file(ROBOTS_PATH), buildRobotsTxt(settings.siteUrl));
      const feed = buildRssFeed(pages, content.site, settings.siteUrl);
      output.write(file(RSS_FEED_PATH), feed);

      const manifest = buildCspManifest(
        htmlFiles.map((html) => ({ file: html, html: readFileSync(path.join(output.dir, file(`/${html}`)), 'utf8') })),
        settings,
        bookingFrameOf(content.site, settings.bookingUrl || content.site.bookingUrl, content.pages),
      );
      output.write(CSP_MANIFEST_FILE, serializeCspManifest(manifest));

      return {
        ogImages: pages.length,
        sitemapUrls: sitemap.match(/<url>/g)?.length ?? 0,
        feedItems: feed.match(/<item>/g)?.length ?? 0,
        inlineScriptHashes: manifest.scriptHashes.length,
      };
    },
  };
}
