// A problem found in a content file, located twice from one description of where it is (its
// `segments`): for developers as file:line:column and the keys on the way (`blocks[5] (rich-text)
// image alt`), and, in the studio, in the form's own words ("Block 6, Text section › Picture ›
// Description"). The message is the same plain sentence for both.
import { isRecord } from './values.ts';

export type ContentIssue = {
  file: string;
  line: number;
  column: number;
  /** Where in the file for developers, made from `segments` by `describeWhere` (`blocks[2] (stats) items[2]`). Empty for the whole file. */
  where: string;
  message: string;
  /** The property the issue is about, as keys and list positions (`['blocks', 2, 'heading']`): the studio shows the message beside that field. */
  segments?: readonly (string | number)[];
  /**
   * Where, in the words of the studio's form ("Block 6, Text section › Picture › Description"): added
   * by the studio, which knows the form. Absent when the issue is about the whole file.
   */
  place?: string;
  /** The page or article the issue is in, named as the studio names it ("Home"): added by the studio. */
  fileName?: string;
  /**
   * A warning is advice (a picture's description that says nothing, a heading that skips a level, a
   * title too long for a search result): shown beside the field and listed, it never stops a build or
   * a publish. Without it the issue is a mistake that does.
   */
  severity?: 'warning';
  /** The issue is about an article's text (its Markdown, below the details): the studio shows it beside that text. */
  part?: 'body';
};

/**
 * Where a value sits, for developers, from its keys and list positions, with each block's type:
 * `['blocks', 2, 'items', 0]` → `blocks[2] (stats) items[0]`. Every issue's `where` is made here.
 */
export function describeWhere(segments: readonly (string | number)[], data: unknown): string {
  const parts: string[] = [];
  let node: unknown = data;
  segments.forEach((segment, index) => {
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[segment] : undefined;
    if (typeof segment === 'number') {
      const last = parts.pop() ?? '';
      const blockType = segments[index - 1] === 'blocks' && isRecord(node) && typeof node.type === 'string' ? ` (${node.type})` : '';
      parts.push(`${last}[${segment}]${blockType}`);
    } else {
      parts.push(segment);
    }
  });
  return parts.join(' ');
}

/** An issue about the value at `segments` of a file whose data is `data`, located at `line`:`column`. */
export function issueAt(
  at: { file: string; line: number; column: number; data: unknown },
  segments: readonly (string | number)[],
  message: string,
  extra: Pick<ContentIssue, 'severity'> = {},
): ContentIssue {
  return { file: at.file, line: at.line, column: at.column, where: describeWhere(segments, at.data), message, segments, ...extra };
}

export function formatIssue(issue: ContentIssue): string {
  const place = `${issue.file}:${issue.line}:${issue.column}`;
  return issue.where ? `${place} ${issue.where}: ${issue.message}` : `${place} ${issue.message}`;
}

export class ContentError extends Error {
  readonly issues: readonly ContentIssue[];
  /** The warnings found beside the mistakes, for whoever shows them too. */
  readonly warnings: readonly ContentIssue[];

  constructor(issues: readonly ContentIssue[], warnings: readonly ContentIssue[] = []) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super(`Content check failed (${count}):\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`);
    this.name = 'ContentError';
    this.issues = issues;
    this.warnings = warnings;
  }
}
