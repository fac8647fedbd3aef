import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
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
    expect(findImportCycles(graph)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
    expect(
      findImportCycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('the project has none', () => {
    const graph = readImportGraph(listSourceFiles(root));
    expect(graph.size).toBeGreaterThan(100);
    const cycles = findImportCycles(graph).map((cycle) => cycle.map((file) => path.relative(root, file)).join(' ⇄ '));
    expect(cycles).toEqual([]);
  });
});

describe('the lead domain stands alone', () => {
  // Its own tsconfig keeps DOM and Node types out; this keeps out React, Node modules and UI code.
  // Tests run under Node and may read the shipped content to check against it.
  const ALLOWED_PACKAGES = new Set(['zod']);
  // A package's own entry points count as the package: `zod/mini` is zod.
  const packageOf = (specifier: string) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
  const leadDir = path.join(root, 'lead');

  it('lead/ code imports only lead/ files and zod', () => {
    const offending: string[] = [];
    for (const file of listSourceFiles(leadDir).filter((candidate) => !candidate.endsWith('.test.ts'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
        const specifier = match[1]!;
        const isRelative = specifier.startsWith('.');
        const allowed = isRelative
          ? path.resolve(path.dirname(file), specifier).startsWith(`${leadDir}${path.sep}`)
          : ALLOWED_PACKAGES.has(packageOf(specifier));
        if (!allowed) offending.push(`${path.relative(root, file)} imports ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
