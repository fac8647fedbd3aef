import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../content-model/load/load-content.ts';
import { buildRssFeed, rfc822Date } from './rss.ts';
import { listSeoPages, titleStem } from './seo-pages.ts';
import { buildRobotsTxt, buildSitemap, escapeXml } from './sitemap.ts';

const SITE_URL = 'https://premieraiconsulting.com';
const content = loadContent({ root: path.resolve(import.meta.dirname, '../..') });
const pages = listSeoPages(content);

describe('listSeoPages', () => {
  it('lists each page once and each article at its own address, but no not-found screen', () => {
    const paths = pages.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain('/');
    expect(paths).toContain('/thankyou');
    expect(paths.filter((p) => p.startsWith('/blog/'))).toHaveLength(content.posts.length);
    expect(paths.some((p) => p.includes('*') || p.includes(':'))).toBe(false);
  });

  it.each([
    ['FAQs | Premier AI Consulting', 'FAQs'],
    ['A | B | Premier AI Consulting', 'A | B'],
    ['No suffix', 'No suffix'],
  ])('titleStem(%j) = %j', (title, stem) => expect(titleStem(title)).toBe(stem));
});

describe('sitemap.xml', () => {
  const xml = buildSitemap(pages, SITE_URL);

  it('never lists the team console, and robots.txt does not name it either', () => {
    expect(xml).not.toMatch(/\/console/i);
    expect(buildRobotsTxt(SITE_URL)).not.toMatch(/console/i);
  });
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

  it('lists every indexable route once with its canonical URL, and no noindex page', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(
      true,
    );
    expect(locs).toEqual(
      pages
        .filter((p) => !p.noindex)
        .map((p) => `${SITE_URL}${p.path === '/' ? '/' : p.path}`)
        .sort(),
    );
    expect(locs).not.toContain(`${SITE_URL}/thankyou`);
  });

  it('dates articles and the blog index by publication', () => {
    const post = content.posts[0]!;
    expect(xml).toContain(`<loc>${SITE_URL}/blog/${post.slug}</loc>\n    <lastmod>${post.meta.date}</lastmod>`);
    const newest = content.posts
      .map((p) => p.meta.date)
      .sort()
      .at(-1);
    expect(xml).toContain(`<loc>${SITE_URL}/blog</loc>\n    <lastmod>${newest}</lastmod>`);
  });
});

describe('robots.txt', () => {
  it('allows crawling, keeps the API out and names the sitemap by full address', () => {
    expect(buildRobotsTxt(SITE_URL)).toBe(`User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${SITE_URL}/sitemap.xml\n`);
  });
});

describe('RSS feed', () => {
  const xml = buildRssFeed(pages, content.site, SITE_URL);
  const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);

  it('is RSS 2.0 with a self link and one item per article, newest first', () => {
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(xml).toContain(`<atom:link href="${SITE_URL}/blog/rss.xml" rel="self" type="application/rss+xml"/>`);
    expect(items).toHaveLength(content.posts.length);
    const dates = items.map((item) => Date.parse(item.match(/<pubDate>([^<]+)<\/pubDate>/)![1]!));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  it('gives each item its title, permalink guid, excerpt and author, XML-escaped', () => {
    const post = content.posts.find((p) => p.meta.title.includes('?')) ?? content.posts[0]!;
    const item = items.find((i) => i.includes(`/blog/${post.slug}</link>`))!;
    expect(item).toContain(`<title>${escapeXml(post.meta.title)}</title>`);
    expect(item).toContain(`<guid isPermaLink="true">${SITE_URL}/blog/${post.slug}</guid>`);
    expect(item).toContain(`<description>${escapeXml(post.meta.excerpt)}</description>`);
    expect(item).toContain(`<dc:creator>${escapeXml(post.meta.author)}</dc:creator>`);
    expect(xml).toContain('<title>AI Insights &amp; Resources</title>');
  });

  it('writes RFC 822 dates', () => {
    expect(rfc822Date('2024-06-12')).toBe('Wed, 12 Jun 2024 00:00:00 GMT');
  });
});
