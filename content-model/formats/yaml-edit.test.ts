import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { diffLines } from '../../studio/server/line-diff.ts';
import { readMarkdownFile, stringifyYaml, updateMarkdownFile, updateYaml } from './yaml-edit.ts';

const content = path.resolve(import.meta.dirname, '../../content');
const yamlFiles = ['site.yaml', 'roi.yaml', ...readdirSync(path.join(content, 'pages')).map((name) => `pages/${name}`)];
const articles = readdirSync(path.join(content, 'blog')).map((name) => `blog/${name}`);
const read = (file: string) => readFileSync(path.join(content, file), 'utf8');

/** The lines a change touched, as `-old` / `+new`. */
function changedLines(before: string, after: string): string[] {
  return diffLines(before, after)
    .filter((line) => line.kind !== 'same')
    .map((line) => `${line.kind === 'added' ? '+' : '-'}${line.text}`);
}

const comments = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('#'));

describe('saving unchanged content changes no byte', () => {
  it.each(yamlFiles)('%s', (file) => {
    const text = read(file);
    expect(updateYaml(text, parse(text))).toBe(text);
  });
  it.each(articles)('%s', (file) => {
    const text = read(file);
    expect(updateMarkdownFile(text, readMarkdownFile(text))).toBe(text);
  });
});

describe('a change touches only its own lines', () => {
  it('the home headline: one line, every comment kept', () => {
    const text = read('pages/home.yaml');
    const data = parse(text) as { blocks: { heading: string }[] };
    data.blocks[0]!.heading = 'Grow faster with AI that answers every call';
    const result = updateYaml(text, data);
    expect(changedLines(text, result)).toEqual([
      '-    heading: Transform Your Business with Premier AI',
      '+    heading: Grow faster with AI that answers every call',
    ]);
    expect(comments(result)).toEqual(comments(text));
  });

  it('a new FAQ question is added after the others at their indentation', () => {
    const text = read('pages/faqs.yaml');
    const data = parse(text) as { blocks: { type: string; categories?: { items: { question: string; answer: string }[] }[] }[] };
    data.blocks
      .find((block) => block.type === 'faq-list')!
      .categories![0]!.items.push({ question: 'Do you work with small teams?', answer: 'Yes.' });
    const result = updateYaml(text, data);
    expect(parse(result)).toEqual(data);
    expect(changedLines(text, result).every((line) => line.startsWith('+'))).toBe(true);
    expect(changedLines(text, result)).toHaveLength(2);
  });

  it('a removed question goes with its lines only', () => {
    const text = read('pages/faqs.yaml');
    const data = parse(text) as { blocks: { type: string; categories?: { items: unknown[] }[] }[] };
    data.blocks.find((block) => block.type === 'faq-list')!.categories![0]!.items.splice(1, 1);
    const result = updateYaml(text, data);
    expect(parse(result)).toEqual(data);
    expect(changedLines(text, result).every((line) => line.startsWith('-'))).toBe(true);
    expect(comments(result)).toEqual(comments(text));
  });

  it('two swapped blocks move as whole chunks, with their comments', () => {
    const text = read('pages/home.yaml');
    const data = parse(text) as { blocks: unknown[] };
    [data.blocks[1], data.blocks[2]] = [data.blocks[2], data.blocks[1]];
    const result = updateYaml(text, data);
    expect(parse(result)).toEqual(data);
    expect(result.split('\n').sort()).toEqual(text.split('\n').sort());
  });

  it('a removed property goes, an added one is written after its siblings', () => {
    const text = read('pages/home.yaml');
    const data = parse(text) as { blocks: Record<string, unknown>[] };
    delete data.blocks[0]!.eyebrow;
    data.blocks[0]!.id = 'top';
    const result = updateYaml(text, data);
    expect(parse(result)).toEqual(data);
    expect(changedLines(text, result)).toEqual(['-    eyebrow: AI-Powered Business Solutions', '+    id: top']);
  });
});

describe('quoting', () => {
  const text = "# settings\nname: 'Premier AI'\ncount: 3\nflag: plain\nbody: |\n  line one\n  line two\n";
  it.each([
    ['a single-quoted value stays single-quoted', { name: "O'Brien & Co." }, "name: 'O''Brien & Co.'"],
    ['a text that reads like a boolean is quoted', { flag: 'true' }, 'flag: "true"'],
    ['a text that reads like a number is quoted', { flag: '42' }, 'flag: "42"'],
    ['a colon and space is quoted', { flag: 'a: b' }, 'flag: "a: b"'],
    ['a number stays a number', { count: 4 }, 'count: 4'],
  ])('%s', (_name, change, line) => {
    const data = { ...(parse(text) as object), ...change };
    const result = updateYaml(text, data);
    expect(parse(result)).toEqual(data);
    expect(result).toContain(`${line}\n`);
    expect(result.startsWith('# settings\n')).toBe(true);
  });

  it('a literal block stays a literal block', () => {
    const data = { ...(parse(text) as object), body: 'line one\nline three\n' };
    const result = updateYaml(text, data);
    expect(parse(result)).toEqual(data);
    expect(result).toContain('body: |\n  line one\n  line three\n');
  });
});

describe('articles', () => {
  it('a front matter change keeps the body’s bytes; a body change keeps the front matter’s', () => {
    const text = read(articles[0]!);
    const file = readMarkdownFile(text);
    const retitled = updateMarkdownFile(text, { ...file, frontMatter: { ...(file.frontMatter as object), title: 'A new title' } });
    expect(retitled.slice(retitled.lastIndexOf('---'))).toBe(text.slice(text.lastIndexOf('---')));
    const rewritten = updateMarkdownFile(text, { ...file, body: 'New text.\n' });
    expect(rewritten.slice(0, rewritten.lastIndexOf('---'))).toBe(text.slice(0, text.lastIndexOf('---')));
    expect(readMarkdownFile(rewritten).body).toBe('New text.\n');
  });
});

describe('any edit reads back as the data it was given', () => {
  const value = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer({ min: -5, max: 1000 }),
    fc.boolean(),
    fc.constantFrom('true', '12', 'a: b', "it's", '- dash', '#hash', 'two\nlines'),
  );
  it('for random changes to real files', () => {
    const files = ['pages/home.yaml', 'pages/faqs.yaml', 'site.yaml', 'roi.yaml'];
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('set', 'delete', 'add', 'swap'), value), { minLength: 1, maxLength: 4 }),
        (file, changes) => {
          const text = read(file);
          const data = parse(text) as unknown;
          for (const [seed, kind, next] of changes) mutate(data, seed, kind, next);
          const result = updateYaml(text, data);
          expect(parse(result)).toEqual(JSON.parse(JSON.stringify(data)));
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** Changes one place in the data, chosen by `seed`. */
function mutate(data: unknown, seed: number, kind: string, next: unknown): void {
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    containers.push(node as Record<string, unknown>);
    for (const child of Object.values(node)) walk(child);
  };
  walk(data);
  const container = containers[seed % containers.length]!;
  if (Array.isArray(container)) {
    const index = seed % Math.max(1, container.length);
    if (kind === 'delete' && container.length > 1) container.splice(index, 1);
    else if (kind === 'add') container.splice(index, 0, next);
    else if (kind === 'swap' && container.length > 1)
      [container[0], container[container.length - 1]] = [container[container.length - 1], container[0]];
    else if (container.length > 0) container[index] = next;
  } else {
    const keys = Object.keys(container);
    const key = keys[seed % Math.max(1, keys.length)] ?? 'added';
    if (kind === 'delete' && keys.length > 1) delete container[key];
    else if (kind === 'add') container[`new${seed % 7}`] = next;
    else container[key] = next;
  }
}

describe('stringifyYaml', () => {
  it('writes block YAML with two-space indentation', () => {
    expect(stringifyYaml({ path: '/spring', blocks: [{ type: 'hero', heading: 'Spring' }] })).toBe(
      'path: /spring\nblocks:\n  - type: hero\n    heading: Spring\n',
    );
  });
});

describe('long lists', () => {
  /** The fastest of five runs (so a busy machine's pauses drop out) of replacing a list of `length` entries by as many others. */
  function replaceTime(length: number): number {
    const before = updateYaml('title: x\n', { title: 'x', items: Array.from({ length }, (_, i) => `a${i}`) });
    const next = { title: 'x', items: Array.from({ length }, (_, i) => `b${i}`) };
    let fastest = Infinity;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      expect(parse(updateYaml(before, next))).toEqual(next);
      fastest = Math.min(fastest, performance.now() - started);
    }
    return fastest;
  }

  it('takes time that grows with the list, not with its square (four times the entries, not sixteen times the time)', () => {
    const short = replaceTime(1_500);
    const long = replaceTime(6_000);
    // Linear is 4 times, quadratic 16 times; the bound leaves room for noise between the two.
    expect(long / short).toBeLessThan(10);
  });
});
