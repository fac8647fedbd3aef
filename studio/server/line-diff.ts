// A readable line diff of two versions of a file, for the person about to publish: the changed lines
// with a little context around them, like `git diff` shows, but as data the studio renders itself.

export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string; oldLine?: number; newLine?: number };
export type DiffHunk = { lines: DiffLine[] };

/** Lines of context kept around each change. */
const CONTEXT_LINES = 3;

/**
 * The largest comparison table (changed lines before × after). Past it the changed part is shown as
 * removed, then added: still a true diff, only not the smallest, and the table (which grows with the
 * product) can no longer hold the studio for seconds or take hundreds of megabytes.
 */
const MAX_TABLE_CELLS = 2_000_000;

/** Every line of both texts, marked same, added or removed (longest common subsequence). */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // Lines equal at both ends need no table; content files usually change in one place.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }

  const rows = endA - start;
  const columns = endB - start;
  const compare = (rows + 1) * (columns + 1) <= MAX_TABLE_CELLS;
  const table = new Uint32Array(compare ? (rows + 1) * (columns + 1) : 1);
  const at = (i: number, j: number) => (compare ? i * (columns + 1) + j : 0);
  for (let i = compare ? rows - 1 : -1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      table[at(i, j)] = a[start + i] === b[start + j] ? table[at(i + 1, j + 1)]! + 1 : Math.max(table[at(i + 1, j)]!, table[at(i, j + 1)]!);
    }
  }

  const lines: DiffLine[] = [];
  for (let k = 0; k < start; k++) lines.push({ kind: 'same', text: a[k]!, oldLine: k + 1, newLine: k + 1 });
  let i = 0;
  let j = 0;
  while (i < rows || j < columns) {
    if (compare && i < rows && j < columns && a[start + i] === b[start + j]) {
      lines.push({ kind: 'same', text: a[start + i]!, oldLine: start + i + 1, newLine: start + j + 1 });
      i++;
      j++;
    } else if (i < rows && (j === columns || !compare || table[at(i + 1, j)]! >= table[at(i, j + 1)]!)) {
      // Removed lines first, then the lines that replace them, as people read a change.
      lines.push({ kind: 'removed', text: a[start + i]!, oldLine: start + i + 1 });
      i++;
    } else {
      lines.push({ kind: 'added', text: b[start + j]!, newLine: start + j + 1 });
      j++;
    }
  }
  for (let k = 0; k < a.length - endA; k++) {
    lines.push({ kind: 'same', text: a[endA + k]!, oldLine: endA + k + 1, newLine: endB + k + 1 });
  }
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
