// A readable line diff of two versions of a file, for the person about to publish: the changed lines
// with a little context around them, like `git diff` shows, but as data the studio renders itself.
// The comparison itself is jsdiff's (`diffArrays`, Myers' algorithm) over the lines as split here, so
// a missing newline at the end of a file is never shown as a change of its last line.
import { diffArrays, type ArrayChange } from 'diff';

export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string; oldLine?: number; newLine?: number };
export type DiffHunk = { lines: DiffLine[] };

/** Lines of context kept around each change. */
const CONTEXT_LINES = 3;

/**
 * The most lines (before and after together) between the lines equal at both ends that are compared
 * one by one. The longest content file has under 200 lines, so rewriting it whole stays far inside;
 * past it the changed part is shown as removed, then added, without comparing anything: still a true
 * diff, only not the smallest, and a huge draft can no longer hold the studio for seconds.
 */
const MAX_COMPARED_LINES = 4_000;

/**
 * The most lines removed plus added that the comparison looks for. Its time grows with the square of
 * this (300: about five milliseconds; 2,000: a quarter of a second), and the review screen compares
 * every draft, so two very different versions give up quickly; past it the changed part is shown as
 * removed, then added, as above. An edit in the form changes a few lines.
 */
const MAX_EDIT_LENGTH = 300;

/** Every line of both texts, marked same, added or removed. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // Lines equal at both ends need no comparison; content files usually change in one place.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const oldMiddle = a.slice(start, endA);
  const newMiddle = b.slice(start, endB);
  const compared =
    oldMiddle.length + newMiddle.length <= MAX_COMPARED_LINES
      ? diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH })
      : undefined;
  const changes: ArrayChange<string>[] = [
    { value: a.slice(0, start), count: start, added: false, removed: false },
    ...(compared ?? [
      { value: oldMiddle, count: oldMiddle.length, added: false, removed: true },
      { value: newMiddle, count: newMiddle.length, added: true, removed: false },
    ]),
    { value: a.slice(endA), count: a.length - endA, added: false, removed: false },
  ];

  const lines: DiffLine[] = [];
  let oldLine = 1;
  let newLine = 1;
  // Removed lines first, then the lines that replace them, as people read a change.
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    lines.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const change of changes) {
    for (const text of change.value) {
      if (change.removed) removed.push({ kind: 'removed', text, oldLine: oldLine++ });
      else if (change.added) added.push({ kind: 'added', text, newLine: newLine++ });
      else {
        flush();
        lines.push({ kind: 'same', text, oldLine: oldLine++, newLine: newLine++ });
      }
    }
  }
  flush();
  return lines;
}

/** Only the changes, each with up to three unchanged lines around it. */
export function diffHunks(before: string, after: string, context = CONTEXT_LINES): DiffHunk[] {
  const lines = diffLines(before, after);
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) keep[k] = true;
  });
  const hunks: DiffHunk[] = [];
  let current: DiffLine[] | undefined;
  lines.forEach((line, index) => {
    if (!keep[index]) {
      current = undefined;
      return;
    }
    if (!current) hunks.push({ lines: (current = []) });
    current.push(line);
  });
  return hunks;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  // A final newline ends the last line; it does not start another.
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
