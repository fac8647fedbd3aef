import { css, useTheme } from '@emotion/react';
import { Link, useLoaderData } from 'react-router-dom';
import type { Article as ArticleData } from '../../content-model/blog-index.ts';
import type { ArticleBlock } from '../../generated/content-types.ts';
import type { ArticleLoaderData } from '../../ui/page/route-data.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { ArticleMeta } from '../../ui/ArticleMeta.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { container } from '../../ui/styles.ts';
import { alpha } from '../../ui/alpha.ts';
import { tagStyle } from '../../ui/tag.ts';
import { UiIcon } from '../../ui/UiIcon.tsx';

/** Schema defaults. */
const DEFAULTS = { backLabel: 'Back to Blog', moreLabel: 'More Articles', notFoundHeading: 'Article Not Found' } as const;

const BLOG_PATH = '/blog';

/** The article named in the address (the route's loader finds it), or a "not found" screen. */
export default function Article({
  backLabel = DEFAULTS.backLabel,
  moreLabel = DEFAULTS.moreLabel,
  notFoundHeading = DEFAULTS.notFoundHeading,
  notFoundText,
}: ArticleBlock) {
  // Undefined only if an editor puts this block on a page other than /blog/:slug (no loader there).
  const article = useLoaderData<ArticleLoaderData | undefined>()?.article;
  if (!article) return <ArticleNotFound heading={notFoundHeading} text={notFoundText} backLabel={backLabel} />;
  return <ArticleView article={article} backLabel={backLabel} moreLabel={moreLabel} />;
}

function ArticleView({ article, backLabel, moreLabel }: { article: ArticleData; backLabel: string; moreLabel: string }) {
  const theme = useTheme();
  const readingColumn = css({ maxWidth: theme.width.text });
  return (
    <article>
      <header
        css={css({
          paddingTop: theme.space[7],
          paddingBottom: theme.space[9],
          background: `linear-gradient(180deg, ${theme.colors.surface}, ${alpha(theme.colors.primary, 6)})`,
          borderBottom: `1px solid ${theme.colors.border}`,
          [theme.mq.md]: { paddingTop: theme.space[8] },
        })}
      >
        <div css={[container(theme), readingColumn, css({ display: 'grid', gap: theme.space[5], justifyItems: 'start' })]}>
          <Link
            to={BLOG_PATH}
            css={css({
              display: 'inline-flex',
              alignItems: 'center',
              gap: theme.space[2],
              minHeight: theme.space[7],
              marginLeft: `-${theme.space[2]}`,
              paddingInline: theme.space[2],
              borderRadius: theme.radius.sm,
              fontSize: theme.fontSize.sm,
              fontWeight: 600,
              textDecoration: 'none',
              color: theme.colors.primary,
              '& svg': { transition: `transform ${theme.motion.fast}` },
              '&:hover': { color: theme.colors.primaryDark, textDecoration: 'underline' },
              '&:hover svg': { transform: `translateX(-${theme.space[1]})` },
              '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
            })}
          >
            <UiIcon name="arrow-left" size={18} />
            {backLabel}
          </Link>
          <p
            css={[
              tagStyle(theme),
              css({ margin: 0, background: theme.colors.white, border: `1px solid ${alpha(theme.colors.primary, 25)}` }),
            ]}
          >
            {article.category}
          </p>
          <h1
            css={css({
              margin: 0,
              fontSize: theme.fontSize['3xl'],
              fontWeight: 800,
              lineHeight: 1.08,
              letterSpacing: '-0.035em',
              color: theme.colors.text,
            })}
          >
            {article.title}
          </h1>
          <p css={css({ margin: 0, fontSize: theme.fontSize.lg, lineHeight: 1.6, color: theme.colors.muted })}>{article.excerpt}</p>
          <ArticleMeta post={article} />
        </div>
      </header>

      <div
        css={[container(theme), css({ maxWidth: `calc(${theme.width.text} + ${theme.space[9]} * 2)`, marginTop: `-${theme.space[8]}` })]}
      >
        <img
          src={article.image.src}
          alt={article.image.alt}
          width={article.image.width}
          height={article.image.height}
          fetchPriority="high"
          decoding="async"
          css={css({
            display: 'block',
            width: '100%',
            height: 'auto',
            borderRadius: theme.radius.lg,
            boxShadow: theme.shadow.raised,
            background: theme.colors.surface,
          })}
        />
      </div>

      <div css={[container(theme), readingColumn, css({ paddingTop: theme.space[8], paddingBottom: theme.space[9] })]}>
        <Markdown parentLevel={1}>{article.body}</Markdown>
        <footer
          css={css({
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: theme.space[4],
            marginTop: theme.space[8],
            paddingTop: theme.space[6],
            borderTop: `1px solid ${theme.colors.border}`,
          })}
        >
          <ArticleMeta post={article} css={css({ fontSize: theme.fontSize.xs })} />
          <ActionButton action={{ label: moreLabel, href: BLOG_PATH }} />
        </footer>
      </div>
    </article>
  );
}

function ArticleNotFound({ heading, text, backLabel }: { heading: string; text: string | undefined; backLabel: string }) {
  const theme = useTheme();
  return (
    <section
      css={[
        container(theme),
        css({
          maxWidth: theme.width.text,
          minHeight: '60vh',
          display: 'grid',
          placeContent: 'center',
          justifyItems: 'center',
          gap: theme.space[4],
          textAlign: 'center',
          paddingBlock: theme.space[9],
        }),
      ]}
    >
      <span
        css={css({
          display: 'inline-grid',
          placeItems: 'center',
          width: theme.space[8],
          height: theme.space[8],
          borderRadius: theme.radius.pill,
          background: alpha(theme.colors.primary, 10),
          color: theme.colors.primary,
        })}
      >
        <Icon name="file-text" size={28} />
      </span>
      <h1 css={css({ margin: 0, fontSize: theme.fontSize['2xl'], fontWeight: 800, letterSpacing: '-0.02em' })}>{heading}</h1>
      {text ? <p css={css({ margin: 0, fontSize: theme.fontSize.lg, lineHeight: 1.6, color: theme.colors.muted })}>{text}</p> : null}
      <div css={css({ marginTop: theme.space[3] })}>
        <ActionButton action={{ label: backLabel, href: BLOG_PATH }} />
      </div>
    </section>
  );
}
