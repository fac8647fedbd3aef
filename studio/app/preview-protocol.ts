// Messages between the studio's editor and its preview frame (same origin; checked on both sides).
import type { PageContent, RoiContent } from '../../generated/content-types.ts';
import type { Article, BlogIndexEntry } from '../../content-model/blog-index.ts';
import type { SiteData } from '../../ui/page/site-context.tsx';

export type PreviewContent = {
  site: SiteData;
  roi: RoiContent;
  posts: BlogIndexEntry[];
  articles: Record<string, Article>;
  /** The home page and the article page, which frame previews of the site settings and of articles. */
  pages: Record<string, PageContent>;
};

export type ToPreview =
  | { type: 'content'; content: PreviewContent }
  | { type: 'render'; seq: number; page: PageContent; path: string; article?: Article; site?: SiteData }
  | { type: 'scroll-to'; index: number };

export type FromPreview = { type: 'ready' } | { type: 'rendered'; seq: number; ms: number } | { type: 'select'; index: number };

export const PREVIEW_SOURCE = 'studio-preview';
export const EDITOR_SOURCE = 'studio-editor';

/** The block number an element in the preview belongs to. */
export const PREVIEW_BLOCK_ATTRIBUTE = 'data-studio-block';
