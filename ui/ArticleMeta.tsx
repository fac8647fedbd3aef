import { css, useTheme } from '@emotion/react';
import type { BlogIndexEntry } from '../content-model/blog-index.ts';
import { Icon } from './Icon.tsx';

type ArticleMetaProps = {
  post: Pick<BlogIndexEntry, 'author' | 'date' | 'dateLabel' | 'readTime'>;
  onDark?: boolean;
  className?: string;
};

/** Author, publication date and reading time of an article, each with its icon. */
export function ArticleMeta({ post, onDark = false, className }: ArticleMetaProps) {
  const theme = useTheme();
  const items = [
    { icon: 'users', content: post.author },
    { icon: 'calendar', content: <time dateTime={post.date}>{post.dateLabel}</time> },
    { icon: 'clock', content: post.readTime },
  ] as const;
  return (
    <ul
      className={className}
      css={css({
        listStyle: 'none',
        margin: 0,
        padding: 0,
        display: 'flex',
        flexWrap: 'wrap',
        columnGap: theme.space[5],
        rowGap: theme.space[2],
        fontSize: theme.fontSize.sm,
        color: onDark ? theme.colors.onDark : theme.colors.muted,
      })}
    >
      {items.map((item) => (
        <li key={item.icon} css={css({ display: 'inline-flex', alignItems: 'center', gap: theme.space[2] })}>
          <Icon name={item.icon} size={16} css={css({ flexShrink: 0, color: onDark ? theme.colors.onDarkMuted : theme.colors.primary })} />
          {item.content}
        </li>
      ))}
    </ul>
  );
}
