// The head tags of a page, computed once and used by both the prerenderer (as HTML) and the browser
// (updating document.head on client-side navigation).
import type { PageContent } from './content-types.ts';
import type { SiteData } from './site-context.tsx';

export type HeadTags = {
  title: string;
  description: string;
  canonical: string;
  robots: string | undefined;
  meta: { key: 'name' | 'property'; name: string; content: string }[];
};

export function pageTitle(page: Pick<PageContent, 'title'>, site: Pick<SiteData, 'seo'>): string {
  return page.title.includes('|') ? page.title : site.seo.titleTemplate.replace('%s', page.title);
}

/** `pathname` is the address actually shown (e.g. /blog/what-is-ai-consulting for the /blog/:slug page). */
export function buildHeadTags(page: Pick<PageContent, 'title' | 'description' | 'image' | 'noindex'>, site: SiteData, pathname: string, overrides: Partial<Pick<HeadTags, 'title' | 'description'>> = {}): HeadTags {
  const title = overrides.title ?? pageTitle(page, site);
  const description = overrides.description ?? page.description;
  const canonical = `${site.siteUrl}${pathname === '/' ? '/' : pathname.replace(/\/$/, '')}`;
  const image = page.image ?? site.seo.defaultImage;
  const meta: HeadTags['meta'] = [
    { key: 'name', name: 'description', content: description },
    { key: 'property', name: 'og:type', content: 'website' },
    { key: 'property', name: 'og:site_name', content: site.company.name },
    { key: 'property', name: 'og:title', content: title },
    { key: 'property', name: 'og:description', content: description },
    { key: 'property', name: 'og:url', content: canonical },
    { key: 'property', name: 'og:locale', content: site.seo.locale },
    { key: 'name', name: 'twitter:card', content: 'summary_large_image' },
    { key: 'name', name: 'twitter:title', content: title },
    { key: 'name', name: 'twitter:description', content: description },
  ];
  if (image) {
    meta.push({ key: 'property', name: 'og:image', content: `${site.siteUrl}${image.src}` }, { key: 'property', name: 'og:image:alt', content: image.alt });
  }
  if (site.seo.twitter) meta.push({ key: 'name', name: 'twitter:site', content: site.seo.twitter });
  return { title, description, canonical, robots: page.noindex ? 'noindex, follow' : undefined, meta };
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderHeadTags(head: HeadTags): string {
  return [
    `<title>${escapeAttr(head.title)}</title>`,
    `<link rel="canonical" href="${escapeAttr(head.canonical)}">`,
    ...(head.robots ? [`<meta name="robots" content="${escapeAttr(head.robots)}">`] : []),
    ...head.meta.map((m) => `<meta ${m.key}="${m.name}" content="${escapeAttr(m.content)}">`),
  ].join('\n    ');
}
