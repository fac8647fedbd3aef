import { describe, expect, it } from 'vitest';
import { diffHunks, diffLines } from './line-diff.ts';
import { timeAgainstBudget } from '../../lead/testing/machine-speed.ts';

describe('diffLines', () => {
  it.each([
    { name: 'no change', before: 'a\nb\n', after: 'a\nb\n', changes: [] },
    { name: 'one line changed', before: 'a\nb\nc\n', after: 'a\nB\nc\n', changes: ['-b', '+B'] },
    { name: 'a line added at the end', before: 'a\n', after: 'a\nb\n', changes: ['+b'] },
    { name: 'a line removed in the middle', before: 'a\nb\nc\n', after: 'a\nc\n', changes: ['-b'] },
    { name: 'a new file', before: '', after: 'a\nb\n', changes: ['+a', '+b'] },
    { name: 'a deleted file', before: 'a\n', after: '', changes: ['-a'] },
  ])('$name', ({ before, after, changes }) => {
    const lines = diffLines(before, after);
    expect(lines.filter((l) => l.kind !== 'same').map((l) => `${l.kind === 'added' ? '+' : '-'}${l.text}`)).toEqual(changes);
  });

  it('numbers lines in both versions', () => {
    const lines = diffLines('a\nb\nc\n', 'a\nx\nb\nc\n');
    expect(lines).toContainEqual({ kind: 'added', text: 'x', newLine: 2 });
    expect(lines).toContainEqual({ kind: 'same', text: 'c', oldLine: 3, newLine: 4 });
  });
});

describe('diffHunks', () => {
  it('keeps three lines of context and splits distant changes', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 2\n', 'line two\n').replace('line 25\n', 'line twenty-five\n');
    const hunks = diffHunks(before, after);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]!.lines.map((l) => l.text)).toEqual(['line 1', 'line 2', 'line two', 'line 3', 'line 4', 'line 5']);
    expect(hunks[1]!.lines).toHaveLength(8);
  });
});

describe('a very large change', () => {
  it('is shown as removed then added, at once, when comparing line by line would take too long', async () => {
    const before = Array.from({ length: 3_000 }, (_, i) => `a${i}`).join('\n');
    const after = Array.from({ length: 3_000 }, (_, i) => `b${i}`).join('\n');
    const {
      result: lines,
      ms,
      budgetMs,
    } = await timeAgainstBudget(100, () => diffLines(`title: x\n${before}\nend\n`, `title: x\n${after}\nend\n`));
    expect(ms).toBeLessThan(budgetMs);
    expect(lines.filter((line) => line.kind === 'removed')).toHaveLength(3_000);
    expect(lines.filter((line) => line.kind === 'added')).toHaveLength(3_000);
    expect(lines.findIndex((line) => line.kind === 'added')).toBeGreaterThan(lines.findLastIndex((line) => line.kind === 'removed'));
    expect([lines[0]!.text, lines.at(-1)!.text]).toEqual(['title: x', 'end']);
  });

  it('gives up comparing just as quickly when two versions of a smaller part differ in every line', async () => {
    const before = Array.from({ length: 1_000 }, (_, i) => `a${i}`).join('\n');
    const after = Array.from({ length: 1_000 }, (_, i) => `b${i}`).join('\n');
    // The fastest of three runs: how long the work takes, not how long the machine was busy elsewhere.
    const { result: lines, ms, budgetMs } = await timeAgainstBudget(50, () => diffLines(`${before}\n`, `${after}\n`), 3);
    expect(ms).toBeLessThan(budgetMs);
    expect(lines.slice(0, 1_000).every((line) => line.kind === 'removed')).toBe(true);
    expect(lines.slice(1_000).every((line) => line.kind === 'added')).toBe(true);
  });
});

describe('the end of a file', () => {
  it('does not count a missing final newline as a change of the last line', () => {
    expect(diffLines('a\nb', 'a\nb\n').every((line) => line.kind === 'same')).toBe(true);
  });
});
