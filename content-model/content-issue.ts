// A problem found in a content file, located for a non-developer: file:line:column, where, and what.
export type ContentIssue = {
  file: string;
  line: number;
  column: number;
  /** Where in the file, e.g. `blocks[2] (stats) items[2]`. Empty for the whole file. */
  where: string;
  message: string;
  /** The property the issue is about, as keys and list positions (`['blocks', 2, 'heading']`): the studio shows the message beside that field. */
  segments?: readonly (string | number)[];
  /**
   * A warning is advice (a picture's description that says nothing, a heading that skips a level, a
   * title too long for a search result): shown beside the field and listed, it never stops a build or
   * a publish. Without it the issue is a mistake that does.
   */
  severity?: 'warning';
  /** The issue is about an article's text (its Markdown, below the details): the studio shows it beside that text. */
  part?: 'body';
};

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
