// Markdown from content, rendered with the site's typography. Import only from blocks that show
// Markdown (rich-text, faq-list, legal-sections, article) so the parser loads only on their routes.
import { css, useTheme, type Theme } from '@emotion/react';
import type { ComponentProps } from 'react';
import ReactMarkdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { SmartLink } from './SmartLink.tsx';
import { alpha } from './alpha.ts';

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/**
 * The level a Markdown heading gets under a surrounding heading: `##` sits one level below it,
 * `###` two. `#` is treated like `##`, so text can never repeat the page's h1 or skip a level.
 */
export function markdownHeadingLevel(markdownLevel: number, parentLevel: HeadingLevel): HeadingLevel {
  const level = Math.max(markdownLevel + parentLevel - 1, parentLevel + 1);
  return Math.min(level, 6) as HeadingLevel;
}

const MARKDOWN_HEADINGS = [1, 2, 3, 4, 5, 6] as const;

function headingComponent(level: HeadingLevel) {
  const Tag = `h${level}` as const;
  return function MarkdownHeading({ node: _node, ...props }: ComponentProps<'h2'> & ExtraProps) {
    return <Tag {...props} />;
  };
}

/** Spec's "**Label:** text" block: a paragraph that opens with bold text is marked so it can be styled as a labelled line. */
function MarkdownParagraph({ node, ...props }: ComponentProps<'p'> & ExtraProps) {
  const first = node?.children[0];
  const labelled = first?.type === 'element' && first.tagName === 'strong';
  return <p {...props} data-labelled={labelled ? '' : undefined} />;
}

/** Links go through SmartLink: `/…` becomes a router <Link>, web addresses open in a new tab with rel="noopener noreferrer". */
function MarkdownLink({ node: _node, href, children, className }: ComponentProps<'a'> & ExtraProps) {
  // An unsafe URL (javascript:, data:…) arrives here emptied by react-markdown's urlTransform.
  if (!href) return <span className={className}>{children}</span>;
  return (
    <SmartLink href={href} className={className}>
      {children}
    </SmartLink>
  );
}

/** Wide tables scroll inside their own box instead of widening the page. */
function MarkdownTable({ node: _node, ...props }: ComponentProps<'table'> & ExtraProps) {
  return (
    <div data-table-scroll="">
      <table {...props} />
    </div>
  );
}

type MarkdownOptions = Pick<Options, 'components' | 'remarkPlugins' | 'skipHtml'>;

const optionsByParentLevel = new Map<HeadingLevel, MarkdownOptions>();

/**
 * The pure part: how Markdown maps to elements for text sitting under a heading of `parentLevel`.
 * Built once per level, so re-renders keep the same component types (React would otherwise remount the text).
 */
export function markdownOptions(parentLevel: HeadingLevel): MarkdownOptions {
  const cached = optionsByParentLevel.get(parentLevel);
  if (cached) return cached;
  const headings = Object.fromEntries(MARKDOWN_HEADINGS.map((level) => [`h${level}`, headingComponent(markdownHeadingLevel(level, parentLevel))]));
  const components: Components = { ...headings, p: MarkdownParagraph, a: MarkdownLink, table: MarkdownTable };
  // Raw HTML in content is shown as text, never as markup (react-markdown's default; kept deliberately).
  const options: MarkdownOptions = { components, remarkPlugins: [remarkGfm], skipHtml: false };
  optionsByParentLevel.set(parentLevel, options);
  return options;
}

type MarkdownProps = {
  children: string;
  /** Level of the heading this text sits under: 1 under the page title, 2 under a section heading, 3 under a card heading. */
  parentLevel: HeadingLevel;
  onDark?: boolean | undefined;
  className?: string;
};

export function Markdown({ children, parentLevel, onDark = false, className }: MarkdownProps) {
  const theme = useTheme();
  return (
    <div className={className} css={proseStyle(theme, onDark)}>
      <ReactMarkdown {...markdownOptions(parentLevel)}>{children}</ReactMarkdown>
    </div>
  );
}

function proseStyle(theme: Theme, onDark: boolean) {
  const strongColor = onDark ? theme.colors.white : theme.colors.text;
  const accent = onDark ? theme.colors.onDark : theme.colors.primary;
  return css({
    // Body colour comes from the surrounding block (text or muted); headings and bold stay strong.
    color: onDark ? theme.colors.onDark : 'inherit',
    fontSize: theme.fontSize.md,
    lineHeight: 1.75,
    overflowWrap: 'break-word',
    // Spacing between siblings only (no :first-child): server-rendered Emotion may put <style> tags among elements.
    '& :where(p, ul, ol, blockquote, hr, h2, h3, h4, h5, h6, [data-table-scroll])': { margin: 0 },
    '& > * + *': { marginTop: theme.space[5] },
    '& > :is(h2, h3, h4, h5, h6) + *': { marginTop: theme.space[3] },
    '& > * + h2': { marginTop: theme.space[7] },
    '& > * + h3': { marginTop: theme.space[6] },
    '& > h2 + h3': { marginTop: theme.space[4] },
    '& h2, & h3, & h4, & h5, & h6': { color: strongColor, fontWeight: 700, letterSpacing: '-0.015em', lineHeight: 1.25 },
    '& h2': { fontSize: theme.fontSize.xl },
    '& h3': { fontSize: theme.fontSize.lg },
    '& h4, & h5, & h6': { fontSize: theme.fontSize.md },
    '& strong': { color: strongColor, fontWeight: 650 },
    '& a': {
      color: onDark ? theme.colors.white : theme.colors.primary,
      fontWeight: 500,
      textDecoration: 'underline',
      textDecorationThickness: '0.08em',
      textUnderlineOffset: '0.18em',
      borderRadius: theme.radius.sm,
      '&:hover': { color: onDark ? theme.colors.white : theme.colors.primaryDark, textDecorationThickness: '0.14em' },
      '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
    },
    '& ul, & ol': { paddingLeft: theme.space[5] },
    // Text can sit inside a list item of its block (numbered legal sections); its own lists keep first-level bullets.
    '& ul': { listStyleType: 'disc' },
    '& ol': { listStyleType: 'decimal' },
    '& li': { paddingLeft: theme.space[1] },
    '& li + li': { marginTop: theme.space[2] },
    '& li > ul, & li > ol': { marginTop: theme.space[2] },
    '& li::marker': { color: accent },
    '& ul > li::marker': { fontSize: '1.1em' },
    '& ol > li::marker': { fontWeight: 700 },
    '& [data-labelled]': {
      padding: `${theme.space[3]} ${theme.space[4]}`,
      borderLeft: `${theme.space[1]} solid ${accent}`,
      borderRadius: `0 ${theme.radius.sm} ${theme.radius.sm} 0`,
      background: onDark ? alpha(theme.colors.white, 6) : theme.colors.surface,
    },
    '& > [data-labelled] + [data-labelled]': { marginTop: theme.space[3] },
    '& blockquote': { paddingLeft: theme.space[4], borderLeft: `${theme.space[1]} solid ${alpha(accent, 40)}`, color: onDark ? theme.colors.onDark : theme.colors.muted, fontStyle: 'italic' },
    '& code': { padding: `0 ${theme.space[1]}`, borderRadius: theme.radius.sm, background: onDark ? alpha(theme.colors.white, 10) : theme.colors.surface, fontSize: '0.92em' },
    '& hr': { border: 0, borderTop: `1px solid ${onDark ? alpha(theme.colors.white, 16) : theme.colors.border}` },
    '& [data-table-scroll]': { overflowX: 'auto' },
    '& table': { width: '100%', borderCollapse: 'collapse', fontSize: theme.fontSize.sm },
    '& th, & td': { textAlign: 'left', padding: `${theme.space[2]} ${theme.space[3]}`, borderBottom: `1px solid ${onDark ? alpha(theme.colors.white, 16) : theme.colors.border}` },
    '& th': { color: strongColor, fontWeight: 650 },
  });
}
