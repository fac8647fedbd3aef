// `npm run check:content`: the full content check with messages an editor can act on
// (`file:line:column where: what to fix`, typos with a suggestion, broken links, missing pictures),
// and the warnings that stop nothing (alt text, headings, link text, titles too long for search),
// then ajv-cli over the same files, as CI runs it on its own. The plain check goes first so its
// message is the one an editor sees; ajv-cli's raw report appears only if it finds something the
// plain check let through.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ContentError, formatIssue, type ContentIssue } from '../content-model/content-issue.ts';
import { KIND_ORDER, kindDefinition } from '../content-model/kinds.ts';
import { loadContent } from '../content-model/load/load-content.ts';

const root = path.resolve(import.meta.dirname, '..');
const contentDir = process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : path.join(root, 'content');

/** Warnings found by the plain check, listed last. */
let warnings: readonly ContentIssue[] = [];

function checkPlainly(): boolean {
  try {
    const content = loadContent({ root, contentDir });
    console.log(`Content OK: site.yaml, roi.yaml, ${content.pages.length} pages, ${content.posts.length} articles.`);
    warnings = content.warnings;
    return true;
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    console.error(error.message);
    warnings = error.warnings;
    return false;
  }
}

/** Advice that stops nothing: listed after everything else. */
function printWarnings(print: (line: string) => void): void {
  if (warnings.length === 0) return;
  const count = warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`;
  print(`\n${count} (advice for readers and search engines; nothing is stopped by it):`);
  for (const warning of warnings) print(`  ${formatIssue(warning)}`);
}

/** The JSON Schema check CI runs (`npm run check:schemas`), over the same content folder. */
function checkWithAjvCli(): boolean {
  const ajv = path.join(root, 'node_modules', '.bin', 'ajv');
  const schema = (name: string) => path.join(root, 'schema', name);
  const references = ['-r', schema('common.schema.json'), '-r', path.join(root, 'blocks', '*', 'schema.json')];
  // Every kind of content file kept as YAML, from the one table of kinds (an article's front matter
  // is not a file of its own, so ajv-cli cannot read it; the plain check above covers it).
  const runs = KIND_ORDER.map(kindDefinition)
    .filter((kind) => kind.format === 'yaml')
    .map((kind) => {
      const files =
        kind.shape === 'singleton'
          ? path.join(contentDir, path.relative('content', kind.file))
          : path.join(contentDir, path.relative('content', kind.folder), `*${kind.extension}`);
      return ['--all-errors', '-s', schema(kind.schema), ...references, '-d', files];
    });
  for (const args of runs) {
    const keywords = ['-c', 'ajv-formats', '-c', path.join(root, 'content-model', 'schema-keywords.cjs')];
    const result = spawnSync(ajv, ['validate', '--spec=draft7', ...keywords, ...args], { encoding: 'utf8' });
    if (result.status !== 0) {
      console.error(`ajv-cli (the check CI runs) found more:\n${result.stdout}${result.stderr}`);
      return false;
    }
  }
  console.log('ajv-cli (the check CI runs): every file matches its schema.');
  return true;
}

const passed = checkPlainly() && checkWithAjvCli();
// While there are mistakes they are all that is shown: the advice can wait until they are fixed.
if (passed) printWarnings(console.log);
process.exitCode = passed ? 0 : 1;
