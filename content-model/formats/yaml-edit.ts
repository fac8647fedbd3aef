// Writes edited content back as YAML a person would have written. The studio edits plain data; this
// module turns "the file's text" plus "the data it should now hold" into new text by changing only
// the parts of the text whose values changed, in place:
//   - a changed value is rewritten where it stands, in the style it had (quoted stays quoted, a `|`
//     block stays a block);
//   - a removed property or list item goes with its comment lines, an added one is written after
//     its siblings, at their indentation;
//   - reordered list items move as whole chunks of text, with their comments;
// so comments, key order, quoting and line breaks of everything untouched keep their bytes, and
// saving unchanged data returns the text unchanged. Every result is parsed back and compared with
// the data; should an edit ever come out wrong, the changed node is written afresh instead.
import {
  isMap,
  isScalar,
  isSeq,
  parse,
  parseDocument,
  Scalar,
  stringify,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { joinFrontMatter, splitFrontMatter, writeFrontMatter } from './front-matter.ts';
import { isRecord } from '../values.ts';

/** How new YAML is written: block style, two-space indent, long texts folded like the content files. */
const STRINGIFY_OPTIONS = { indent: 2, lineWidth: 100, minContentWidth: 40 } as const;

export type MarkdownFile = { frontMatter: unknown; body: string };

export function readMarkdownFile(text: string): MarkdownFile {
  const parts = splitFrontMatter(text);
  if (!parts) throw new Error('The article must start with a line "---", its details (title, excerpt, author, …), and another "---".');
  return { frontMatter: parse(parts.yaml) as unknown, body: parts.body };
}

export function updateMarkdownFile(text: string, next: MarkdownFile): string {
  const parts = splitFrontMatter(text);
  if (!parts) return writeFrontMatter(stringifyYaml(next.frontMatter), next.body);
  return joinFrontMatter({ ...parts, yaml: updateYaml(parts.yaml, next.frontMatter), body: next.body });
}

export function stringifyYaml(data: unknown): string {
  return stringify(data, STRINGIFY_OPTIONS);
}

export function updateYaml(text: string, next: unknown): string {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) throw new Error(`The file is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  let current: unknown;
  try {
    current = doc.toJS();
  } catch {
    // Anchors (&a, *a) repeated past yaml's limit: the text cannot be read, so the data is written afresh.
    return stringifyYaml(next);
  }
  if (deepEqual(current, next)) return text;
  const edits: Edit[] = [];
  const editor = new TextEditor(text, edits);
  try {
    if (doc.contents && (isMap(doc.contents) || isSeq(doc.contents)) && isCollectionLike(next, doc.contents)) {
      editor.reconcile(doc.contents, next, { column: 0, inline: false });
      const result = applyEdits(text, edits);
      if (deepEqual(parse(result), next)) return result;
    }
  } catch {
    // Falls through to writing the document afresh below.
  }
  return rewriteDocument(doc, next);
}

// ---- editing the text ----------------------------------------------------------------------

type Edit = { start: number; end: number; text: string };

/** Where a node's text sits: the column its siblings start at, and whether it follows `- ` or `key: ` on the same line. */
type Place = { column: number; inline: boolean };

class TextEditor {
  private readonly text: string;
  readonly edits: Edit[];

  constructor(text: string, edits: Edit[]) {
    this.text = text;
    this.edits = edits;
  }

  reconcile(node: Node, next: unknown, place: Place): void {
    if (deepEqual(node.toJSON(), next)) return;
    if (isScalar(node) && !isCollection(next)) return this.replaceScalar(node, next, place);
    if (isMap(node) && isRecord(next) && isBlock(node) && node.items.length > 0) return this.reconcileMap(node, next);
    if (isSeq(node) && Array.isArray(next) && isBlock(node) && node.items.length > 0) return this.reconcileSeq(node, next);
    throw new Error('rewrite');
  }

  private replaceScalar(node: Scalar, next: unknown, place: Place): void {
    const [start, valueEnd] = node.range!;
    // A block scalar's range runs over the line breaks after it; those stay.
    let end = valueEnd;
    while (end > start && /[\s]/.test(this.text[end - 1]!)) end--;
    const rendered = renderScalar(node, next, place.column);
    this.edits.push({ start, end, text: rendered });
  }

  private reconcileMap(node: YAMLMap, next: Record<string, unknown>): void {
    const pairs = node.items as Pair<Node, Node | null>[];
    const column = this.columnOf(pairs[0]!.key!.range![0]);
    const existing = new Set<string>();
    pairs.forEach((pair, index) => {
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
      existing.add(key);
      if (!Object.hasOwn(next, key) || next[key] === undefined) {
        this.edits.push(
          this.chunkOf(
            pairs,
            index,
            (p) => p.key!.range![0],
            (p) => nodeEnd(p),
          ),
        );
        return;
      }
      const value = pair.value;
      if (value === null) throw new Error('rewrite');
      if (deepEqual(value.toJSON(), next[key])) return;
      try {
        const sub = new TextEditor(this.text, []);
        sub.reconcile(value, next[key], { column, inline: true });
        this.edits.push(...sub.edits);
      } catch {
        // The value changes shape (a text becomes a list…): write the pair afresh.
        const chunk = this.lineSpan(pair.key!.range![0], nodeEnd(pair));
        this.edits.push({ ...chunk, text: indentBlock(stringifyYaml({ [key]: next[key] }), column) });
      }
    });
    const added = Object.keys(next).filter((key) => !existing.has(key) && next[key] !== undefined);
    if (added.length > 0) {
      const at = this.endOfLine(nodeEnd(pairs.at(-1)!));
      const addition = Object.fromEntries(added.map((key) => [key, next[key]]));
      this.edits.push({ start: at, end: at, text: this.ensureNewlineBefore(at) + indentBlock(stringifyYaml(addition), column) });
    }
  }

  private reconcileSeq(node: YAMLSeq, next: unknown[]): void {
    const items = node.items as Node[];
    const column = this.dashColumn(items[0]!);
    const old = items.map((item) => item.toJSON() as unknown);
    const match = matchItems(old, next);
    const inOrder = match.filter((m) => m !== -1).every((m, i, list) => i === 0 || m > list[i - 1]!);
    if (!inOrder || next.length === 0) {
      // Items moved: rebuild the list from the items' own text chunks (comments travel with them).
      const chunks = items.map((_, index) => this.chunkText(items, index));
      const firstStart = this.lineStartOf(items[0]!.range![0]);
      const end = this.endOfLine(nodeEnd(items.at(-1)!));
      const body = next.map((value, index) => {
        const from = match[index]!;
        return from !== -1 ? chunks[from]! : indentBlock(stringifyYaml([value]), column);
      });
      if (body.length === 0) throw new Error('rewrite');
      const leading = this.text.slice(firstStart, this.lineStartOf(items[0]!.range![0]));
      this.edits.push({ start: firstStart, end, text: leading + body.join('') });
      return;
    }
    // In order: items left out are removed, new ones inserted where they belong, and an item in the
    // same slot with new content is edited in place.
    const usedOld = new Set(match.filter((m) => m !== -1));
    const pairedNew = new Map<number, number>();
    let cursor = 0;
    next.forEach((_, index) => {
      if (match[index] !== -1) {
        cursor = match[index]! + 1;
        return;
      }
      if (cursor < items.length && !usedOld.has(cursor)) {
        pairedNew.set(index, cursor);
        usedOld.add(cursor);
        cursor++;
      }
    });
    items.forEach((item, index) => {
      if (!usedOld.has(index))
        this.edits.push(
          this.chunkOf(
            items,
            index,
            (i) => i.range![0],
            (i) => nodeEnd(i),
          ),
        );
    });
    let insertAt = this.lineStartOf(items[0]!.range![0]);
    next.forEach((value, index) => {
      const from = match[index]!;
      const slot = pairedNew.get(index);
      if (from !== -1) {
        insertAt = this.endOfLine(nodeEnd(items[from]!));
        return;
      }
      if (slot !== undefined) {
        const item = items[slot]!;
        try {
          const sub = new TextEditor(this.text, []);
          sub.reconcile(item, value, { column: column + 2, inline: true });
          this.edits.push(...sub.edits);
        } catch {
          this.edits.push({ ...this.lineSpan(item.range![0], nodeEnd(item)), text: indentBlock(stringifyYaml([value]), column) });
        }
        insertAt = this.endOfLine(nodeEnd(item));
        return;
      }
      this.edits.push({
        start: insertAt,
        end: insertAt,
        text: this.ensureNewlineBefore(insertAt) + indentBlock(stringifyYaml([value]), column),
      });
    });
  }

  /** The text of item `index` with the comment and blank lines above it (back to the previous item). */
  private chunkText(items: Node[], index: number): string {
    const { start, end } = this.chunkOf(
      items,
      index,
      (i) => i.range![0],
      (i) => nodeEnd(i),
    );
    const text = this.text.slice(start, end);
    return text.endsWith('\n') ? text : `${text}\n`;
  }

  private chunkOf<T>(list: T[], index: number, startOf: (item: T) => number, endOf: (item: T) => number): Edit {
    const start = index === 0 ? this.lineStartOf(startOf(list[0]!)) : this.endOfLine(endOf(list[index - 1]!));
    return { start, end: this.endOfLine(endOf(list[index]!)), text: '' };
  }

  private lineSpan(start: number, end: number): { start: number; end: number } {
    return { start: this.lineStartOf(start), end: this.endOfLine(end) };
  }

  private lineStartOf(position: number): number {
    return this.text.lastIndexOf('\n', position - 1) + 1;
  }

  /** The start of the line after the one `position` is on (a position at a line start stays). */
  private endOfLine(position: number): number {
    if (position > 0 && this.text[position - 1] === '\n') return position;
    const newline = this.text.indexOf('\n', position);
    return newline === -1 ? this.text.length : newline + 1;
  }

  private ensureNewlineBefore(position: number): string {
    return position > 0 && this.text[position - 1] !== '\n' ? '\n' : '';
  }

  private columnOf(position: number): number {
    return position - this.lineStartOf(position);
  }

  /** The column of the `-` that starts a list item. */
  private dashColumn(item: Node): number {
    const start = item.range![0];
    const dash = this.text.lastIndexOf('-', start - 1);
    const lineStart = this.lineStartOf(start);
    return dash >= lineStart ? dash - lineStart : this.columnOf(start);
  }
}

function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let result = text;
  let limit = Infinity;
  for (const edit of sorted) {
    if (edit.end > limit) throw new Error('overlapping edits');
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
    limit = edit.start;
  }
  return result;
}

/** Where a node's text ends, including a comment on its last line. */
function nodeEnd(item: Node | Pair<Node, Node | null>): number {
  if ('key' in item) {
    const value = item.value;
    return value?.range ? value.range[2] : (item.key as Node).range![2];
  }
  return item.range![2];
}

// ---- scalars ----------------------------------------------------------------------------------

/** A new value for a scalar, in the scalar's own style when that style can hold it. */
function renderScalar(node: Scalar, next: unknown, column: number): string {
  const scalar = new Scalar(next);
  const multiline = typeof next === 'string' && next.includes('\n');
  const keep = node.type;
  if (typeof next === 'string') {
    if (keep === Scalar.BLOCK_LITERAL || keep === Scalar.BLOCK_FOLDED) scalar.type = multiline || next.length > 60 ? keep : Scalar.PLAIN;
    else if (keep === Scalar.QUOTE_SINGLE || keep === Scalar.QUOTE_DOUBLE) scalar.type = multiline ? Scalar.BLOCK_LITERAL : keep;
    else scalar.type = multiline ? Scalar.BLOCK_LITERAL : Scalar.PLAIN;
  }
  // Written as the value of a key at this column, then cut out: the library picks a safe style
  // (quotes where plain text would read as a number or a boolean) and indents block text.
  const wrapped = stringify(
    { k: scalar },
    { ...STRINGIFY_OPTIONS, lineWidth: keep === Scalar.BLOCK_FOLDED || keep === Scalar.PLAIN ? 100 : 0 },
  );
  let value = wrapped.slice('k: '.length).replace(/\n$/, '');
  if (value.startsWith('k:')) value = wrapped.slice('k:'.length).replace(/\n$/, '');
  const lines = value.split('\n');
  return [lines[0], ...lines.slice(1).map((line) => (line ? ' '.repeat(column) + line : line))].join('\n');
}

// ---- whole-document fallback ------------------------------------------------------------------

/** Writes the document with the new data through the library: comments it attached to nodes survive. */
function rewriteDocument(doc: Document, next: unknown): string {
  const replaced = mergeInto(doc, doc.contents as Node | null, next);
  doc.contents = replaced as never;
  return doc.toString(STRINGIFY_OPTIONS);
}

function mergeInto(doc: Document, node: Node | null, next: unknown): unknown {
  if (node && isMap(node) && isRecord(next)) {
    for (const pair of [...node.items]) {
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
      if (!Object.hasOwn(next, key) || next[key] === undefined) node.delete(key);
      else node.set(key, mergeInto(doc, pair.value as Node | null, next[key]));
    }
    for (const [key, value] of Object.entries(next)) if (value !== undefined && !node.has(key)) node.set(key, doc.createNode(value));
    return node;
  }
  if (node && isSeq(node) && Array.isArray(next) && node.items.length === next.length) {
    next.forEach((value, index) => node.set(index, mergeInto(doc, node.items[index] as Node | null, value)));
    return node;
  }
  if (node && isScalar(node) && !isCollection(next)) {
    node.value = next;
    return node;
  }
  return doc.createNode(next);
}

// ---- helpers ----------------------------------------------------------------------------------

/**
 * For each new item, the old item it is (deep-equal, each old item used once, the first unused one
 * first), or -1. Items are compared by a canonical key, so a long list takes time in proportion to its
 * length, not to its square.
 */
function matchItems(old: unknown[], next: unknown[]): number[] {
  const byKey = new Map<string, { indices: number[]; taken: number }>();
  old.forEach((value, index) => {
    const key = canonicalKey(value);
    const found = byKey.get(key);
    if (found) found.indices.push(index);
    else byKey.set(key, { indices: [index], taken: 0 });
  });
  return next.map((value) => {
    const found = byKey.get(canonicalKey(value));
    if (!found || found.taken >= found.indices.length) return -1;
    return found.indices[found.taken++]!;
  });
}

/** The same text for values `deepEqual` calls equal: object keys sorted, undefined properties left out. */
function canonicalKey(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isRecord(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .filter((key) => item[key] !== undefined)
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}

function indentBlock(text: string, column: number): string {
  const pad = ' '.repeat(column);
  return text
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
}

function isBlock(node: YAMLMap | YAMLSeq): boolean {
  return !node.flow && node.range !== undefined && node.range !== null;
}

function isCollectionLike(next: unknown, node: Node): boolean {
  return (isMap(node) && isRecord(next)) || (isSeq(node) && Array.isArray(next));
}

function isCollection(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => deepEqual(item, other[index]));
  }
  const left = Object.entries(a as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const right = Object.entries(b as Record<string, unknown>).filter(([, value]) => value !== undefined);
  return left.length === right.length && left.every(([key, value]) => deepEqual(value, (b as Record<string, unknown>)[key]));
}
