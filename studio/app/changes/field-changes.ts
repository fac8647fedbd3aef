// What a change to a content file changed, in the form's own words: each text before and after with
// the words that went and came, a block added, removed or moved by its name, a picture by its
// thumbnail and description, a switch as on or off, a choice by its label. Places are named as the
// form names them (field-trail.ts), so a marketer and a reviewer read "Home › Hero › Heading", never
// the file's lines; the lines stay one click away for whoever wants them. Pure: no DOM, no Node APIs.
import type { ContentKind } from '../../../content-model/kinds.ts';
import { changePlace, fieldTrail, type Segments } from '../fields/field-trail.ts';
import { blockTypeOf, type Field, type FormModel } from '../fields/form-model.ts';
import { itemName } from '../fields/item-name.ts';

/** A run of words of a text that stayed, went or came. */
export type WordPart = { kind: 'same' | 'added' | 'removed'; text: string };

/** A picture as the change list shows it: a thumbnail the studio can load (or none) and its description. */
export type Picture = { thumbnail: string | null; description: string };

/** One change, at a place named in the form's words ("Home › Hero › Heading"; empty: the whole file). */
export type FieldChange = { place: string } & (
  | { kind: 'text'; before: string; after: string; words: WordPart[] }
  | { kind: 'value'; before: string; after: string }
  | { kind: 'picture'; before: Picture | null; after: Picture | null }
  /** A block or a list item that came or went: `what` is the block's name or the item's ("Question 3"), `summary` its first text. */
  | { kind: 'added' | 'removed'; what: string; summary: string }
  /** A block or item moved, unchanged: its place in the list before and after, counted from 1. */
  | { kind: 'moved'; what: string; from: number; to: number }
  /** Something the form does not show changed: only the file's lines tell what. */
  | { kind: 'unshown' }
);

/** The label of an article's text, as its form shows it. */
const ARTICLE_TEXT = 'Article text';

/** What a text or choice that is not there reads as. */
const NOT_SET = 'not set';

/**
 * The changes from `before` to `after` (the data of one content file of `kind`; null where the file
 * does not exist or cannot be read), each at its place in the form. `name`: the page's name, put
 * before every place where a screen lists the changes of several files ("Home › Hero › Heading").
 */
export function describeChanges(model: FormModel, kind: ContentKind, before: unknown, after: unknown, name?: string): FieldChange[] {
  const changes: FieldChange[] = [];
  const prefix = (place: string) => (name ? [name, place].filter(Boolean).join(' › ') : place);
  const push = (change: FieldChange) => changes.push({ ...change, place: prefix(change.place) });
  if (isEqual(before, after)) return [];
  if (kind === 'article') {
    const part = (data: unknown, key: 'frontMatter' | 'body') => (isObject(data) ? data[key] : undefined);
    new Walk(model, model.article, part(before, 'frontMatter') ?? {}, part(after, 'frontMatter') ?? {}, push).run();
    const [was, now] = [part(before, 'body'), part(after, 'body')];
    if (!isEqual(was, now)) push(textChange(ARTICLE_TEXT, textOf(was), textOf(now)));
  } else {
    const root = { site: model.site, roi: model.roi, page: model.page }[kind];
    // A new file is everything it holds, added; a deleted one, everything it held, gone.
    new Walk(model, root, before ?? {}, after ?? {}, push).run();
  }
  if (changes.length === 0) push({ place: '', kind: 'unshown' });
  return changes;
}

/** One change as one sentence, for a screen reader's summary and for tests. */
export function changeSentence(change: FieldChange): string {
  const at = change.place ? `${change.place}: ` : '';
  switch (change.kind) {
    case 'text':
    case 'value':
      return `${at}${quoted(change.before)} became ${quoted(change.after)}`;
    case 'picture':
      return `${at}${pictureWords(change.before)} became ${pictureWords(change.after)}`;
    case 'added':
      return `${at}Added: ${change.what}${change.summary ? ` (${change.summary})` : ''}`;
    case 'removed':
      return `${at}Removed: ${change.what}${change.summary ? ` (${change.summary})` : ''}`;
    case 'moved':
      return `${at}Moved: ${change.what}, from place ${change.from} to place ${change.to}`;
    case 'unshown':
      return `${at}Something the form does not show changed; the file’s lines say what.`;
  }
}

function quoted(text: string): string {
  return text === '' ? 'empty' : `“${text}”`;
}

function pictureWords(picture: Picture | null): string {
  if (!picture) return 'no picture';
  return picture.description ? `a picture of “${picture.description}”` : 'a picture without a description';
}

/** One walk over a file's two versions: places are named from the version the change is in. */
class Walk {
  private readonly model: FormModel;
  private readonly root: Field;
  private readonly before: unknown;
  private readonly after: unknown;
  private readonly push: (change: FieldChange) => void;
  private readonly titles: { before: string[]; after: string[] };

  constructor(model: FormModel, root: Field, before: unknown, after: unknown, push: (change: FieldChange) => void) {
    this.model = model;
    this.root = root;
    this.before = before;
    this.after = after;
    this.push = push;
    this.titles = { before: this.blockTitles(before), after: this.blockTitles(after) };
  }

  run(): void {
    this.field(this.root, this.before, this.after, []);
  }

  /** The place of `segments`, read in the version `side`. */
  private place(segments: Segments, side: 'before' | 'after' = 'after'): string {
    return changePlace(fieldTrail(this.model, this.root, this[side], segments), this.titles[side]);
  }

  /** The names of a page's blocks in order, so two blocks of one name are told apart by number. */
  private blockTitles(data: unknown): string[] {
    const blocks = this.root.fields?.find((field) => field.kind === 'blocks');
    const list = blocks && isObject(data) ? data[blocks.key] : undefined;
    return Array.isArray(list) ? list.map((block) => this.blockTitle(block)) : [];
  }

  private blockTitle(block: unknown): string {
    const type = isObject(block) && typeof block.type === 'string' ? block.type : '';
    return blockTypeOf(this.model, type)?.title ?? 'Block';
  }

  private field(field: Field, was: unknown, now: unknown, at: (string | number)[]): void {
    if (isEqual(was, now) || field.constant !== undefined) return;
    const place = this.place(at);
    switch (field.kind) {
      case 'object':
        return this.object(field, was, now, at);
      case 'image':
        return this.picture(field, was, now, at);
      case 'blocks':
      case 'list':
        return this.list(field, was, now, at);
      case 'boolean':
        return this.push({ place, kind: 'value', before: onOff(was, field), after: onOff(now, field) });
      case 'choice':
        return this.push({ place, kind: 'value', before: choiceWords(was, field), after: choiceWords(now, field) });
      case 'number':
      case 'integer':
        return this.push({ place, kind: 'value', before: numberWords(was), after: numberWords(now) });
      case 'link':
        return this.push(textChange(place, linkWords(was), linkWords(now)));
      default:
        return this.push(textChange(place, textOf(was), textOf(now)));
    }
  }

  private object(field: Field, was: unknown, now: unknown, at: (string | number)[]): void {
    const before = isObject(was) ? was : {};
    const after = isObject(now) ? now : {};
    const fields = field.fields ?? [];
    let shown = false;
    for (const child of fields) {
      if (isEqual(before[child.key], after[child.key])) continue;
      shown = true;
      this.field(child, before[child.key], after[child.key], [...at, child.key]);
    }
    const known = new Set(fields.map((child) => child.key));
    const unknownChanged = [...new Set([...Object.keys(before), ...Object.keys(after)])].some(
      (key) => !known.has(key) && !isEqual(before[key], after[key]),
    );
    if (unknownChanged && !shown) this.push({ place: this.place(at), kind: 'unshown' });
  }

  /** A list's item as a field: a block is an object with its type's fields. */
  private itemField(list: Field, item: unknown): Field {
    if (list.kind === 'blocks') {
      const type = isObject(item) && typeof item.type === 'string' ? blockTypeOf(this.model, item.type) : undefined;
      if (type) return { key: '', label: type.title, required: true, kind: 'object', fields: type.fields };
    }
    return list.item ?? { key: '', label: itemName(list), required: true, kind: 'text' };
  }

  private picture(field: Field, was: unknown, now: unknown, at: (string | number)[]): void {
    const before = pictureOf(was);
    const after = pictureOf(now);
    // The same picture with new words: the words are the change.
    if (before && after && isObject(was) && isObject(now) && was.src === now.src) return this.object(field, was, now, at);
    this.push({ place: this.place(at), kind: 'picture', before, after });
  }

  private list(field: Field, was: unknown, now: unknown, at: (string | number)[]): void {
    const before = Array.isArray(was) ? was : [];
    const after = Array.isArray(now) ? now : [];
    const blocks = field.kind === 'blocks';
    const nameOf = (item: unknown, index: number) => (blocks ? this.blockTitle(item) : `${itemName(field)} ${index + 1}`);
    const sameKind = (a: unknown, b: unknown) => !blocks || this.blockTitle(a) === this.blockTitle(b);
    for (const step of matchItems(before, after, sameKind)) {
      switch (step.kind) {
        case 'changed':
          this.field(this.itemField(field, after[step.after]), before[step.before], after[step.after], [...at, step.after]);
          break;
        case 'added':
          this.push({
            place: this.place(at),
            kind: 'added',
            what: nameOf(after[step.after], step.after),
            summary: summaryOf(after[step.after]),
          });
          break;
        case 'removed':
          this.push({
            place: this.place(at, 'before'),
            kind: 'removed',
            what: nameOf(before[step.before], step.before),
            summary: summaryOf(before[step.before]),
          });
          break;
        case 'moved':
          this.push({
            place: this.place(at),
            kind: 'moved',
            what: nameOf(after[step.after], step.after),
            from: step.before + 1,
            to: step.after + 1,
          });
          break;
      }
    }
  }
}

type Step =
  | { kind: 'same' | 'changed' | 'moved'; before: number; after: number }
  | { kind: 'added'; after: number }
  | { kind: 'removed'; before: number };

/**
 * How the items of two versions of a list match: the longest run of identical items in order (so
 * an item inserted does not make every later one look changed), then identical items found at
 * another place (moved), then, between two matched items, an unmatched one of the same kind on each
 * side (changed, told field by field); the rest came or went. In the order of the new version.
 */
export function matchItems(before: readonly unknown[], after: readonly unknown[], sameKind: (a: unknown, b: unknown) => boolean): Step[] {
  const keysBefore = before.map(keyOf);
  const keysAfter = after.map(keyOf);
  const pairs = longestCommon(keysBefore, keysAfter);
  const matchedBefore = new Map<number, Step>();
  const steps: Step[] = [];
  const usedBefore = new Set(pairs.map(([b]) => b));
  const usedAfter = new Set(pairs.map(([, a]) => a));
  for (const [b, a] of pairs) matchedBefore.set(b, { kind: 'same', before: b, after: a });
  // Identical items at another place: moved.
  const moved: Step[] = [];
  for (let a = 0; a < after.length; a++) {
    if (usedAfter.has(a)) continue;
    const b = keysBefore.findIndex((key, index) => !usedBefore.has(index) && key === keysAfter[a]);
    if (b === -1) continue;
    usedBefore.add(b);
    usedAfter.add(a);
    moved.push({ kind: 'moved', before: b, after: a });
  }
  // Between anchors, pair what is left on each side by kind: a changed item.
  const anchors = [...pairs, [before.length, after.length] as const];
  let fromBefore = 0;
  let fromAfter = 0;
  for (const [anchorBefore, anchorAfter] of anchors) {
    const gapBefore = range(fromBefore, anchorBefore).filter((b) => !usedBefore.has(b));
    const gapAfter = range(fromAfter, anchorAfter).filter((a) => !usedAfter.has(a));
    for (const b of gapBefore) {
      const a = gapAfter.find((candidate) => !usedAfter.has(candidate) && sameKind(before[b], after[candidate]));
      if (a === undefined) {
        steps.push({ kind: 'removed', before: b });
        continue;
      }
      usedAfter.add(a);
      usedBefore.add(b);
      steps.push({ kind: 'changed', before: b, after: a });
    }
    for (const a of gapAfter) if (!usedAfter.has(a)) steps.push({ kind: 'added', after: a });
    fromBefore = anchorBefore + 1;
    fromAfter = anchorAfter + 1;
  }
  const order = (step: Step) => ('after' in step ? step.after : step.before - 0.5);
  return [...steps, ...moved].sort((x, y) => order(x) - order(y));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, index) => from + index);
}

/** Index pairs of a longest common subsequence of two lists of keys. */
function longestCommon(a: readonly string[], b: readonly string[]): (readonly [number, number])[] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const pairs: (readonly [number, number])[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** The most pairs of words compared one by one; a longer changed middle of a text is shown as gone and come whole. */
const MAX_WORD_PAIRS = 250_000;

/** A text's change with the words that went and came. */
function textChange(place: string, before: string, after: string): FieldChange {
  return { place, kind: 'text', before, after, words: wordDiff(before, after) };
}

/**
 * The words of `before` and `after`, each run marked as kept, removed or added. Spaces go with the
 * words around them, and a space between two changed words joins them, so "a b" → "x y" reads as
 * "a b" removed and "x y" added rather than word by word; a text mostly rewritten is shown whole.
 */
export function wordDiff(before: string, after: string): WordPart[] {
  const a = tokens(before);
  const b = tokens(after);
  // The words both versions start and end with are kept as they are; only the middle is compared
  // word by word, so one word changed in a long text costs little.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const middleA = a.slice(start, a.length - end);
  const middleB = b.slice(start, b.length - end);
  const raw: WordPart[] = a.slice(0, start).map((text) => ({ kind: 'same' as const, text }));
  if (middleA.length * middleB.length > MAX_WORD_PAIRS) {
    raw.push({ kind: 'removed', text: middleA.join('') }, { kind: 'added', text: middleB.join('') });
  } else {
    let i = 0;
    let j = 0;
    for (const [pi, pj] of [...longestCommon(middleA, middleB), [middleA.length, middleB.length] as const]) {
      for (; i < pi; i++) raw.push({ kind: 'removed', text: middleA[i]! });
      for (; j < pj; j++) raw.push({ kind: 'added', text: middleB[j]! });
      if (pi < middleA.length) raw.push({ kind: 'same', text: middleA[pi]! });
      i = pi + 1;
      j = pj + 1;
    }
  }
  raw.push(...a.slice(a.length - end).map((text) => ({ kind: 'same' as const, text })));
  // A text rewritten but for a few common words ("with", "AI") reads best as the old text gone and
  // the new one come: word by word only while at least half the words stay.
  const wordsKept = raw.filter((part) => part.kind === 'same' && /\S/.test(part.text)).length;
  if (wordsKept * 2 < Math.max(wordCount(a), wordCount(b))) {
    return [
      { kind: 'removed' as const, text: before },
      { kind: 'added' as const, text: after },
    ].filter((part) => part.text !== '');
  }
  // Runs of changes (with the spaces inside them) become what went, then what came.
  const parts: WordPart[] = [];
  const add = (kind: WordPart['kind'], text: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += text;
    else if (text) parts.push({ kind, text });
  };
  let removed = '';
  let added = '';
  const flush = () => {
    add('removed', removed);
    add('added', added);
    removed = added = '';
  };
  raw.forEach((part, index) => {
    const inside =
      part.kind === 'same' &&
      /^\s+$/.test(part.text) &&
      raw[index - 1]?.kind !== 'same' &&
      raw[index + 1] &&
      raw[index + 1]!.kind !== 'same';
    if (part.kind === 'removed' || inside) removed += part.text;
    if (part.kind === 'added' || inside) added += part.text;
    if (part.kind === 'same' && !inside) {
      flush();
      add('same', part.text);
    }
  });
  flush();
  return parts;
}

function wordCount(tokens: readonly string[]): number {
  return tokens.filter((token) => /\S/.test(token)).length;
}

function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter(Boolean);
}

function keyOf(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

function isEqual(a: unknown, b: unknown): boolean {
  return keyOf(a) === keyOf(b);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : String(value as number);
}

/** The booking page is said by name; any other link by its address. */
function linkWords(value: unknown): string {
  return value === 'booking' ? 'the booking page' : textOf(value);
}

function onOff(value: unknown, field: Field): string {
  return (value ?? field.default ?? false) === true ? 'on' : 'off';
}

function choiceWords(value: unknown, field: Field): string {
  const chosen = value ?? field.default;
  if (chosen === undefined || chosen === null) return NOT_SET;
  return field.choices?.find((choice) => choice.value === chosen)?.label ?? textOf(chosen);
}

function numberWords(value: unknown): string {
  return value === undefined || value === null ? NOT_SET : textOf(value);
}

/** Where the studio shows a picture from: only the site's own pictures, which it serves at /images/. */
function pictureOf(value: unknown): Picture | null {
  if (!isObject(value)) return null;
  const src = typeof value.src === 'string' ? value.src : '';
  return {
    thumbnail: /^\/images\/[\w./-]+$/.test(src) && !src.includes('..') ? src : null,
    description: typeof value.alt === 'string' ? value.alt : '',
  };
}

/** The first text an item holds, shortened: how a person recognises a block or item that came or went. */
function summaryOf(value: unknown): string {
  const text = firstText(value);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function firstText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstText(item);
      if (found) return found;
    }
  }
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      // Not words a person wrote: which block it is, how it looks, where it links, which picture.
      if (['type', 'variant', 'tone', 'href', 'src', 'icon', 'id'].includes(key)) continue;
      const found = firstText(item);
      if (found) return found;
    }
  }
  return '';
}
