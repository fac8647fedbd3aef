// The build's messages about the open file, listed above the form, the mistakes (which stop publishing)
// apart from the suggestions (which do not), each as "place: message" with the place in the form's
// words ("Block 6, Text section › Picture › Description"): each one that names a field is a link that
// moves focus to that field, opening its block first when it sits inside one.
import { css } from '@emotion/react';
import type { ContentIssue } from '../../../content-model/content-issue.ts';
import { isWarning } from '../editor-context.tsx';
import { fieldId } from '../fields/field-parts.tsx';
import { issueText } from '../fields/issue-place.ts';
import { color, ui } from '../ui.ts';

export function IssueList({ issues }: { issues: ContentIssue[] }) {
  const mistakes = issues.filter((issue) => !isWarning(issue));
  const warnings = issues.filter(isWarning);
  return (
    <>
      {mistakes.length > 0 && (
        <section aria-labelledby="issues-title" css={ui.errorBanner}>
          <h2 id="issues-title" css={css({ fontSize: 16, margin: '0 0 6px' })}>
            {mistakes.length === 1 ? '1 thing to fix before publishing' : `${mistakes.length} things to fix before publishing`}
          </h2>
          <IssueItems issues={mistakes} linkColor={color.dangerInk} />
        </section>
      )}
      {warnings.length > 0 && (
        <section aria-labelledby="warnings-title" css={ui.banner}>
          <h2 id="warnings-title" css={css({ fontSize: 16, margin: '0 0 6px' })}>
            {warnings.length === 1 ? '1 suggestion' : `${warnings.length} suggestions`} (they do not stop publishing)
          </h2>
          <IssueItems issues={warnings} linkColor={color.warningInk} />
        </section>
      )}
    </>
  );
}

/** Each message; one that names a field is a link that moves focus to it. */
function IssueItems({ issues, linkColor }: { issues: ContentIssue[]; linkColor: string }) {
  return (
    <ul css={css({ margin: 0, paddingLeft: 18 })}>
      {issues.map((issue, index) => (
        <li key={index}>
          {issue.segments ? (
            <a
              href={`#${fieldId(issue.segments)}`}
              css={css({ color: linkColor })}
              onClick={(event) => {
                event.preventDefault();
                focusField(issue.segments!);
              }}
            >
              {issueText(issue)}
            </a>
          ) : (
            issueText(issue)
          )}
        </li>
      ))}
    </ul>
  );
}

/** Moves focus to a field (opening its block first, when it is inside one). */
function focusField(segments: readonly (string | number)[]) {
  const target = document.getElementById(fieldId(segments)) ?? closestExisting(segments);
  if (target) {
    target.scrollIntoView({ block: 'center' });
    target.focus();
    return;
  }
  if (segments[0] === 'blocks' && typeof segments[1] === 'number') {
    document.querySelector<HTMLButtonElement>(`[data-item="${segments[1]}"] [data-item-heading]`)?.click();
    requestAnimationFrame(() =>
      requestAnimationFrame(() => (document.getElementById(fieldId(segments)) ?? closestExisting(segments))?.focus()),
    );
  }
}

function closestExisting(segments: readonly (string | number)[]): HTMLElement | null {
  for (let length = segments.length; length > 0; length--) {
    const element = document.getElementById(fieldId(segments.slice(0, length)));
    if (element) return element;
  }
  return null;
}
