// Finds the head tags for the matched route: the page's own, or the article's when one is shown.
import { BLOG_PATH, buildHeadTags, type HeadOverrides, type HeadTags } from './head-tags.ts';
import type { SiteData } from '../ui/page/site-context.tsx';
import type { ArticleLoaderData, PageHandle } from '../ui/page/route-data.ts';

type MatchLike = { handle?: unknown; data?: unknown };

const NOT_FOUND_PATH = '*';

export function resolveHead(matches: readonly MatchLike[], site: SiteData, pathname: string): HeadTags | undefined {
  const match = [...matches].reverse().find((m) => isPageHandle(m.handle));
  if (!match) return undefined;
  const { page } = match.handle as PageHandle;
  const data = match.data as ArticleLoaderData | undefined;
  const article = data?.article;
  // The not-found screens have no card of their own: they borrow the home page's or the blog's.
  const missing = page.path === NOT_FOUND_PATH ? '/' : article === null ? BLOG_PATH : undefined;
  const overrides: HeadOverrides = article
    ? { title: pageTitleFor(article.title, site), description: article.excerpt, ogType: 'article' }
    : { ogImageFor: missing };
  return buildHeadTags(page, site, pathname, overrides);
}

function pageTitleFor(title: string, site: SiteData) {
  return site.seo.titleTemplate.replace('%s', title);
}

function isPageHandle(handle: unknown): handle is PageHandle {
  return typeof handle === 'object' && handle !== null && 'page' in handle;
}
