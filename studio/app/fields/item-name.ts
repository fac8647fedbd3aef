import type { Field } from './form-model.ts';

/** What one item is called ("Questions" → "Question"): in headings, button names and announcements. */
export function itemName(field: Field): string {
  if (field.kind === 'blocks') return 'Block';
  const label = field.label.replace(/ies$/, 'y').replace(/s$/, '');
  return label || 'Item';
}
