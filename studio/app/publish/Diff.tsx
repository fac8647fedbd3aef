// One file's unpublished change as lines that go (−) and lines that come (+), in colour and in
// words for screen readers. Characters nobody can see (a right-to-left mark, a zero-width space) are
// shown as marks such as ⟨U+202E⟩, so a reviewer sees the text as it really is.
import { css } from '@emotion/react';
import { showHiddenCharacters } from '../../../content-model/hidden-characters.ts';
import type { Changes } from '../api.ts';
import { color, font, ui } from '../ui.ts';

export function Diff({
  hunks,
  labels = { removed: 'Removed: ', added: 'Added: ' },
}: {
  hunks: Changes['files'][number]['hunks'];
  /** What a screen reader says before a removed or added line. */
  labels?: { removed: string; added: string };
}) {
  return (
    <div
      css={css({
        border: `1px solid ${color.border}`,
        borderRadius: 8,
        overflow: 'auto',
        fontFamily: font.mono,
        fontSize: 13,
      })}
    >
      {hunks.map((hunk, index) => (
        <div key={index} css={css({ borderTop: index ? `1px dashed ${color.strongBorder}` : 'none', padding: '4px 0' })}>
          {hunk.lines.map((line, lineIndex) => (
            <div
              key={lineIndex}
              data-diff={line.kind}
              css={css({
                whiteSpace: 'pre-wrap',
                padding: '0 8px',
                background: line.kind === 'added' ? color.added : line.kind === 'removed' ? color.removed : 'transparent',
                color: color.text,
              })}
            >
              <span aria-hidden="true">{line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '− ' : '  '}</span>
              <span css={ui.visuallyHidden}>{line.kind === 'added' ? labels.added : line.kind === 'removed' ? labels.removed : ''}</span>
              {showHiddenCharacters(line.text)}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
