// The content the prerender bundle renders. The bundle holds code only: where the renderer imports
// `virtual:content/…`, the prerender bundle reads this object, which the build hands it before it
// loads the bundle (scripts/build/vite-content-plugin.ts, `contentAtRender`). So one bundle renders
// any content that has the same site settings, ROI numbers, article list and routes (those are read
// once, as the bundle loads); a page's or an article's text is read each time a route renders it.
// A publish that changes only a page's text renders that page again with the live build's bundle
// (scripts/build/incremental.ts) instead of bundling the site again.
//
// Every read of a page or an article goes through `read`, so the build knows which texts each route
// was drawn from: a later build draws the route again only when one of them changed.
import { blogIndexEntry, type Article, type BlogIndexEntry } from '../../content-model/blog-index.ts';
import { ARTICLE_PATH, type ContentBundle } from '../../content-model/load/load-content.ts';
import type { PageContent, RoiContent, SiteContent } from '../../generated/content-types.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import { bookingFrameOf } from '../../content-model/booking-frame.ts';

/** The global the prerender bundle's content modules read (a symbol: nothing else can name it by accident). */
export const PRERENDER_CONTENT_KEY = 'premier-ai-site.prerender-content';

export type SiteModule = SiteContent & {
  bookingUrl?: string;
  siteUrl: string;
  leadEndpoint: string;
  bookingFrameRoutes: readonly string[];
};

export type RouteTable = {
  pages: { name: string; path: string }[];
  articleSlugs: string[];
  articlePath: string;
};

/** What `virtual:content/…` holds, for one content and one set of build settings. */
export type PrerenderContent = {
  /** Read once, as the bundle loads. */
  readonly site: SiteModule;
  readonly roi: RoiContent;
  readonly blogIndex: BlogIndexEntry[];
  readonly routes: RouteTable;
  /** Read each time a route renders. `id` is "page:<name>" or "article:<slug>". */
  read(id: string): PageContent | Article | undefined;
};

/** `virtual:content/site`: the site settings with the build settings that reach the browser. */
export function siteModule(content: Pick<ContentBundle, 'site' | 'pages'>, settings: PublicSettings): SiteModule {
  const bookingUrl = settings.bookingUrl || content.site.bookingUrl;
  return {
    ...content.site,
    bookingUrl,
    siteUrl: settings.siteUrl,
    leadEndpoint: settings.leadEndpoint,
    // The same rule as the Content-Security-Policy's frame-src (scripts/seo/csp-manifest.ts).
    bookingFrameRoutes: bookingFrameOf(content.site, bookingUrl, content.pages)?.routes ?? [],
  };
}

export function routeTable(content: Pick<ContentBundle, 'pages' | 'posts'>): RouteTable {
  return {
    pages: content.pages.map((p) => ({ name: p.name, path: p.page.path })),
    articleSlugs: content.posts.map((p) => p.slug),
    articlePath: ARTICLE_PATH,
  };
}

/** `virtual:content/article/<slug>`: what an article page shows. */
export function articleModule(post: ContentBundle['posts'][number]): Article {
  return { ...blogIndexEntry(post), body: post.body };
}

/** The value behind a page or article id, or undefined when the content has no such thing. */
export function contentValue(content: Pick<ContentBundle, 'pages' | 'posts'>, id: string): PageContent | Article | undefined {
  if (id.startsWith('page:')) return content.pages.find((p) => p.name === id.slice('page:'.length))?.page;
  if (id.startsWith('article:')) {
    const post = content.posts.find((p) => p.slug === id.slice('article:'.length));
    return post ? articleModule(post) : undefined;
  }
  throw new Error(`Unknown content id "${id}"`);
}

export function prerenderContentOf(
  content: ContentBundle,
  settings: PublicSettings,
  onRead: (id: string) => void = () => {},
): PrerenderContent {
  return {
    site: siteModule(content, settings),
    roi: content.roi,
    blogIndex: content.posts.map(blogIndexEntry),
    routes: routeTable(content),
    read(id) {
      onRead(id);
      return contentValue(content, id);
    },
  };
}

/** Hands `content` to the prerender bundle: set before the bundle loads, and before each render. */
export function providePrerenderContent(content: PrerenderContent): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for(PRERENDER_CONTENT_KEY)] = content;
}

/**
 * The modules the prerender bundle gets for `virtual:content/…` (see the content plugin). Each reads
 * the content handed in by `providePrerenderContent`; pages and articles when a route needs them.
 */
export function prerenderContentModule(name: string): string | undefined {
  const current = `const current = () => {\n  const content = globalThis[Symbol.for(${JSON.stringify(PRERENDER_CONTENT_KEY)})];\n  if (!content) throw new Error('No content was handed to the prerender bundle (scripts/build/prerender-content.ts)');\n  return content;\n};\n`;
  switch (name) {
    case 'virtual:content/site':
      return `${current}export default current().site;\n`;
    case 'virtual:content/roi':
      return `${current}export default current().roi;\n`;
    case 'virtual:content/blog-index':
      return `${current}export default current().blogIndex;\n`;
    case 'virtual:content/routes':
      return (
        `${current}const routes = current().routes;\n` +
        `export const pages = routes.pages.map(({ name, path }) => ({ name, path, load: async () => ({ default: current().read('page:' + name) }) }));\n` +
        `export const articles = Object.fromEntries(routes.articleSlugs.map((slug) => [slug, async () => ({ default: current().read('article:' + slug) })]));\n` +
        `export const articlePath = routes.articlePath;\n`
      );
    default:
      return undefined;
  }
}
