// The head tags of a page, computed once and used by both the prerenderer (as HTML) and the browser
// (updating document.head on client-side navigation).
import type { PageContent } from '../generated/content-types.ts';
import type { SiteData } from '../ui/page/site-context.tsx';

export type HeadTags = {
  title: string;
  description: string;
  canonical: string;
  robots: string | undefined;
  meta: { key: 'name' | 'property'; name: string; content: string }[];
  /** <link rel="alternate"> tags, e.g. the blog's RSS feed on blog pages. */
  alternates: { type: string; title: string; href: string }[];
};

/** Every route's own Open Graph picture, drawn at build time (brand-pictures/og-image.ts). */
export const OG_IMAGE = { width: 1200, height: 630, type: 'image/png' } as const;
export const BLOG_PATH = '/blog';
export const RSS_FEED_PATH = '/blog/rss.xml';

/** `/` → `/og/index.png`, `/blog/what-is-ai-consulting` → `/og/blog/what-is-ai-consulting.png`. */
export function ogImagePath(pathname: string): string {
  const route = pathname.replace(/\/+$/, '');
  return `/og${route === '' ? '/index' : route}.png`;
}

export function canonicalUrl(siteUrl: string, pathname: string): string {
  return `${siteUrl}${pathname === '/' ? '/' : pathname.replace(/\/$/, '')}`;
}

export type HeadOverrides = Partial<Pick<HeadTags, 'title' | 'description'>> & {
  /** "article" for blog posts. */
  ogType?: 'website' | 'article';
  /** Whose Open Graph picture to use when the address has none of its own (the not-found pages). */
  ogImageFor?: string;
};

/** "FAQs | Premier AI Consulting" → "FAQs": the short name a page's card and links show. */
export function titleStem(title: string): string {
  const bar = title.lastIndexOf(' | ');
  return bar === -1 ? title : title.slice(0, bar);
}

export function pageTitle(page: Pick<PageContent, 'title'>, site: Pick<SiteData, 'seo'>): string {
  return page.title.includes('|') ? page.title : site.seo.titleTemplate.replace('%s', page.title);
}

/** `pathname` is the address actually shown (e.g. /blog/what-is-ai-consulting for the /blog/:slug page). */
export function buildHeadTags(
  page: Pick<PageContent, 'title' | 'description' | 'image' | 'noindex'>,
  site: SiteData,
  pathname: string,
  overrides: HeadOverrides = {},
): HeadTags {
  const title = overrides.title ?? pageTitle(page, site);
  const description = overrides.description ?? page.description;
  const canonical = canonicalUrl(site.siteUrl, pathname);
  // A picture set on the page wins; otherwise the route's generated card (1200×630 PNG with its title).
  const image = page.image
    ? { url: `${site.siteUrl}${page.image.src}`, alt: page.image.alt, size: [] }
    : {
        url: `${site.siteUrl}${ogImagePath(overrides.ogImageFor ?? pathname)}`,
        alt: title,
        size: [
          { key: 'property', name: 'og:image:type', content: OG_IMAGE.type },
          { key: 'property', name: 'og:image:width', content: String(OG_IMAGE.width) },
          { key: 'property', name: 'og:image:height', content: String(OG_IMAGE.height) },
        ] satisfies HeadTags['meta'],
      };
  const meta: HeadTags['meta'] = [
    { key: 'name', name: 'description', content: description },
    { key: 'property', name: 'og:type', content: overrides.ogType ?? 'website' },
    { key: 'property', name: 'og:site_name', content: site.company.name },
    { key: 'property', name: 'og:title', content: title },
    { key: 'property', name: 'og:description', content: description },
    { key: 'property', name: 'og:url', content: canonical },
    { key: 'property', name: 'og:locale', content: site.seo.locale },
    { key: 'property', name: 'og:image', content: image.url },
    ...image.size,
    { key: 'property', name: 'og:image:alt', content: image.alt },
    { key: 'name', name: 'twitter:card', content: 'summary_large_image' },
    { key: 'name', name: 'twitter:title', content: title },
    { key: 'name', name: 'twitter:description', content: description },
    { key: 'name', name: 'twitter:image', content: image.url },
    { key: 'name', name: 'twitter:image:alt', content: image.alt },
  ];
  if (site.seo.twitter) meta.push({ key: 'name', name: 'twitter:site', content: site.seo.twitter });
  const onBlog = pathname === BLOG_PATH || pathname.startsWith(`${BLOG_PATH}/`);
  const alternates = onBlog ? [{ type: 'application/rss+xml', title: `${site.company.name} blog`, href: RSS_FEED_PATH }] : [];
  return { title, description, canonical, robots: page.noindex ? 'noindex, follow' : undefined, meta, alternates };
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderHeadTags(head: HeadTags): string {
  return [
    `<title>${escapeAttr(head.title)}</title>`,
    `<link rel="canonical" href="${escapeAttr(head.canonical)}">`,
    ...(head.robots ? [`<meta name="robots" content="${escapeAttr(head.robots)}">`] : []),
    ...head.meta.map((m) => `<meta ${m.key}="${m.name}" content="${escapeAttr(m.content)}">`),
    ...head.alternates.map(
      (a) => `<link rel="alternate" type="${escapeAttr(a.type)}" title="${escapeAttr(a.title)}" href="${escapeAttr(a.href)}">`,
    ),
  ].join('\n    ');
}
