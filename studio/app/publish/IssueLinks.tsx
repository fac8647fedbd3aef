// What stops a publish, one line per message, each with a link that opens the file it is about.
import { css } from '@emotion/react';
import type { Changes } from '../api.ts';
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
            {issue.file}
          </a>
          {issue.where ? `, ${issue.where}` : ''}: {issue.message}
        </li>
      ))}
    </ul>
  );
}
