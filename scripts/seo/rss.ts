// The blog's RSS 2.0 feed, newest article first, linked from the blog pages (<link rel="alternate">).
import { BLOG_PATH, canonicalUrl, RSS_FEED_PATH } from '../../renderer/head-tags.ts';
import type { SiteContent } from '../../generated/content-types.ts';
import { escapeXml } from './sitemap.ts';
import type { SeoPage } from './seo-pages.ts';

export { RSS_FEED_PATH };

/** RFC 822 date, as RSS 2.0 requires: "Wed, 12 Jun 2024 00:00:00 GMT". */
export function rfc822Date(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toUTCString();
}

export function buildRssFeed(pages: readonly SeoPage[], site: SiteContent, siteUrl: string): string {
  const articles = pages
    .filter((page): page is SeoPage & Required<Pick<SeoPage, 'post'>> => page.post !== undefined && !page.noindex)
    .sort((a, b) => b.post.meta.date.localeCompare(a.post.meta.date) || a.path.localeCompare(b.path));
  const blog = pages.find((page) => page.path === BLOG_PATH);
  const blogUrl = canonicalUrl(siteUrl, BLOG_PATH);
  const items = articles.map(({ path, post }) => {
    const url = canonicalUrl(siteUrl, path);
    return [
      '    <item>',
      `      <title>${escapeXml(post.meta.title)}</title>`,
      `      <link>${escapeXml(url)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
      `      <description>${escapeXml(post.meta.excerpt)}</description>`,
      `      <dc:creator>${escapeXml(post.meta.author)}</dc:creator>`,
      `      <category>${escapeXml(post.meta.category)}</category>`,
      `      <pubDate>${rfc822Date(post.meta.date)}</pubDate>`,
      '    </item>',
    ].join('\n');
  });
  const newest = articles[0]?.post.meta.date;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>${escapeXml(blog?.name ?? `${site.company.name} blog`)}</title>`,
    `    <link>${escapeXml(blogUrl)}</link>`,
    `    <description>${escapeXml(blog?.description ?? site.company.tagline)}</description>`,
    `    <language>${site.seo.locale.replace('_', '-').toLowerCase()}</language>`,
    `    <atom:link href="${escapeXml(`${siteUrl}${RSS_FEED_PATH}`)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${rfc822Date(newest)}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
