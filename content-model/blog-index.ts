// What the blog list and article pages know about an article.
import type { BlogPostFrontMatter, Image } from '../generated/content-types.ts';

/** An article as the build loads it (content-model/load/load-content.ts): its front matter and size of its picture. */
export type ArticleSource = {
  readonly slug: string;
  readonly meta: BlogPostFrontMatter;
  readonly imageSize?: { readonly width: number; readonly height: number };
};

export type BlogIndexEntry = {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  /** ISO date, YYYY-MM-DD. */
  date: string;
  /** Shown to people, e.g. "March 15, 2024". */
  dateLabel: string;
  readTime: string;
  category: string;
  image: Image;
};

export type Article = BlogIndexEntry & { body: string };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * "2026-03-05" → "March 5, 2026", as Intl.DateTimeFormat('en-US', { dateStyle: 'long' }) prints it,
 * without Intl: the first Intl formatter a page creates costs the phone a long task while it starts.
 */
export function formatDateLabel(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

export function blogIndexEntry(post: ArticleSource): BlogIndexEntry {
  const { meta } = post;
  return {
    slug: post.slug,
    title: meta.title,
    excerpt: meta.excerpt,
    author: meta.author,
    date: meta.date,
    dateLabel: formatDateLabel(meta.date),
    readTime: meta.readTime,
    category: meta.category,
    image: { src: meta.image, alt: meta.imageAlt, ...post.imageSize },
  };
}
