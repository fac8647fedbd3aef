// Every text the generated forms show comes from the schemas: labels, help, choices, block titles and
// descriptions. The people who use the studio never open the files behind it, so none of those
// texts may name a file path, a YAML word, an address pattern or a property name.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSchemaModel } from '../../../content-model/load/schema-files.ts';
import { jargonIn } from '../testing/plain-words.ts';
import { buildFormModel, type Field } from './form-model.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const model = buildFormModel(readSchemaModel(REPO_ROOT).files);

/** Every text a field and the fields inside it show, each named by where it is shown. */
function textsOf(field: Field, where: string): { where: string; text: string }[] {
  const here = `${where} › ${field.label}`;
  return [
    { where: `${here} (label)`, text: field.label },
    ...(field.help ? [{ where: `${here} (help)`, text: field.help }] : []),
    ...(field.choices ?? []).map((choice) => ({ where: `${here} (choice)`, text: choice.label })),
    ...(field.fields ?? []).flatMap((child) => textsOf(child, here)),
    ...(field.item ? textsOf(field.item, here) : []),
  ];
}

const texts = [
  ...(['page', 'site', 'article', 'roi'] as const).flatMap((kind) => textsOf(model[kind], kind)),
  ...model.blocks.flatMap((block) => [
    { where: `block ${block.title} (title)`, text: block.title },
    { where: `block ${block.title} (description)`, text: block.description },
    ...block.fields.flatMap((field) => textsOf(field, `block ${block.title}`)),
  ]),
];

describe('the words of the generated forms', () => {
  it('reads every text the forms show', () => {
    expect(texts.length).toBeGreaterThan(300);
  });

  it('names no file, YAML word, address pattern or property name', () => {
    const jargon = texts.flatMap(({ where, text }) =>
      jargonIn(text).map((found) => `${where}: ${found.what} "${found.found}" in "${text}"`),
    );
    expect(jargon).toEqual([]);
  });
});
