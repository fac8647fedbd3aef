// Markdown from content, rendered with the site's typography. Import only from blocks that show
// Markdown (rich-text, faq-list, legal-sections, article).
//
// The parser (MarkdownContent.tsx) never reaches the browser of a visitor: blocks with Markdown are
// static, so the build renders their text to HTML and the browser never renders them again. It loads
// only where React renders a page in the browser (`npm run dev`).
import { css, useTheme, type Theme } from '@emotion/react';
import { Suspense, use } from 'react';
import { alpha } from './alpha.ts';
import { markdownHeadingLevel, type HeadingLevel } from './markdown-heading.ts';
import type * as MarkdownContentExports from './MarkdownContent.tsx';

export { markdownHeadingLevel, type HeadingLevel };

type MarkdownContentModule = typeof MarkdownContentExports;
let loading: Promise<MarkdownContentModule> | undefined;
let loaded: MarkdownContentModule | undefined;

/** Loads the parser. The prerenderer awaits it before rendering (it renders synchronously); tests do too. */
export function preloadMarkdown(): Promise<MarkdownContentModule> {
  loading ??= import('./MarkdownContent.tsx').then((module) => (loaded = module));
  return loading;
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
      <Suspense fallback={null}>
        <ParsedMarkdown parentLevel={parentLevel}>{children}</ParsedMarkdown>
      </Suspense>
    </div>
  );
}

function ParsedMarkdown({ children, parentLevel }: { children: string; parentLevel: HeadingLevel }) {
  // Suspends until the parser has loaded, the first time only.
  const { MarkdownContent } = loaded ?? use(preloadMarkdown());
  return <MarkdownContent parentLevel={parentLevel}>{children}</MarkdownContent>;
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
    '& blockquote': {
      paddingLeft: theme.space[4],
      borderLeft: `${theme.space[1]} solid ${alpha(accent, 40)}`,
      color: onDark ? theme.colors.onDark : theme.colors.muted,
      fontStyle: 'italic',
    },
    '& code': {
      padding: `0 ${theme.space[1]}`,
      borderRadius: theme.radius.sm,
      background: onDark ? alpha(theme.colors.white, 10) : theme.colors.surface,
      fontSize: '0.92em',
    },
    '& hr': { border: 0, borderTop: `1px solid ${onDark ? alpha(theme.colors.white, 16) : theme.colors.border}` },
    '& [data-table-scroll]': { overflowX: 'auto' },
    '& table': { width: '100%', borderCollapse: 'collapse', fontSize: theme.fontSize.sm },
    '& th, & td': {
      textAlign: 'left',
      padding: `${theme.space[2]} ${theme.space[3]}`,
      borderBottom: `1px solid ${onDark ? alpha(theme.colors.white, 16) : theme.colors.border}`,
    },
    '& th': { color: strongColor, fontWeight: 650 },
  });
}
