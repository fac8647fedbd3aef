import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportCycles, listSourceFiles, readImportGraph } from './import-cycles.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('import cycles', () => {
  it('finds a cycle of two and a cycle of three, and nothing in a tree', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['a', 'c']],
    ]);
    expect(findImportCycles(graph)).toEqual([['a', 'b'], ['c', 'd', 'e']]);
    expect(findImportCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  it('the project has none', () => {
    const graph = readImportGraph(listSourceFiles(root));
    expect(graph.size).toBeGreaterThan(100);
    const cycles = findImportCycles(graph).map((cycle) => cycle.map((file) => path.relative(root, file)).join(' ⇄ '));
    expect(cycles).toEqual([]);
  });
});
