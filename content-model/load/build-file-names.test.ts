// The build's files are named in one module (build-files.ts): its writer and every reader take the
// names from there, so a renamed file cannot leave a reader looking for the old one. This reads the
// code of the project (tests aside: they spell names on purpose, as a visitor's URL would) and finds
// any string that spells one of those names itself. Comments may name the files freely.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  BUILD_INFO_FILE,
  BUILD_STATE_FILE,
  BUSINESS_HOURS_FILE,
  CSP_MANIFEST_FILE,
  ROI_PARAMETERS_FILE,
  ROUTES_FILE,
} from './build-files.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DESCRIPTION = path.join('content-model', 'load', 'build-files.ts');
const CODE_FOLDERS = [
  'brand-pictures',
  'blocks',
  'console',
  'content-model',
  'forms',
  'lead',
  'renderer',
  'schema',
  'scripts',
  'server',
  'studio',
  'ui',
];
const NAMES = [ROUTES_FILE, CSP_MANIFEST_FILE, ROI_PARAMETERS_FILE, BUSINESS_HOURS_FILE, BUILD_STATE_FILE, BUILD_INFO_FILE];
const escaped = NAMES.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
// A name as a whole path segment: `routes.json`, `dist/routes.json`, `/build.json?t=1`.
const SPELLED = new RegExp(`(?:^|[/\\\\])(?:${escaped})(?:$|[?#])`);

/** The strings (and template parts) of a module's code that spell a build file's name. */
export function spelledBuildFileNames(fileName: string, code: string): string[] {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)) &&
      SPELLED.test(node.text)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${fileName}:${line + 1}: ${JSON.stringify(node.text)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function codeFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:ts|tsx|mts)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

describe('the names of the build’s files', () => {
  it('are found in a string, wherever in a path, and not in a comment', () => {
    const code = [
      '// routes.json names the pages',
      `const file = path.join(dir, 'routes.json');`,
      'const info = `${site}/build.json?t=${now}`;',
      `const other = 'package.json';`,
    ].join('\n');
    expect(spelledBuildFileNames('example.ts', code)).toEqual(['example.ts:2: "routes.json"', 'example.ts:3: "/build.json?t="']);
  });

  it('are spelled in the code only by the module that describes the build', () => {
    const files = CODE_FOLDERS.flatMap(codeFiles).filter((file) => file !== DESCRIPTION);
    expect(files.length).toBeGreaterThan(100);
    const spelled = files.flatMap((file) => spelledBuildFileNames(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(spelled).toEqual([]);
  });
});
