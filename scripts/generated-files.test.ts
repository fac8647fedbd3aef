import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockRegistry } from '../renderer/block-registry.ts';
import { BLOCK_TYPES } from '../generated/content-types.ts';
import { renderContentGuide } from './generate-content-guide.ts';
import { renderContentTypes } from './generate-content-types.ts';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import addContentKeywords from '../content-model/schema-keywords.cjs';
import { loadContent } from '../content-model/load/load-content.ts';
import {
  BLOCK_MODULES,
  PAGE_SCHEMA,
  PAGE_SCHEMA_BUNDLE,
  renderBlockModules,
  renderPageSchema,
  renderPageSchemaBundle,
} from './generate-blocks.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
import { readSchemaModel } from '../content-model/load/schema-files.ts';

const root = path.resolve(import.meta.dirname, '..');
const model = readSchemaModel(root);
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('files generated from the schemas', () => {
  it('generated/content-types.ts is current (run `npm run generate` after changing a schema)', () => {
    expect(read('generated/content-types.ts')).toBe(renderContentTypes(model));
  });

  it('the page schema lists the block folders (run `npm run generate` after adding or removing one)', () => {
    expect(read(PAGE_SCHEMA)).toBe(renderPageSchema(model));
  });

  it('generated/block-modules.ts is current (run `npm run generate` after adding a block or changing "interactive")', () => {
    expect(read(BLOCK_MODULES)).toBe(renderBlockModules(model, root));
  });

  it('generated/page.schema.json is current, needs no other file, and judges pages as the build does', () => {
    expect(read(PAGE_SCHEMA_BUNDLE)).toBe(renderPageSchemaBundle(model));
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    addContentKeywords(ajv);
    const validate = ajv.compile(JSON.parse(read(PAGE_SCHEMA_BUNDLE)) as object);
    for (const page of loadContent({ root }).pages) expect(validate(page.page), page.file).toBe(true);
    const home = loadContent({ root }).pages.find((page) => page.name === 'home')!.page;
    const mistaken = { ...home, blocks: [{ ...home.blocks[0], headng: 'Typo' }, ...home.blocks.slice(1)] };
    expect(validate(mistaken)).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({ keyword: 'additionalProperties', params: { additionalProperty: 'headng' } }),
    );
  });

  it('generated/content-guide.md is current (run `npm run generate` after changing a schema)', () => {
    expect(read('generated/content-guide.md')).toBe(renderContentGuide(model));
  });

  it('the guide documents every block type with its properties and an example', () => {
    const guide = read('generated/content-guide.md');
    for (const { type, schema } of model.blocks) {
      expect(guide).toContain(`### Block: ${type}`);
      for (const property of Object.keys(schema.properties ?? {})) expect(guide).toContain(`| \`${property}\` |`);
    }
    expect(guide.match(/```yaml/g)?.length).toBeGreaterThanOrEqual(model.blocks.length);
  });
});

describe('schemas', () => {
  it('every property of every schema has a description and every block an example', () => {
    const missing: string[] = [];
    const visit = (schema: Record<string, unknown>, where: string) => {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      for (const [name, prop] of Object.entries(properties)) {
        if (!prop.description && !prop.$ref) missing.push(`${where}.${name}`);
        visit(prop, `${where}.${name}`);
        if (prop.items) visit(prop.items as Record<string, unknown>, `${where}.${name}[]`);
      }
    };
    for (const [file, schema] of Object.entries(model.files)) visit(schema as Record<string, unknown>, file);
    for (const [name, def] of Object.entries(model.common.definitions ?? {})) {
      if (!def.description) missing.push(`common.${name}`);
      visit(def as Record<string, unknown>, `common.${name}`);
    }
    expect(missing).toEqual([]);
    for (const { file, schema } of model.blocks) expect(schema.examples?.length, file).toBeGreaterThan(0);
  });

  it('the page schema lists every block schema, and the registry has a component for each', () => {
    const page = JSON.parse(read('schema/page.schema.json')) as {
      properties: { blocks: { items: { properties: { type: { enum: string[] } }; allOf: { then: { $ref: string } }[] } } };
    };
    const types = model.blocks.map((b) => b.type).sort();
    expect([...page.properties.blocks.items.properties.type.enum].sort()).toEqual(types);
    expect(page.properties.blocks.items.allOf.map((c) => c.then.$ref).sort()).toEqual(model.blocks.map((b) => b.file).sort());
    expect(Object.keys(blockRegistry).sort()).toEqual(types);
    expect([...BLOCK_TYPES].sort()).toEqual(types);
  });
});
