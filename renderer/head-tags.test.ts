import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHeadTags, canonicalUrl, ogImagePath, renderHeadTags } from './head-tags.ts';
import { loadContent } from '../content-model/load/load-content.ts';
import type { SiteData } from '../ui/page/site-context.tsx';

const content = loadContent({ root: path.resolve(import.meta.dirname, '..') });
const site: SiteData = { ...content.site, siteUrl: 'https://premieraiconsulting.com', leadEndpoint: '/api/leads' };
const page = { title: 'About Us | Premier AI Consulting', description: 'About the company.' };
const metaOf = (tags: ReturnType<typeof buildHeadTags>, name: string) => tags.meta.find((m) => m.name === name)?.content;

describe('ogImagePath', () => {
  it.each([
    ['/', '/og/index.png'],
    ['/about', '/og/about.png'],
    ['/about/', '/og/about.png'],
    ['/blog/what-is-ai-consulting', '/og/blog/what-is-ai-consulting.png'],
  ])('%s → %s', (pathname, file) => expect(ogImagePath(pathname)).toBe(file));
});

describe('canonicalUrl', () => {
  it.each([
    ['/', 'https://premieraiconsulting.com/'],
    ['/about/', 'https://premieraiconsulting.com/about'],
  ])('%s → %s', (pathname, url) => expect(canonicalUrl(site.siteUrl, pathname)).toBe(url));
});

describe('buildHeadTags', () => {
  it("points Open Graph and Twitter at the route's own 1200×630 card", () => {
    const tags = buildHeadTags(page, site, '/about');
    expect(metaOf(tags, 'og:image')).toBe('https://premieraiconsulting.com/og/about.png');
    expect(metaOf(tags, 'twitter:image')).toBe('https://premieraiconsulting.com/og/about.png');
    expect([metaOf(tags, 'og:image:width'), metaOf(tags, 'og:image:height'), metaOf(tags, 'og:image:type')]).toEqual([
      '1200',
      '630',
      'image/png',
    ]);
    expect(metaOf(tags, 'twitter:card')).toBe('summary_large_image');
  });

  it('the not-found screens borrow another route’s card', () => {
    expect(metaOf(buildHeadTags(page, site, '/no/such/page', { ogImageFor: '/' }), 'og:image')).toBe(
      'https://premieraiconsulting.com/og/index.png',
    );
  });

  it('links the RSS feed from the blog and its articles only', () => {
    expect(buildHeadTags(page, site, '/blog').alternates).toEqual([
      { type: 'application/rss+xml', title: 'Premier AI Consulting blog', href: '/blog/rss.xml' },
    ]);
    expect(buildHeadTags(page, site, '/blog/what-is-ai-consulting').alternates).toHaveLength(1);
    expect(buildHeadTags(page, site, '/about').alternates).toEqual([]);
    expect(buildHeadTags(page, site, '/blogroll').alternates).toEqual([]);
    expect(renderHeadTags(buildHeadTags(page, site, '/blog'))).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Premier AI Consulting blog" href="/blog/rss.xml">',
    );
  });

  it('marks articles as og:type article', () => {
    expect(metaOf(buildHeadTags(page, site, '/blog/x', { ogType: 'article' }), 'og:type')).toBe('article');
    expect(metaOf(buildHeadTags(page, site, '/about'), 'og:type')).toBe('website');
  });
});
