// sitemap.xml (sitemaps.org 0.9) and robots.txt for the public routes.
import { canonicalUrl } from '../../renderer/head-tags.ts';
import type { SeoPage } from './seo-pages.ts';

export const SITEMAP_PATH = '/sitemap.xml';
export const ROBOTS_PATH = '/robots.txt';

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Every indexable route (noindex pages such as /thankyou are left out); articles carry their date. */
export function buildSitemap(pages: readonly SeoPage[], siteUrl: string): string {
  const newestPost = pages
    .map((p) => p.post?.meta.date)
    .filter((d): d is string => d !== undefined)
    .sort()
    .at(-1);
  const urls = pages
    .filter((page) => !page.noindex)
    .toSorted((a, b) => a.path.localeCompare(b.path))
    .map((page) => {
      // The blog index changes when an article is published.
      const lastmod = page.post?.meta.date ?? (page.page.blocks.some((b) => b.type === 'blog-list') ? newestPost : undefined);
      return [
        `  <url>`,
        `    <loc>${escapeXml(canonicalUrl(siteUrl, page.path))}</loc>`,
        ...(lastmod ? [`    <lastmod>${lastmod}</lastmod>`] : []),
        `  </url>`,
      ].join('\n');
    });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * Everything may be crawled except the lead API; the sitemap is named with its full address. The
 * team console is not named: its answers carry `X-Robots-Tag: noindex`, which a crawler reads only
 * when it may fetch them, and a Disallow line would point every reader of this file at it.
 */
export function buildRobotsTxt(siteUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', '', `Sitemap: ${siteUrl}${SITEMAP_PATH}`, ''].join('\n');
}
