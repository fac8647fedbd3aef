// The public routes as search engines and link previews see them, from the validated content: one
// entry per page (the article page once per article), none for the not-found screens.
import { pageTitle, titleStem } from '../../renderer/head-tags.ts';
import type { PageContent, SiteContent } from '../../generated/content-types.ts';
import { ARTICLE_PATH, NOT_FOUND_PATH, type ContentBundle, type LoadedPost } from '../../content-model/load/load-content.ts';

export { titleStem };

export type SeoPage = {
  /** The address, e.g. "/", "/about", "/blog/what-is-ai-consulting". */
  path: string;
  /** content/pages/<pageName>.yaml */
  pageName: string;
  page: PageContent;
  /** The article shown, on article routes. */
  post?: LoadedPost;
  /** The full <title>. */
  title: string;
  /** The short name: the title without the site suffix, or the article's title. */
  name: string;
  description: string;
  /** Kept out of search engines (and so out of the sitemap). */
  noindex: boolean;
};

const ARTICLE_PREFIX = ARTICLE_PATH.slice(0, ARTICLE_PATH.indexOf(':'));

export function listSeoPages(content: Pick<ContentBundle, 'site' | 'pages' | 'posts'>): SeoPage[] {
  const { site } = content;
  const result: SeoPage[] = [];
  for (const { name: pageName, page } of content.pages) {
    if (page.path === NOT_FOUND_PATH) continue;
    if (page.path !== ARTICLE_PATH) {
      const title = pageTitle(page, { seo: site.seo });
      result.push({
        path: page.path,
        pageName,
        page,
        title,
        name: titleStem(title),
        description: page.description,
        noindex: page.noindex === true,
      });
      continue;
    }
    for (const post of content.posts) {
      result.push({
        path: `${ARTICLE_PREFIX}${post.slug}`,
        pageName,
        page,
        post,
        title: site.seo.titleTemplate.replace('%s', post.meta.title),
        name: post.meta.title,
        description: post.meta.excerpt,
        noindex: page.noindex === true,
      });
    }
  }
  return result;
}

/** The short label people know a page by: its navigation or footer link text, else its name. */
export function linkLabelFor(path: string, site: Pick<SiteContent, 'navigation' | 'footer'>): string | undefined {
  const links = [...site.navigation, ...site.footer.groups.flatMap((group) => group.links)];
  return links.find((link) => link.href === path)?.label;
}
