// What a route of the site hands the page it shows: its content (the route's handle) and, on an
// article's address, the article its loader found. The renderer's routes build them; the blocks and
// the head read them.
import type { Article } from '../../content-model/blog-index.ts';
import type { PageContent } from '../../generated/content-types.ts';

export type PageHandle = { page: PageContent };
/** `article` is null when the address names no article: the page shows its "not found" screen. */
export type ArticleLoaderData = { article: Article | null };
