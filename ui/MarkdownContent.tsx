// The Markdown parser and its element mapping (react-markdown + remark-gfm, ~45 KB gzip). Loaded by
// <Markdown> only where text must be rendered in the browser (client-side navigation); prerendered
// pages keep their HTML, and the prerenderer loads this module up front (preloadMarkdown()).
import type { ComponentProps } from 'react';
import ReactMarkdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { markdownHeadingLevel, type HeadingLevel } from './markdown-heading.ts';
import { SmartLink } from './SmartLink.tsx';

const MARKDOWN_HEADINGS = [1, 2, 3, 4, 5, 6] as const;

function headingComponent(level: HeadingLevel) {
  const Tag = `h${level}` as const;
  return function MarkdownHeading({ node: _node, ...props }: ComponentProps<'h2'> & ExtraProps) {
    return <Tag {...props} />;
  };
}

/** A "**Label:** text" block: a paragraph that opens with bold text is marked so it can be styled as a labelled line. */
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
  const headings = Object.fromEntries(
    MARKDOWN_HEADINGS.map((level) => [`h${level}`, headingComponent(markdownHeadingLevel(level, parentLevel))]),
  );
  const components: Components = { ...headings, p: MarkdownParagraph, a: MarkdownLink, table: MarkdownTable };
  // Raw HTML in content is shown as text, never as markup (react-markdown's default; kept deliberately).
  const options: MarkdownOptions = { components, remarkPlugins: [remarkGfm], skipHtml: false };
  optionsByParentLevel.set(parentLevel, options);
  return options;
}

/** The text as elements, without the prose container (Markdown.tsx adds it). */
export function MarkdownContent({ children, parentLevel }: { children: string; parentLevel: HeadingLevel }) {
  return <ReactMarkdown {...markdownOptions(parentLevel)}>{children}</ReactMarkdown>;
}
