// Where a value sits in a content file, in the form's own words: the labels a person sees on the way
// to the field ("Block 6, Text section › Picture › Description", "Hero › Heading"). One walk of the
// form model along a list of keys and list positions, so the change list, the list of mistakes and
// the message beside a field all name a place the same way. Pure: no DOM, no Node APIs.
import type { Field, FormModel } from './form-model.ts';
import { blockTypeOf } from './form-model.ts';
import { itemName } from './item-name.ts';

export type Segments = readonly (string | number)[];

/** One step of the way to a field, as the form shows it. */
export type Crumb =
  | { kind: 'field'; label: string }
  /** A block of a page: its number as the form counts it (from 1) and its name in the palette. */
  | { kind: 'block'; number: number; title: string }
  /** An item of a list ("Question 2"): its number from 1 and what one item is called. */
  | { kind: 'item'; number: number; name: string };

/**
 * The crumbs from the file's root to `segments`, reading `data` for what each block is. A segment the
 * model does not know (a property the schema lacks, a block of an unknown type) ends the walk: the
 * crumbs found so far are returned, so a place is always named as closely as the form can.
 */
export function fieldTrail(model: FormModel, root: Field, data: unknown, segments: Segments): Crumb[] {
  const crumbs: Crumb[] = [];
  let field: Field | undefined = root;
  let value: unknown = data;
  for (const segment of segments) {
    if (field === undefined) break;
    if (typeof segment === 'number') {
      const item: unknown = Array.isArray(value) ? value[segment] : undefined;
      if (field.kind === 'blocks') {
        const type = isObject(item) && typeof item.type === 'string' ? item.type : undefined;
        const block = type === undefined ? undefined : blockTypeOf(model, type);
        crumbs.push({ kind: 'block', number: segment + 1, title: block?.title ?? 'Block' });
        field = block ? { key: '', label: block.title, required: true, kind: 'object', fields: block.fields } : undefined;
      } else if (field.kind === 'list' && field.item) {
        crumbs.push({ kind: 'item', number: segment + 1, name: itemName(field) });
        field = field.item;
      } else {
        break;
      }
      value = item;
      continue;
    }
    const child: Field | undefined = field.fields?.find((candidate) => candidate.key === segment);
    if (child === undefined) break;
    // A page is its list of blocks: the list itself is not a step a person sees on the way.
    if (child.kind !== 'blocks') crumbs.push({ kind: 'field', label: child.label });
    field = child;
    value = isObject(value) ? value[segment] : undefined;
  }
  return crumbs;
}

/**
 * A place for a mistake: blocks by number and name, so two blocks of one kind are told apart
 * ("Block 6, Text section › Picture › Description"). Empty for the whole file.
 */
export function mistakePlace(crumbs: readonly Crumb[]): string {
  return crumbs.map(crumbWords).join(' › ');
}

/**
 * A place for a change: blocks by name only, as a person says it ("Hero › Heading"), unless the page
 * holds more than one block of that name, when its number tells them apart ("Text section 6 › Picture").
 */
export function changePlace(crumbs: readonly Crumb[], blockTitles: readonly string[] = []): string {
  return crumbs
    .map((crumb) => {
      if (crumb.kind !== 'block') return crumbWords(crumb);
      const twins = blockTitles.filter((title) => title === crumb.title).length;
      return twins > 1 ? `${crumb.title} ${crumb.number}` : crumb.title;
    })
    .join(' › ');
}

function crumbWords(crumb: Crumb): string {
  switch (crumb.kind) {
    case 'field':
      return crumb.label;
    case 'block':
      return `Block ${crumb.number}, ${crumb.title}`;
    case 'item':
      return `${crumb.name} ${crumb.number}`;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
