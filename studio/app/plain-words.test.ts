// Every text the studio can show is plain English: no file path, no `blocks[`, no `type:`, no key of
// the content files. Read from the source (the browser app's JSX and sentences, the server's answers),
// from the form the schemas make (labels, help, choices, block names), and from what each content
// check says about a broken page, with the place of each mistake as the form names it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ContentError, type ContentIssue } from '../../content-model/content-issue.ts';
import { readMarkdownFile } from '../../content-model/formats/yaml-edit.ts';
import { contentFileOf } from '../../content-model/kinds.ts';
import { loadContent } from '../../content-model/load/load-content.ts';
import { readSchemaModel } from '../../content-model/load/schema-files.ts';
import type { Field } from './fields/form-model.ts';
import { buildFormModel } from './fields/form-model.ts';
import { issuePlace } from './fields/issue-place.ts';
import { jargonIn } from './testing/plain-words.ts';
import { appTexts, serverTexts, sourceFiles, type StudioText } from '../testing/studio-texts.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const schemas = readSchemaModel(ROOT).files;
const model = buildFormModel(schemas);

/**
 * Every property name of the content schemas: a text may use one as a word, never as a key (quoted,
 * or followed by a colon). A name that is also a value people choose or write ("primary", "contact")
 * is data, not a key, when quoted.
 */
const SCHEMA_KEYS = new Set<string>();
const SCHEMA_VALUES = new Set<string>();
JSON.stringify(schemas, (key, value: unknown) => {
  if (key === 'properties' && typeof value === 'object' && value !== null) for (const name of Object.keys(value)) SCHEMA_KEYS.add(name);
  if (key === 'enum' && Array.isArray(value)) for (const choice of value) SCHEMA_VALUES.add(String(choice));
  if (key === 'const') SCHEMA_VALUES.add(String(value));
  return value;
});
for (const value of SCHEMA_VALUES) SCHEMA_KEYS.delete(value);

/** The jargon in `text`: what jargonIn finds, and a schema key written as a key. */
function jargonOf(text: string): string[] {
  const found = jargonIn(text).map(({ what, found }) => `${what} (${found})`);
  if (/blocks\[/.test(text)) found.push('blocks[');
  for (const match of text.matchAll(/["'`“]([A-Za-z]\w*)["'`”]|(?:^|\n)\s*([A-Za-z]\w*):(?!\/)/g)) {
    const key = match[1] ?? match[2]!;
    if (SCHEMA_KEYS.has(key)) found.push(`a schema key (${key})`);
  }
  return found;
}

type Finding = StudioText & { jargon: string[] };

function findings(texts: readonly StudioText[]): Finding[] {
  return texts.map((text) => ({ ...text, jargon: jargonOf(text.text) })).filter((finding) => finding.jargon.length > 0);
}

const report = (list: readonly Finding[]) => list.map((f) => `${f.file}:${f.line} "${f.text}" holds ${f.jargon.join(', ')}`);

// ---- what the studio's form shows, from the schemas -------------------------------------------

function formTexts(): StudioText[] {
  const texts: StudioText[] = [];
  const walk = (field: Field, file: string) => {
    if (field.label) texts.push({ file, line: 0, text: field.label });
    if (field.help) texts.push({ file, line: 0, text: field.help });
    for (const choice of field.choices ?? []) texts.push({ file, line: 0, text: choice.label });
    for (const child of field.fields ?? []) walk(child, fileOfField(child, file));
    if (field.item) walk(field.item, file);
  };
  walk(model.page, 'schema/page.schema.json');
  walk(model.site, 'schema/site.schema.json');
  walk(model.article, 'schema/blog-post.schema.json');
  walk(model.roi, 'schema/roi.schema.json');
  for (const block of model.blocks) {
    const file = `blocks/${block.type}/schema.json`;
    texts.push({ file, line: 0, text: block.title }, { file, line: 0, text: block.description });
    for (const field of block.fields) walk(field, fileOfField(field, file));
  }
  return texts;
}

/** Shared fields (a picture, a link, a button) come from the common schema: their texts are listed under it. */
function fileOfField(field: Field, file: string): string {
  return field.kind === 'image' || field.kind === 'link' || field.kind === 'markdown' ? 'schema/common.schema.json' : file;
}

// ---- what the content checks say about broken content -----------------------------------------

const PAGE = (blocks: string, head = 'path: /words-test\ntitle: Words test\n') =>
  `${head}description: A page written by the test to read every message the content checks give a person.\nblocks:\n${blocks}`;
const HERO = '  - type: hero\n    heading: Words\n';
const picture = (src: string, alt: string) => `  - type: rich-text\n    body: Hello\n    image:\n      src: ${src}\n      alt: "${alt}"\n`;
const button = (href: string, label = 'See the services') =>
  `  - type: cta\n    heading: Go\n    actions:\n      - label: ${label}\n        href: "${href}"\n`;
const pageFile = path.join(ROOT, 'content/pages/words-test.yaml');
const siteFile = path.join(ROOT, 'content/site.yaml');
const articleFile = path.join(ROOT, 'content/blog/what-is-ai-consulting.md');
const siteText = readFileSync(siteFile, 'utf8');
const articleText = readFileSync(articleFile, 'utf8');

/** One broken text per kind of mistake or suggestion the content checks know. */
const BROKEN: readonly [string, string, string][] = [
  ['an empty heading', pageFile, PAGE('  - type: hero\n    heading: ""\n')],
  ['a missing value', pageFile, PAGE(`${HERO}  - type: stats\n    items:\n      - value: 58+\n`)],
  ['a picture without a description', pageFile, PAGE(HERO + picture('/images/team/sarah-chen.svg', ''))],
  ['a property the form does not know', pageFile, PAGE('  - type: hero\n    headng: Words\n')],
  ['a block type nobody knows', pageFile, PAGE('  - type: herro\n    heading: Words\n')],
  ['a value of the wrong kind', pageFile, PAGE(`${HERO}  - type: stats\n    items: 58\n`)],
  ['a description too short', pageFile, PAGE(HERO).replace(/description: .*/, 'description: Too short.')],
  ['a title too long', pageFile, PAGE(HERO, `path: /words-test\ntitle: ${'A long title '.repeat(8)}\n`)],
  [
    'a choice that is not one',
    pageFile,
    PAGE(`${HERO}  - type: cta\n    heading: Go\n    actions:\n      - label: Go\n        href: /contact\n        variant: huge\n`),
  ],
  [
    'too many buttons',
    pageFile,
    PAGE(`  - type: cta\n    heading: Go\n    actions:\n${'      - label: Go\n        href: /contact\n'.repeat(4)}`),
  ],
  ['a link no one can follow', pageFile, PAGE(HERO + button('javascript:alert(1)'))],
  ['a link with a hidden character', pageFile, PAGE(HERO + button('/contact\u200B'))],
  ['a link to no page', pageFile, PAGE(HERO + button('/pricing'))],
  ['a link to a draft', pageFile, PAGE(HERO + button('/about'))],
  ['a picture path out of the pictures', pageFile, PAGE(HERO + picture('/images/../../secret.png', 'Nothing'))],
  ['a picture that does not exist', pageFile, PAGE(HERO + picture('/images/missing.svg', 'Nothing'))],
  ['an address another page has', pageFile, PAGE(HERO, 'path: /contact\ntitle: Words test\n')],
  ['an address the site keeps', pageFile, PAGE(HERO, 'path: /api\ntitle: Words test\n')],
  ['an address with a part starting with ":"', pageFile, PAGE(HERO, 'path: /news/:id\ntitle: Words test\n')],
  ['an article block on another page', pageFile, PAGE('  - type: article\n')],
  ['a brand colour too faint', siteFile, siteText.replace(/^( {2}primary:) .*$/m, "$1 '#8B9CF7'")],
  ['a time zone nobody knows', siteFile, siteText.replace(/^( {2}timeZone:) .*$/m, '$1 Eastern')],
  ['an article without a reading time', articleFile, articleText.replace(/^readTime: .*\n/m, '')],
  ['an article without its details', articleFile, 'Just words.\n'],
  ['an article without text', articleFile, articleText.replace(/\n---\n[\s\S]*$/, '\n---\n')],
  ['an article order another has', articleFile, articleText.replace(/^order: .*$/m, 'order: 2')],
  ['a picture described by its file name', pageFile, PAGE(HERO + picture('/images/team/sarah-chen.svg', 'sarah-chen.svg'))],
  ['a picture described as "Image of"', pageFile, PAGE(HERO + picture('/images/team/sarah-chen.svg', 'Image of Sarah'))],
  ['a button whose text says nothing', pageFile, PAGE(HERO + button('/contact', 'Click here'))],
  ['a heading that skips a level', articleFile, articleText.replace(/\n---\n/, '\n---\n\n#### Skipped\n\n')],
];

/** What the checks say about `text` standing in for `file`, with a page marked draft for the link to a draft. */
function checked(file: string, text: string): (ContentIssue & { placeText: string })[] {
  const about = path.join(ROOT, 'content/pages/about.yaml');
  const overrides = new Map<string, string | null>([[file, text]]);
  if (text.includes('href: "/about"')) overrides.set(about, `draft: true\n${readFileSync(about, 'utf8')}`);
  let issues: ContentIssue[];
  try {
    issues = [...loadContent({ root: ROOT, overrides }).warnings];
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    issues = [...error.issues, ...error.warnings];
  }
  const relative = path.relative(ROOT, file).split(path.sep).join('/');
  const kind = contentFileOf(relative)!.kind;
  const data: unknown = kind === 'article' ? safe(() => readMarkdownFile(text).frontMatter) : safe(() => parse(text) as unknown);
  return issues.filter((issue) => issue.file === relative).map((issue) => ({ ...issue, placeText: issuePlace(model, kind, data, issue) }));
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

describe('every text the studio can show is plain English', () => {
  const app = sourceFiles(path.join(ROOT, 'studio/app'), ['.tsx', '.ts']).flatMap((file) => appTexts(file, ROOT));
  const server = sourceFiles(path.join(ROOT, 'studio/server'), ['.ts']).flatMap((file) => serverTexts(file, ROOT));
  const form = formTexts();

  it('the browser app: text between tags, what people read in attributes, what expressions render', () => {
    // The scan finds the texts (a scan that finds nothing would pass for nothing).
    expect(app.length).toBeGreaterThan(300);
    expect(app.map((text) => text.text)).toContain('Jump to the preview');
    expect(report(findings(app))).toEqual([]);
  });

  it('the server: the sentences it answers with and the errors it tells a person', () => {
    expect(server.length).toBeGreaterThan(100);
    expect(server.map((text) => text.text)).toContain('The page data is missing.');
    expect(report(findings(server))).toEqual([]);
  });

  it('the form: labels, help texts, choices and block names from the schemas', () => {
    expect(form.length).toBeGreaterThan(100);
    expect(report(findings(form))).toEqual([]);
  });

  it.each(BROKEN)('the content checks: %s, named where the form shows it', (_kind, file, text) => {
    const issues = checked(file, text);
    expect(issues.length, 'the broken text must give a message').toBeGreaterThan(0);
    // What the person wrote is quoted back as it is ("/news/:id"): the words around it must be plain.
    const quotedBack = (message: string) => message.replace(/"([^"]+)"/g, (quote, words: string) => (text.includes(words) ? '"…"' : quote));
    const texts = issues.flatMap((issue) => [
      { file: issue.file, line: issue.line, text: quotedBack(issue.message) },
      { file: issue.file, line: issue.line, text: issue.placeText },
    ]);
    expect(report(findings(texts))).toEqual([]);
  });
});

describe('the text check itself', () => {
  it('catches a file path, a list index, a YAML key and a schema key, and lets plain sentences through', () => {
    expect(jargonOf('The picture is not in public/images/.')).not.toEqual([]);
    expect(jargonOf('blocks[5] (rich-text) image alt: This must not be empty.')).not.toEqual([]);
    expect(jargonOf('- type: rich-text')).not.toEqual([]);
    expect(jargonOf('Add "heading" to the block.')).not.toEqual([]);
    expect(jargonOf('Block 6, Text section › Picture › Description: a picture needs a description.')).toEqual([]);
    expect(jargonOf('A heading is needed here: write one.')).toEqual([]);
  });
});
