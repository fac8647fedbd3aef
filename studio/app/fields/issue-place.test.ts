// Each kind of content mistake, as the studio says it: the place the form shows ("Block 6, Text
// section › Picture › Description") and a message a marketer can act on. The labels are read from
// the form model, so a label renamed in the schemas is followed here too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ContentError, type ContentIssue } from '../../../content-model/content-issue.ts';
import { readMarkdownFile } from '../../../content-model/formats/yaml-edit.ts';
import type { ContentKind } from '../../../content-model/kinds.ts';
import { loadContent } from '../../../content-model/load/load-content.ts';
import { readSchemaModel } from '../../../content-model/load/schema-files.ts';
import { blockTypeOf, buildFormModel, type Field } from './form-model.ts';
import { itemName } from './item-name.ts';
import { ARTICLE_TEXT_PLACE, issuePlace, issueText } from './issue-place.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const model = buildFormModel(readSchemaModel(ROOT).files);
const PAGE_FILE = path.join(ROOT, 'content/pages/mistakes.yaml');
const ARTICLE_FILE = path.join(ROOT, 'content/blog/what-is-ai-consulting.md');

const page = (blocks: string) =>
  `path: /mistakes\ntitle: Mistakes\ndescription: A page written by the test to read how the studio names each mistake and where it is.\nblocks:\n${blocks}`;

/** The issues about `file` when its text is `text`, each with its place and the text the studio shows. */
function said(file: string, text: string, kind: ContentKind): (ContentIssue & { at: string; shown: string })[] {
  let issues: ContentIssue[];
  try {
    issues = [...loadContent({ root: ROOT, overrides: new Map([[file, text]]) }).warnings];
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    issues = [...error.issues, ...error.warnings];
  }
  const data: unknown = kind === 'article' ? readMarkdownFile(text).frontMatter : parse(text);
  const relative = path.relative(ROOT, file);
  return issues
    .filter((issue) => issue.file === relative)
    .map((issue) => {
      const place = issuePlace(model, kind, data, issue);
      return { ...issue, at: place, shown: issueText({ ...issue, place }) };
    });
}

const block = (type: string) => blockTypeOf(model, type)!;
const fieldOf = (fields: readonly Field[] | undefined, key: string) => fields!.find((field) => field.key === key)!;

describe('a mistake named as the form names its place, in words a marketer can act on', () => {
  it('an empty heading: the block by its number and name, then the heading', () => {
    const [issue] = said(PAGE_FILE, page('  - type: hero\n    heading: ""\n'), 'page');
    expect(issue!.at).toBe(`Block 1, ${block('hero').title} › ${fieldOf(block('hero').fields, 'heading').label}`);
    expect(issue!.message).toBe('A heading is needed here: write one.');
    expect(issue!.shown).toBe(`${issue!.at}: a heading is needed here: write one.`);
    // The developer's place is made from the same segments.
    expect(issue!.where).toBe('blocks[0] (hero) heading');
  });

  it('a picture without a description: the picture, then its description, with the reason', () => {
    const text = page(
      '  - type: hero\n    heading: Words\n  - type: rich-text\n    body: Hello\n    image:\n      src: /images/team/sarah-chen.svg\n      alt: ""\n',
    );
    const [issue] = said(PAGE_FILE, text, 'page');
    const picture = fieldOf(block('rich-text').fields, 'image');
    expect(issue!.at).toBe(`Block 2, ${block('rich-text').title} › ${picture.label} › ${fieldOf(picture.fields, 'alt').label}`);
    expect(issue!.message).toBe('A picture needs a description for people who cannot see it: say what it shows.');
  });

  it('a missing value in a list: the item by its number, then the field', () => {
    const [issue] = said(PAGE_FILE, page('  - type: stats\n    items:\n      - value: 58+\n'), 'page');
    const items = fieldOf(block('stats').fields, 'items');
    expect(issue!.at).toBe(
      `Block 1, ${block('stats').title} › ${items.label} › ${itemName(items)} 1 › ${fieldOf(items.item!.fields, 'label').label}`,
    );
    expect(issue!.message).toBe('This is needed: fill it in.');
  });

  it('a link to no page: the button, then its link, and the pages there are', () => {
    const text = page('  - type: cta\n    heading: Go\n    actions:\n      - label: See prices\n        href: /pricing\n');
    const [issue] = said(PAGE_FILE, text, 'page');
    const actions = fieldOf(block('cta').fields, 'actions');
    expect(issue!.at).toBe(
      `Block 1, ${block('cta').title} › ${actions.label} › ${itemName(actions)} 1 › ${fieldOf(actions.item!.fields, 'href').label}`,
    );
    expect(issue!.message).toMatch(
      /^"\/pricing" is not a page of the site: choose one of its pages \(\/, .*\/contact.*\) or an article\.$/,
    );
  });

  it('a text too long: its length in characters', () => {
    const text = page('  - type: hero\n    heading: Words\n').replace('title: Mistakes', `title: "${'Long '.repeat(20).trim()}"`);
    const issue = said(PAGE_FILE, text, 'page').find((found) => found.severity !== 'warning');
    expect(issue!.at).toBe(fieldOf(model.page.fields, 'title').label);
    expect(issue!.message).toMatch(/^This is too long: at most \d+ characters \(it has 99\)\.$/);
  });

  it('an address another page has: that page by its name', () => {
    const [issue] = said(PAGE_FILE, page('  - type: hero\n    heading: Words\n').replace('path: /mistakes', 'path: /contact'), 'page');
    expect(issue!.at).toBe(fieldOf(model.page.fields, 'path').label);
    expect(issue!.message).toBe('The address "/contact" is already the address of the page "contact": give each page its own address.');
  });

  it('an article: its details by their labels, and its text as the form calls it', () => {
    const article = readFileSync(ARTICLE_FILE, 'utf8');
    const [missing] = said(ARTICLE_FILE, article.replace(/^readTime: .*\n/m, ''), 'article');
    expect(missing!.at).toBe(fieldOf(model.article.fields, 'readTime').label);
    const skipped = said(ARTICLE_FILE, article.replace(/\n---\n/, '\n---\n\n#### Skipped\n\n'), 'article').find(
      (issue) => issue.part === 'body',
    );
    expect(skipped!.at).toBe(ARTICLE_TEXT_PLACE);
  });

  it('a mistake about the whole file: the message alone', () => {
    expect(issueText({ message: 'The article has no text: write it below its details.' })).toBe(
      'The article has no text: write it below its details.',
    );
    expect(issuePlace(model, 'page', {}, { segments: [] })).toBe('');
  });
});
