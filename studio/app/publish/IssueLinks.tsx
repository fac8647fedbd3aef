// What stops a publish (or is suggested), one line per message, each with a link that opens the page
// it is about, named as the studio names it, then "place: message" in the form's words.
import { css } from '@emotion/react';
import type { Changes } from '../api.ts';
import { issueText } from '../fields/issue-place.ts';
import { color } from '../ui.ts';

export function IssueLinks({ issues, onOpen }: { issues: Changes['issues']; onOpen: (path: string) => void }) {
  return (
    <ul css={css({ margin: 0, paddingLeft: 18 })}>
      {issues.map((issue, index) => (
        <li key={index}>
          <a
            href={`?file=${encodeURIComponent(issue.file)}`}
            css={css({ color: color.dangerInk })}
            onClick={(event) => {
              event.preventDefault();
              onOpen(issue.file);
            }}
          >
            {issue.fileName ?? SITE_WIDE}
          </a>
          {` › ${issueText(issue)}`}
        </li>
      ))}
    </ul>
  );
}

/** What an issue about no one page (the site as a whole) is listed under. */
const SITE_WIDE = 'The whole site';
