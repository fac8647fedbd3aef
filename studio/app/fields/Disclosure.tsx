// A part of a form that starts closed and opens on demand: the page's settings, a group's advanced
// options. A native <details>, so a keyboard opens it with Enter or Space and a screen reader says
// whether it is open; closed, its summary says what it holds, so nobody has to open it to find out.
// It opens by itself when the build has a mistake about a field inside, so no mistake hides.
import { css } from '@emotion/react';
import { useEffect, useState, type ReactNode } from 'react';
import { color, ui } from '../ui.ts';
import { listWords } from '../../../back-office/list-words.ts';

export function Disclosure({
  title,
  holds,
  mistakes,
  children,
}: {
  title: string;
  /** What it holds, in words: shown beside the title while it is closed. */
  holds: string;
  /** How many of the build's mistakes are about fields inside it. */
  mistakes: number;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(mistakes > 0);
  useEffect(() => {
    if (mistakes > 0) setOpen(true);
  }, [mistakes]);
  return (
    <details css={ui.disclosure} open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary css={ui.disclosureSummary}>
        <span css={css({ fontWeight: 700 })}>{title}</span>
        {!open && <span css={css({ color: color.mutedText, fontSize: 14 })}>{holds}</span>}
        {mistakes > 0 && <span css={ui.error}>{mistakes === 1 ? '1 mistake' : `${mistakes} mistakes`}</span>}
      </summary>
      {/* Drawn only while open, so a closed part's fields are out of the way of the keyboard and of screen readers alike. */}
      {open && <div css={css({ paddingTop: 10 })}>{children}</div>}
    </details>
  );
}

/** "Address, search title and hide from search engines": the labels of what a section holds, as a phrase. */
export function listOfLabels(labels: readonly string[]): string {
  const words = labels.map((label, index) => (index === 0 ? label : label.charAt(0).toLowerCase() + label.slice(1)));
  return listWords(words);
}
