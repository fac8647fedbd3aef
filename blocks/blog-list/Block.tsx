import { css, useTheme } from '@emotion/react';
import { Link } from 'react-router-dom';
import posts from 'virtual:content/blog-index';
import type { BlogIndexEntry } from '../../content-model/blog-index.ts';
import type { BlogListBlock } from '../../generated/content-types.ts';
import { buttonStyle } from '../../ui/ActionButton.tsx';
import { ArticleMeta } from '../../ui/ArticleMeta.tsx';
import { cardStyle } from '../../ui/card.ts';
import { Section } from '../../ui/Section.tsx';
import { visuallyHidden } from '../../ui/styles.ts';
import { alpha } from '../../ui/alpha.ts';
import { tagStyle } from '../../ui/tag.ts';
import { UiIcon } from '../../ui/UiIcon.tsx';

/** Schema defaults. */
const DEFAULT_FEATURED_LABEL = 'Featured';
const DEFAULT_READ_LABEL = 'Read Article';

type TitleLevel = 'h2' | 'h3';

const articleHref = (post: BlogIndexEntry) => `/blog/${post.slug}`;

/** The blog index (sorted, newest first): the first article is featured, the others form a grid. */
export default function BlogList({
  id,
  eyebrow,
  heading,
  intro,
  tone,
  categories,
  featuredLabel = DEFAULT_FEATURED_LABEL,
  readLabel = DEFAULT_READ_LABEL,
}: BlogListBlock) {
  const theme = useTheme();
  const [featured, ...others] = posts;
  const titleLevel: TitleLevel = heading ? 'h3' : 'h2';
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      <div css={css({ display: 'grid', gap: theme.space[7] })}>
        {categories?.length ? <CategoryChips categories={categories} /> : null}
        {featured ? <FeaturedArticle post={featured} label={featuredLabel} readLabel={readLabel} titleLevel={titleLevel} /> : null}
        {others.length ? (
          <ul
            role="list"
            css={css({
              listStyle: 'none',
              margin: 0,
              padding: 0,
              display: 'grid',
              gap: theme.space[6],
              gridTemplateColumns: 'minmax(0, 1fr)',
              [theme.mq.md]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
              [theme.mq.lg]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
            })}
          >
            {others.map((post) => (
              <li key={post.slug} css={css({ display: 'flex' })}>
                <ArticleCard post={post} titleLevel={titleLevel} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Section>
  );
}

/** Display only (the chips do not filter): a plain list with the first shown as selected, nothing to press. */
function CategoryChips({ categories }: { categories: string[] }) {
  const theme = useTheme();
  return (
    <ul
      role="list"
      css={css({
        listStyle: 'none',
        margin: 0,
        padding: 0,
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        gap: theme.space[2],
      })}
    >
      {categories.map((category, index) => (
        <li
          key={category}
          css={css({
            padding: `${theme.space[1]} ${theme.space[4]}`,
            borderRadius: theme.radius.pill,
            fontSize: theme.fontSize.sm,
            fontWeight: 600,
            lineHeight: 1.6,
            cursor: 'default',
            ...(index === 0
              ? { background: theme.colors.text, color: theme.colors.white, border: `1px solid ${theme.colors.text}` }
              : { background: theme.colors.surface, color: theme.colors.muted, border: `1px solid ${theme.colors.border}` }),
          })}
        >
          {category}
        </li>
      ))}
    </ul>
  );
}

function FeaturedArticle({
  post,
  label,
  readLabel,
  titleLevel: Title,
}: {
  post: BlogIndexEntry;
  label: string;
  readLabel: string;
  titleLevel: TitleLevel;
}) {
  const theme = useTheme();
  return (
    <article
      css={[
        cardStyle(theme),
        css({
          overflow: 'hidden',
          boxShadow: theme.shadow.raised,
          [theme.mq.lg]: { display: 'grid', gridTemplateColumns: '1fr 1fr' },
        }),
      ]}
    >
      <div css={css({ background: theme.colors.surface })}>
        <img
          src={post.image.src}
          alt={post.image.alt}
          width={post.image.width}
          height={post.image.height}
          decoding="async"
          css={css({ display: 'block', width: '100%', height: 'auto', [theme.mq.lg]: { height: '100%', objectFit: 'cover' } })}
        />
      </div>
      <div
        css={css({
          display: 'flex',
          flexDirection: 'column',
          gap: theme.space[4],
          padding: theme.space[5],
          [theme.mq.md]: { padding: theme.space[7] },
          [theme.mq.lg]: { justifyContent: 'center', padding: theme.space[6] },
        })}
      >
        <p css={css({ display: 'flex', flexWrap: 'wrap', gap: theme.space[2], margin: 0 })}>
          <span
            css={[
              tagStyle(theme),
              css({
                background: `linear-gradient(135deg, ${theme.colors.primaryDark}, ${theme.colors.primary})`,
                color: theme.colors.white,
                textTransform: 'uppercase',
                letterSpacing: '0.06em',
              }),
            ]}
          >
            {label}
          </span>
          <span css={tagStyle(theme)}>{post.category}</span>
        </p>
        <Title
          css={css({
            margin: 0,
            fontSize: theme.fontSize.xl,
            fontWeight: 750,
            lineHeight: 1.2,
            letterSpacing: '-0.02em',
            color: theme.colors.text,
          })}
        >
          {post.title}
        </Title>
        <p css={css({ margin: 0, fontSize: theme.fontSize.md, lineHeight: 1.7, color: theme.colors.muted })}>{post.excerpt}</p>
        <ArticleMeta post={post} />
        <div css={css({ marginTop: theme.space[2] })}>
          <Link
            to={articleHref(post)}
            css={[
              ...buttonStyle(theme, 'primary'),
              css({
                '& svg': { transition: `transform ${theme.motion.fast}` },
                '&:hover svg': { transform: `translateX(${theme.space[1]})` },
              }),
            ]}
          >
            {readLabel}
            <span css={visuallyHidden}>: {post.title}</span>
            <UiIcon name="arrow-right" size={18} />
          </Link>
        </div>
      </div>
    </article>
  );
}

/** The whole card is clickable through its one link (the title), stretched over the card by a pseudo-element. */
function ArticleCard({ post, titleLevel: Title }: { post: BlogIndexEntry; titleLevel: TitleLevel }) {
  const theme = useTheme();
  return (
    <article
      css={[
        cardStyle(theme),
        css({
          flex: 1,
          overflow: 'hidden',
          transition: `transform ${theme.motion.base}, box-shadow ${theme.motion.base}, border-color ${theme.motion.base}`,
          '& img': { transition: `transform ${theme.motion.base}` },
          '&:hover': {
            transform: `translateY(-${theme.space[1]})`,
            boxShadow: theme.shadow.raised,
            borderColor: alpha(theme.colors.primary, 30),
          },
          '&:hover img': { transform: 'scale(1.03)' },
          '&:hover h2 a, &:hover h3 a': { color: theme.colors.primaryDark },
        }),
      ]}
    >
      <div css={css({ overflow: 'hidden', background: theme.colors.surface })}>
        <img
          src={post.image.src}
          alt={post.image.alt}
          width={post.image.width}
          height={post.image.height}
          loading="lazy"
          decoding="async"
          css={css({ display: 'block', width: '100%', height: 'auto' })}
        />
      </div>
      <div css={css({ flex: 1, display: 'flex', flexDirection: 'column', gap: theme.space[3], padding: theme.space[5] })}>
        <p css={css({ margin: 0 })}>
          <span css={tagStyle(theme)}>{post.category}</span>
        </p>
        <Title css={css({ margin: 0, fontSize: theme.fontSize.lg, fontWeight: 700, lineHeight: 1.3, letterSpacing: '-0.01em' })}>
          <Link
            to={articleHref(post)}
            css={css({
              color: theme.colors.text,
              textDecoration: 'none',
              transition: `color ${theme.motion.fast}`,
              '&::after': { content: '""', position: 'absolute', inset: 0, zIndex: 1, borderRadius: theme.radius.lg },
              '&:focus-visible': { outline: 'none' },
              // Inside the card's edge: the card clips overflow, so an outer ring would be cut off.
              '&:focus-visible::after': { outline: `${theme.space[1]} solid ${theme.colors.primary}`, outlineOffset: `-${theme.space[1]}` },
            })}
          >
            {post.title}
          </Link>
        </Title>
        <p css={css({ margin: 0, flex: 1, fontSize: theme.fontSize.sm, lineHeight: 1.65, color: theme.colors.muted })}>{post.excerpt}</p>
        <ArticleMeta
          post={post}
          css={css({ paddingTop: theme.space[4], borderTop: `1px solid ${theme.colors.border}`, fontSize: theme.fontSize.xs })}
        />
      </div>
    </article>
  );
}
