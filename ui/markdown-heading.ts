// Where Markdown headings sit in the page outline (pure; used by the parser's element mapping).
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/**
 * The level a Markdown heading gets under a surrounding heading: `##` sits one level below it,
 * `###` two. `#` is treated like `##`, so text can never repeat the page's h1 or skip a level.
 */
export function markdownHeadingLevel(markdownLevel: number, parentLevel: HeadingLevel): HeadingLevel {
  const level = Math.max(markdownLevel + parentLevel - 1, parentLevel + 1);
  return Math.min(level, 6) as HeadingLevel;
}
