// Types of the modules the content plugin (scripts/build/vite-content-plugin.ts) generates.
declare module 'virtual:content/site' {
  import type { SiteContent } from '../generated/content-types.ts';
  const site: SiteContent & { siteUrl: string; leadEndpoint: string; bookingFrameRoutes?: readonly string[] };
  export default site;
}
declare module 'virtual:content/routes' {
  import type { PageContent } from '../generated/content-types.ts';
  import type { Article } from '../content-model/blog-index.ts';
  export const pages: { name: string; path: string; load: () => Promise<{ default: PageContent }> }[];
  export const articles: Record<string, () => Promise<{ default: Article }>>;
  export const articlePath: string;
}
declare module 'virtual:content/blog-index' {
  import type { BlogIndexEntry } from '../content-model/blog-index.ts';
  const posts: BlogIndexEntry[];
  export default posts;
}
declare module 'virtual:content/roi' {
  import type { RoiContent } from '../generated/content-types.ts';
  const roi: RoiContent;
  export default roi;
}
