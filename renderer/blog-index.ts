// What the blog list and article pages know about an article.
import type { LoadedPost } from './load-content.ts';
import type { Image } from './content-types.ts';

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

const DATE_LABEL = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export function formatDateLabel(isoDate: string): string {
  return DATE_LABEL.format(new Date(`${isoDate}T00:00:00Z`));
}

export function blogIndexEntry(post: LoadedPost): BlogIndexEntry {
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
