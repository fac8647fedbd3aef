// A table that scrolls sideways on a narrow screen instead of squeezing its columns. A keyboard user
// must be able to scroll it too, so the scrolling box takes focus and is a named region (its name is
// the table's caption), whether or not the table holds anything focusable.
import type { ReactNode } from 'react';

export function ScrollingTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box must be reachable by keyboard (WCAG 2.1.1)
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
