import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pageSchemaWithBlocks } from '../../../content-model/block-list.ts';
import { readSchemaModel } from '../../../content-model/load/schema-files.ts';
import addContentKeywords from '../../../content-model/schema-keywords.cjs';
import { itemSchemaOf } from '../../../content-model/schema.ts';
import { isRecord } from '../../../content-model/values.ts';
import {
  blockTypeOf,
  buildFormModel,
  choiceLabel,
  emptyValue,
  fieldLabel,
  startingBlock,
  type Field,
  type FormModel,
  type JsonSchema,
} from './form-model.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const schemas = readSchemaModel(REPO_ROOT).files;
const model = buildFormModel(schemas);
const blockFiles = Object.keys(schemas).filter((file) => file.startsWith('block-'));

/** The same Ajv set-up as the build's content check: strict, every schema added under its file name. */
function createAjv(files: Record<string, JsonSchema>): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  addContentKeywords(ajv);
  for (const [file, schema] of Object.entries(files)) ajv.addSchema(schema as object, file);
  return ajv;
}

function validationErrors(ajv: Ajv, file: string, data: unknown): ErrorObject[] {
  const validate = ajv.getSchema(file);
  if (!validate) throw new Error(`${file} is not loaded`);
  return validate(data) ? [] : (validate.errors ?? []);
}

/** The field at a path such as "categories[].items[].answer" ("[]" steps into a list's item). */
function fieldAt(root: Field | Field[], at: string): Field {
  let fields: Field[] = Array.isArray(root) ? root : (root.fields ?? []);
  let field: Field | undefined;
  for (const step of at.split('.')) {
    const [name = '', ...listSteps] = step.split('[]');
    field = fields.find((f) => f.key === name);
    if (!field) throw new Error(`no field ${name} in ${at}`);
    for (let i = 0; i < listSteps.length; i++) field = field.item!;
    fields = field.fields ?? [];
  }
  return field!;
}

function blockFields(type: string): Field[] {
  const block = blockTypeOf(model, type);
  if (!block) throw new Error(`no block ${type}`);
  return block.fields;
}

const clone = <T>(value: T): T => structuredClone(value);

type Change = (files: Record<string, JsonSchema>) => void;
const hero = (files: Record<string, JsonSchema>) => files['block-hero.schema.json']!;

describe('buildFormModel: every schema becomes a form', () => {
  it('maps every schema file in schema/ with no error', () => {
    expect(Object.keys(schemas).length).toBeGreaterThan(20);
    expect(() => buildFormModel(schemas)).not.toThrow();
    expect([model.page, model.site, model.article, model.roi].map((root) => [root.kind, root.label])).toEqual([
      ['object', schemas['page.schema.json']!.title],
      ['object', schemas['site.schema.json']!.title],
      ['object', schemas['blog-post.schema.json']!.title],
      ['object', schemas['roi.schema.json']!.title],
    ]);
  });

  it.each(blockFiles)('puts %s in the palette with its title and description', (file) => {
    const schema = schemas[file]!;
    const block = blockTypeOf(model, file.replace(/^block-|\.schema\.json$/g, ''));
    expect(block).toMatchObject({ title: schema.title, description: schema.description });
    expect(block!.fields.map((f) => f.key)).toEqual(Object.keys(schema.properties!));
  });

  it('has exactly one palette entry per block schema file', () => {
    expect(model.blocks.map((b) => `block-${b.type}.schema.json`).sort()).toEqual([...blockFiles].sort());
  });

  it('orders the palette as the page schema lists the block types', () => {
    expect(model.blocks.map((b) => b.type)).toEqual(itemSchemaOf(schemas['page.schema.json']!.properties!.blocks!)!.properties!.type!.enum);
  });

  it("gives the page's blocks the kind 'blocks', their types labelled with the block titles", () => {
    const blocks = fieldAt(model.page, 'blocks');
    expect(blocks).toMatchObject({ kind: 'blocks', required: true, constraints: { minItems: 1 } });
    expect(fieldAt(blocks.item!.fields!, 'type').choices).toContainEqual({ value: 'card-grid', label: 'Card grid' });
    expect(fieldAt(blocks.item!.fields!, 'type').choices).toContainEqual({ value: 'faq-list', label: 'Questions and answers' });
  });
});

describe('buildFormModel: how properties map to fields', () => {
  it.each([
    {
      name: 'the FAQ answer is Markdown',
      type: 'faq-list',
      at: 'categories[].items[].answer',
      expected: { kind: 'markdown', required: true },
    },
    {
      name: 'Markdown wins over a longer description',
      type: 'legal-sections',
      at: 'intro',
      expected: { kind: 'markdown', required: false },
    },
    { name: 'hero buttons are a list', type: 'hero', at: 'actions', expected: { kind: 'list', constraints: { maxItems: 3 } } },
    { name: 'a button is an object', type: 'hero', at: 'actions[]', expected: { kind: 'object', key: '', required: true } },
    { name: "a button's target is a link", type: 'hero', at: 'actions[].href', expected: { kind: 'link', required: true } },
    { name: "a button's text is required", type: 'hero', at: 'actions[].label', expected: { kind: 'text', required: true } },
    {
      name: "a button's look is a choice with readable labels and its default",
      type: 'hero',
      at: 'actions[].variant',
      expected: {
        kind: 'choice',
        required: false,
        default: 'primary',
        choices: [
          { value: 'primary', label: 'Primary' },
          { value: 'secondary', label: 'Secondary' },
          { value: 'ghost', label: 'Ghost' },
        ],
      },
    },
    {
      name: 'a yes/no is a boolean',
      type: 'hero',
      at: 'actions[].fullPageLoad',
      expected: { kind: 'boolean', label: 'Reload the whole page', section: 'advanced' },
    },
    { name: "a block's type is a constant", type: 'hero', at: 'type', expected: { kind: 'text', constant: 'hero', required: true } },
    { name: 'a picture is an image with its sub-fields', type: 'team', at: 'members[].image', expected: { kind: 'image', required: true } },
    { name: "a picture's path keeps its pattern", type: 'team', at: 'members[].image.src', expected: { kind: 'text' } },
    { name: 'a text without a ui hint is one line', type: 'hero', at: 'heading', expected: { kind: 'text' } },
    { name: "the hero's sub-line asks for a text area", type: 'hero', at: 'text', expected: { kind: 'multiline' } },
    { name: 'a quote asks for a text area', type: 'testimonials', at: 'items[].quote', expected: { kind: 'multiline' } },
    { name: "a card's text asks for a text area", type: 'card-grid', at: 'cards[].text', expected: { kind: 'multiline' } },
    { name: 'a shared intro asks for a text area: multiline', type: 'stats', at: 'intro', expected: { kind: 'multiline' } },
    { name: 'numeric choices keep numbers', type: 'card-grid', at: 'columns', expected: { kind: 'choice', default: 3 } },
    { name: 'whole numbers are integers with bounds', type: 'countdown', at: 'start.minutes', expected: { kind: 'integer' } },
    { name: 'amounts are numbers', type: 'pricing-table', at: 'plans[].priceUsd', expected: { kind: 'number', label: 'Price (USD)' } },
    { name: 'lists of texts have text items', type: 'pricing-table', at: 'plans[].features[]', expected: { kind: 'text', key: '' } },
    { name: 'an e-mail is text with its format', type: 'legal-sections', at: 'contacts[].email', expected: { kind: 'text' } },
    { name: 'icons are choices', type: 'callout', at: 'icon', expected: { kind: 'choice', required: false } },
  ])('$name', ({ type, at, expected }) => {
    expect(fieldAt(blockFields(type), at)).toMatchObject(expected);
  });

  it.each([
    {
      name: 'a page address is text with its pattern',
      root: 'page',
      at: 'path',
      expected: { kind: 'text', constraints: { pattern: expect.any(String) } },
    },
    {
      name: 'the search description keeps its length limits',
      root: 'page',
      at: 'description',
      expected: { kind: 'multiline', section: 'settings', constraints: { minLength: 50, maxLength: 170 } },
    },
    { name: 'a date asks for a date picker', root: 'article', at: 'date', expected: { kind: 'date', required: true } },
    { name: 'an excerpt asks for a text area', root: 'article', at: 'excerpt', expected: { kind: 'multiline' } },
    { name: 'a title without a hint is one line', root: 'article', at: 'title', expected: { kind: 'text' } },
    {
      name: "an article's picture is chosen from the library, keeping its pattern",
      root: 'article',
      at: 'image',
      expected: { kind: 'picture', label: 'Picture', constraints: { minLength: 1 } },
    },
    {
      name: 'an optional flag is an optional boolean',
      root: 'article',
      at: 'draft',
      expected: { kind: 'boolean', required: false, default: false },
    },
    { name: 'the footer text asks for a text area', root: 'site', at: 'footer.text', expected: { kind: 'multiline' } },
    {
      name: "a schema's title wins over the property name",
      root: 'site',
      at: 'bookingUrl',
      expected: { label: 'Booking page address', kind: 'text' },
    },
    { name: 'nested lists of links', root: 'site', at: 'footer.groups[].links[].href', expected: { kind: 'link' } },
    { name: 'an e-mail format is kept', root: 'site', at: 'contact.email', expected: { constraints: { format: 'email' } } },
    {
      name: 'an exclusive minimum is kept',
      root: 'roi',
      at: 'investmentUsd',
      expected: { kind: 'number', constraints: { exclusiveMinimum: 0 } },
    },
    { name: 'snake_case keys read as words', root: 'roi', at: 'upliftRateByIndustry.real_estate', expected: { label: 'Real estate' } },
    { name: 'digits read as words', root: 'roi', at: 'weeklyHoursSavedByManualHours.from5To10', expected: { label: 'From 5 to 10' } },
  ] as const)('$name', ({ root, at, expected }) => {
    expect(fieldAt(model[root], at)).toMatchObject(expected);
  });

  it('keeps the sub-fields of a picture so the picker can show alt text', () => {
    expect(fieldAt(blockFields('rich-text'), 'image').fields!.map((f) => [f.key, f.required])).toEqual([
      ['src', true],
      ['alt', true],
      ['width', false],
      ['height', false],
    ]);
  });

  it('gives a button its properties in schema order', () => {
    expect(fieldAt(blockFields('hero'), 'actions[]').fields!.map((f) => f.key)).toEqual([
      'label',
      'href',
      'variant',
      'fullPageLoad',
      'icon',
    ]);
  });

  it.each(blockFiles)('marks required fields of %s exactly as the schema does', (file) => {
    const schema = schemas[file]!;
    const fields = blockTypeOf(model, String(schema.properties!.type!.const))!.fields;
    expect(fields.filter((f) => f.required).map((f) => f.key)).toEqual(
      Object.keys(schema.properties!).filter((k) => schema.required!.includes(k)),
    );
  });

  it('marks required fields inside lists as the schema does', () => {
    expect(fieldAt(blockFields('testimonials'), 'items[]').fields!.map((f) => [f.key, f.required])).toEqual([
      ['name', true],
      ['role', true],
      ['company', true],
      ['image', false],
      ['quote', true],
      ['rating', true],
      ['useCase', false],
      ['result', false],
    ]);
  });

  it.each([
    { name: "a property's own description", type: 'faq-list', at: 'categories[].items[].answer', help: 'The answer (Markdown).' },
    {
      name: 'the shared definition when the property has none',
      type: 'hero',
      at: 'eyebrow',
      help: 'A short label shown above the heading.',
    },
    {
      name: "the property's description over the definition's",
      type: 'hero',
      at: 'heading',
      help: "The headline (the page's main heading).",
    },
    { name: "a list item's description", type: 'stats', at: 'items[]', help: 'One number.' },
  ])('takes help text from $name', ({ type, at, help }) => {
    expect(fieldAt(blockFields(type), at).help).toBe(help);
  });

  it('uses the referencing description for the site header button', () => {
    expect(fieldAt(model.site, 'headerAction')).toMatchObject({ kind: 'object', help: 'The button at the right of the top navigation.' });
    expect(fieldAt(blockFields('not-found'), 'action').help).toBe('A button or link.');
  });

  it('keeps examples and defaults', () => {
    expect(fieldAt(blockFields('legal-sections'), 'lastUpdated').example).toBe('January 15, 2024');
    expect(fieldAt(blockFields('article'), 'backLabel').default).toBe('Back to Blog');
  });

  it('leaves out what the schema does not say', () => {
    expect(Object.keys(fieldAt(blockFields('hero'), 'note')).sort()).toEqual(['constraints', 'help', 'key', 'kind', 'label', 'required']);
  });
});

describe('labels', () => {
  it.each([
    ['real_estate', 'Real Estate'],
    ['trending-up', 'Trending Up'],
    ['primary', 'Primary'],
    ['cta', 'CTA'],
    ['faq-list', 'FAQ List'],
    [3, '3'],
  ])('labels the choice %s as "%s"', (value, label) => {
    expect(choiceLabel(value)).toBe(label);
  });

  it.each([
    ['fullPageLoad', 'Full page load'],
    ['ctaHref', 'CTA link'],
    ['bookingUrl', 'Booking URL'],
    ['seoTitle', 'SEO title'],
    ['faqItems', 'FAQ items'],
    ['roiResult', 'ROI result'],
    ['id', 'ID'],
    ['priceUsd', 'Price (USD)'],
    ['imageAlt', 'Image description'],
    ['lessThan5', 'Less than 5'],
    ['real_estate', 'Real estate'],
    ['noindex', 'Hide from search engines'],
  ])('labels the property %s as "%s"', (key, label) => {
    expect(fieldLabel(key)).toBe(label);
  });

  it('labels the icon enum readably', () => {
    expect(fieldAt(blockFields('callout'), 'icon').choices).toContainEqual({ value: 'map-pin', label: 'Map Pin' });
  });
});

describe('a block type added to schema/ needs no studio code', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const logoStrip = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'block-logo-strip.schema.json',
    title: 'Logo strip',
    description: 'A row of client logos.',
    type: 'object',
    properties: {
      type: { const: 'logo-strip', description: 'Always "logo-strip".' },
      heading: { $ref: 'common.schema.json#/definitions/heading' },
      logos: {
        type: 'array',
        description: 'The logos, in order.',
        items: { $ref: 'common.schema.json#/definitions/image' },
        minItems: 2,
      },
      grayscale: { type: 'boolean', description: 'Show the logos in grey.', default: true },
    },
    required: ['type', 'logos'],
    additionalProperties: false,
    examples: [
      {
        type: 'logo-strip',
        heading: 'Trusted by',
        logos: [
          { src: '/images/logos/a.svg', alt: 'Client A' },
          { src: '/images/logos/b.svg', alt: 'Client B' },
        ],
      },
    ],
  };

  /** A copy of the project's schemas with one more block folder, its page schema regenerated as `npm run generate` does. */
  function projectWithLogoStrip(schema: object = logoStrip): string {
    dir = mkdtempSync(path.join(tmpdir(), 'form-model-'));
    cpSync(path.join(REPO_ROOT, 'schema'), path.join(dir, 'schema'), { recursive: true });
    for (const { type } of readSchemaModel(REPO_ROOT).blocks) {
      mkdirSync(path.join(dir, 'blocks', type), { recursive: true });
      cpSync(path.join(REPO_ROOT, 'blocks', type, 'schema.json'), path.join(dir, 'blocks', type, 'schema.json'));
    }
    mkdirSync(path.join(dir, 'blocks', 'logo-strip'));
    writeFileSync(path.join(dir, 'blocks', 'logo-strip', 'schema.json'), JSON.stringify(schema, null, 2));
    const model = readSchemaModel(dir);
    const page = pageSchemaWithBlocks(
      model.files['page.schema.json']!,
      model.blocks.map((b) => b.type),
    );
    writeFileSync(path.join(dir, 'schema', 'page.schema.json'), JSON.stringify(page, null, 2));
    return dir;
  }

  it('shows the new type in the palette with its fields and its example as starting content', () => {
    const files = readSchemaModel(projectWithLogoStrip()).files;
    const extended = buildFormModel(files);
    const block = blockTypeOf(extended, 'logo-strip');
    expect(block).toMatchObject({ title: 'Logo strip', description: 'A row of client logos.' });
    expect(block!.fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['type', 'text', true],
      ['heading', 'text', false],
      ['logos', 'list', true],
      ['grayscale', 'boolean', false],
    ]);
    expect(fieldAt(block!.fields, 'logos[]').kind).toBe('image');
    expect(extended.blocks.at(-1)!.type).toBe('logo-strip');
    expect(fieldAt(fieldAt(extended.page, 'blocks').item!.fields!, 'type').choices).toContainEqual({
      value: 'logo-strip',
      label: 'Logo strip',
    });

    const started = startingBlock(extended, 'logo-strip');
    expect(started).toEqual(logoStrip.examples[0]);
    const page = {
      path: '/clients',
      title: 'Clients',
      description: 'The companies that trust us with their AI projects, big and small.',
      blocks: [started],
    };
    expect(validationErrors(createAjv(files), 'page.schema.json', page)).toEqual([]);
  });

  it('starts with the least valid content when the new type has no example', () => {
    const extended = buildFormModel(readSchemaModel(projectWithLogoStrip({ ...logoStrip, examples: undefined })).files);
    expect(startingBlock(extended, 'logo-strip')).toEqual({
      type: 'logo-strip',
      logos: [
        { src: '', alt: '' },
        { src: '', alt: '' },
      ],
    });
  });
});

describe('startingBlock', () => {
  const ajv = createAjv(schemas);

  it.each(model.blocks.map((b) => b.type))('starts a %s block that its schema accepts', (type) => {
    const block = startingBlock(model, type);
    expect(block.type).toBe(type);
    expect(Object.keys(block)[0]).toBe('type');
    expect(validationErrors(ajv, `block-${type}.schema.json`, block)).toEqual([]);
  });

  it('starts blocks that a page accepts, one of each type', () => {
    const page = {
      path: '/every-block',
      title: 'Every block',
      description: 'A page with one block of every type, as the palette adds them to a page.',
      blocks: model.blocks.map((b) => startingBlock(model, b.type)),
    };
    expect(validationErrors(ajv, 'page.schema.json', page)).toEqual([]);
  });

  it('returns a fresh copy each time', () => {
    const first = startingBlock(model, 'faq-list') as { categories: { name: string }[] };
    first.categories[0]!.name = 'Changed';
    expect(startingBlock(model, 'faq-list')).toEqual(blockTypeOf(model, 'faq-list')!.example);
    expect((startingBlock(model, 'faq-list') as typeof first).categories[0]!.name).toBe('Getting Started');
  });

  // Without examples a block starts from its required fields: only the texts an editor must still
  // type are missing (empty where a length, pattern or format is required), never structure.
  it.each(blockFiles)('starts %s with only empty texts left to fill when it has no example', (file) => {
    const withoutExamples = Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => [name, name.startsWith('block-') ? { ...schema, examples: undefined } : schema]),
    );
    const bare = buildFormModel(withoutExamples);
    const type = file.replace(/^block-|\.schema\.json$/g, '');
    const errors = validationErrors(ajv, file, startingBlock(bare, type));
    expect(errors.filter((e) => !['minLength', 'pattern', 'format'].includes(e.keyword))).toEqual([]);
  });

  it('refuses a type no schema defines', () => {
    expect(() => startingBlock(model, 'carousel')).toThrow(/"carousel" is not a block type/);
  });
});

describe('emptyValue: what "Add" puts in a list', () => {
  it.each([
    { name: 'a button: its required text and link', type: 'hero', at: 'actions[]', value: { label: '', href: '' } },
    { name: 'a number with its label', type: 'stats', at: 'items[]', value: { value: '', label: '' } },
    {
      name: 'a question group with the one question it needs',
      type: 'faq-list',
      at: 'categories[]',
      value: { name: '', items: [{ question: '', answer: '' }] },
    },
    {
      name: 'a plan with a feature, a price and a button',
      type: 'pricing-table',
      at: 'plans[]',
      value: { name: '', priceUsd: 0, description: '', features: [''], action: { label: '', href: '' } },
    },
    {
      name: 'a testimonial with the lowest rating allowed',
      type: 'testimonials',
      at: 'items[]',
      value: { name: '', role: '', company: '', quote: '', rating: 1 },
    },
    {
      name: 'a team member with an empty picture',
      type: 'team',
      at: 'members[]',
      value: { name: '', role: '', experience: '', image: { src: '', alt: '' } },
    },
    { name: 'a feature line', type: 'pricing-table', at: 'plans[].features[]', value: '' },
    { name: 'a legal section', type: 'legal-sections', at: 'sections[]', value: { heading: '', body: '' } },
    { name: 'a checklist point', type: 'checklist', at: 'items[]', value: { text: '' } },
  ])('$name', ({ type, at, value }) => {
    expect(emptyValue(fieldAt(blockFields(type), at))).toEqual(value);
  });

  it.each([
    { name: 'a constant is itself', field: { key: 'type', label: 'Type', required: true, kind: 'text', constant: 'hero' }, value: 'hero' },
    {
      name: 'a default wins',
      field: { key: 'x', label: 'X', required: true, kind: 'choice', default: 'b', choices: [{ value: 'a', label: 'A' }] },
      value: 'b',
    },
    {
      name: 'a required choice starts at the first',
      field: { key: 'x', label: 'X', required: true, kind: 'choice', choices: [{ value: 2, label: '2' }] },
      value: 2,
    },
    {
      name: 'an exclusive minimum is stepped over',
      field: { key: 'x', label: 'X', required: true, kind: 'number', constraints: { exclusiveMinimum: 0 } },
      value: 1,
    },
    {
      name: 'a maximum caps the start',
      field: { key: 'x', label: 'X', required: true, kind: 'number', constraints: { exclusiveMinimum: 0, maximum: 0.5 } },
      value: 0.5,
    },
    { name: 'a boolean starts false', field: { key: 'x', label: 'X', required: true, kind: 'boolean' }, value: false },
    {
      name: 'blocks come from the palette',
      field: { key: 'blocks', label: 'Blocks', required: true, kind: 'blocks', constraints: { minItems: 1 } },
      value: [],
    },
  ] satisfies { name: string; field: Field; value: unknown }[])('$name', ({ field, value }) => {
    expect(emptyValue(field)).toEqual(value);
  });

  it('gives a fresh default each time', () => {
    const field: Field = { key: 'x', label: 'X', required: true, kind: 'list', default: ['a'] };
    const first = emptyValue(field) as string[];
    first.push('b');
    expect(emptyValue(field)).toEqual(['a']);
  });

  it("fills a countdown's required start with numbers", () => {
    expect(emptyValue(fieldAt(blockFields('countdown'), 'start'))).toEqual({ hours: 0, minutes: 0, seconds: 0 });
  });
});

describe('buildFormModel: a construct it cannot map fails loudly, naming the file and the property', () => {
  it.each<{ name: string; change: Change; message: RegExp }>([
    {
      name: 'a oneOf',
      change: (files) => {
        hero(files).properties!.note = { oneOf: [{ type: 'string' }, { type: 'number' }] } as JsonSchema;
      },
      message: /^blocks\/hero\/schema\.json at note: "oneOf" cannot be shown/,
    },
    {
      name: 'a nested unknown keyword',
      change: (files) => {
        const items = files['block-faq-list.schema.json']!.properties!.categories!.items as JsonSchema;
        (items.properties!.items!.items as JsonSchema).properties!.question = { type: 'string', patternProperties: {} } as JsonSchema;
      },
      message: /^blocks\/faq-list\/schema\.json at categories\[\]\.items\[\]\.question: "patternProperties"/,
    },
    {
      name: 'a type it has no control for',
      change: (files) => {
        hero(files).properties!.note = { type: 'null' };
      },
      message: /at note: type "null" has no control/,
    },
    {
      name: 'several types',
      change: (files) => {
        hero(files).properties!.note = { type: ['string', 'number'] };
      },
      message: /at note: type \["string","number"\]/,
    },
    {
      name: 'an unknown string format',
      change: (files) => {
        hero(files).properties!.note = { type: 'string', format: 'ipv4' };
      },
      message: /at note: format "ipv4" has no control/,
    },
    {
      name: 'a $ref to nothing',
      change: (files) => {
        hero(files).properties!.note = { $ref: 'common.schema.json#/definitions/missing' };
      },
      message: /at note: "common\.schema\.json#\/definitions\/missing" points to nothing/,
    },
    {
      name: 'a keyword beside a $ref',
      change: (files) => {
        hero(files).properties!.note = { $ref: 'common.schema.json#/definitions/heading', maxLength: 10 };
      },
      message: /at note: "maxLength" beside "\$ref"/,
    },
    {
      name: 'an object without properties',
      change: (files) => {
        hero(files).properties!.note = { type: 'object' };
      },
      message: /at note: an object without "properties"/,
    },
    {
      name: 'a map of free keys',
      change: (files) => {
        hero(files).properties!.note = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } };
      },
      message: /at note: additionalProperties with a schema/,
    },
    {
      name: 'a list without one item schema',
      change: (files) => {
        hero(files).properties!.note = { type: 'array', items: [{ type: 'string' }] };
      },
      message: /at note: a list needs "items"/,
    },
    {
      name: 'an allOf outside a list of blocks',
      change: (files) => {
        hero(files).properties!.note = { type: 'string', allOf: [{ minLength: 1 }] };
      },
      message: /at note: allOf is understood only/,
    },
    {
      name: 'a branch of the block list that does not select a block file',
      change: (files) => {
        const items = files['page.schema.json']!.properties!.blocks!.items as JsonSchema;
        (items.allOf as JsonSchema[])[0] = { if: items.allOf![0]!.if!, then: { $ref: 'common.schema.json#/definitions/action' } };
      },
      message:
        /^schema\/page\.schema\.json at blocks\[\]\.allOf\[0\]: the branch for "hero" must select a whole block schema \(blocks\/<type>\/schema\.json\)/,
    },
    {
      name: 'a required property the schema does not describe',
      change: (files) => {
        hero(files).required = ['type', 'heading', 'subtitle'];
      },
      message: /^blocks\/hero\/schema\.json: it requires subtitle/,
    },
    {
      name: 'a block file whose type does not match its name',
      change: (files) => {
        hero(files).properties!.type = { const: 'banner' };
      },
      message: /^blocks\/hero\/schema\.json at type: a block schema needs "type": \{ "const": "hero" \}/,
    },
    {
      name: 'a definition that refers back to itself',
      change: (files) => {
        files['common.schema.json']!.definitions!.menu = {
          type: 'object',
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: 'common.schema.json#/definitions/menu' } } },
        };
      },
      message: /^schema\/common\.schema\.json at definitions\.menu\.children\[\].*refers back to itself/,
    },
    {
      name: 'a problem inside a shared definition, named where it lives',
      change: (files) => {
        files['common.schema.json']!.definitions!.action!.properties!.variant = { anyOf: [] } as JsonSchema;
      },
      message: /^schema\/common\.schema\.json at definitions\.action\.variant: "anyOf"/,
    },
    {
      name: 'a ui hint on something that is not a plain text',
      change: (files) => {
        files['block-countdown.schema.json']!.properties!.start!.properties!.hours!.ui = { control: 'multiline' };
      },
      message: /^blocks\/countdown\/schema\.json at start\.hours: "ui": control chooses the control of a plain text only/,
    },
    {
      name: 'a missing content file schema',
      change: (files) => {
        delete files['roi.schema.json'];
      },
      message: /^schema\/roi\.schema\.json is missing/,
    },
  ])('$name', ({ change, message }) => {
    const files = clone(schemas) as Record<string, JsonSchema>;
    change(files);
    expect(() => buildFormModel(files)).toThrow(message);
  });

  it('never guesses a control from the words of a description', () => {
    const files = clone(schemas) as Record<string, JsonSchema>;
    hero(files).properties!.note = { type: 'string', description: 'A few sentences, or a paragraph.', examples: ['two\nlines'] };
    expect(fieldAt(blockTypeOf(buildFormModel(files), 'hero')!.fields, 'note').kind).toBe('text');
    hero(files).properties!.note!.ui = { control: 'multiline' };
    expect(fieldAt(blockTypeOf(buildFormModel(files), 'hero')!.fields, 'note').kind).toBe('multiline');
  });

  it('refuses a ui hint the studio cannot draw, in the validators too', () => {
    const files = clone(schemas) as Record<string, JsonSchema>;
    hero(files).properties!.note = { type: 'string', description: 'A note.', ui: { control: 'wysiwyg' } } as unknown as JsonSchema;
    expect(() => createAjv(files).getSchema('block-hero.schema.json')).toThrow(/keyword "ui" value is invalid/);
  });

  it('names the $refs it followed to reach the problem', () => {
    const files = clone(schemas) as Record<string, JsonSchema>;
    files['block-hero.schema.json']!.properties!.note = { $ref: 'common.schema.json#/definitions/odd' };
    files['common.schema.json']!.definitions!.odd = { $ref: 'common.schema.json#/definitions/odder' };
    files['common.schema.json']!.definitions!.odder = { type: 'string', format: 'hostname' };
    expect(() => buildFormModel(files)).toThrow(
      'schema/common.schema.json at definitions.odd (through common.schema.json#/definitions/odder): format "hostname" has no control',
    );
  });
});

describe('text areas wherever a text runs past a line', () => {
  /** Every one-line text box the content fills, with the value in it, found by walking the content with the form model. */
  function oneLineTexts(field: Field, value: unknown, where: string): { where: string; text: string }[] {
    if (field.kind === 'blocks' && Array.isArray(value)) {
      return value.flatMap((block: Record<string, unknown>, index) =>
        (blockTypeOf(model, String(block.type))?.fields ?? []).flatMap((child) =>
          oneLineTexts(child, block[child.key], `${where} › block ${index + 1} › ${child.label}`),
        ),
      );
    }
    if (field.kind === 'list' && Array.isArray(value))
      return value.flatMap((item, index) => oneLineTexts(field.item!, item, `${where} ${index + 1}`));
    if ((field.kind === 'object' || field.kind === 'image') && isRecord(value)) {
      return (field.fields ?? []).flatMap((child) => oneLineTexts(child, value[child.key], `${where} › ${child.label}`));
    }
    return field.kind === 'text' && typeof value === 'string' ? [{ where, text: value }] : [];
  }

  it('gives a text area to every text the content already writes past a line (a line break, or more than 90 characters)', () => {
    const pages = readdirSync(path.join(REPO_ROOT, 'content/pages')).map((file) => ({
      where: file,
      field: model.page,
      data: parse(readFileSync(path.join(REPO_ROOT, 'content/pages', file), 'utf8')) as unknown,
    }));
    const site = {
      where: 'site',
      field: model.site,
      data: parse(readFileSync(path.join(REPO_ROOT, 'content/site.yaml'), 'utf8')) as unknown,
    };
    const long = [...pages, site]
      .flatMap(({ where, field, data }) => oneLineTexts(field, data, where))
      .filter(({ text }) => text.includes('\n') || text.length > 90)
      .map(({ where, text }) => `${where}: ${text.length} characters`);
    expect(long).toEqual([]);
  });
});

describe('sections: where the schema puts a property in the form', () => {
  it("puts a page's address, search texts and other settings under the page settings, and its blocks first", () => {
    const sections = Object.fromEntries((model.page.fields ?? []).map((field) => [field.key, field.section]));
    expect(sections).toEqual({
      path: 'settings',
      title: 'settings',
      description: 'settings',
      image: 'settings',
      noindex: 'settings',
      blocks: undefined,
      draft: 'settings',
    });
  });

  it.each(model.blocks.filter((block) => block.fields.some((field) => field.key === 'id')).map((block) => block.type))(
    "puts the %s block's anchor name under its advanced options",
    (type) => {
      expect(fieldAt(blockFields(type), 'id')).toMatchObject({ label: 'Anchor name', section: 'advanced' });
    },
  );

  it("keeps a block's content out of any section", () => {
    for (const key of ['heading', 'text', 'actions']) expect(fieldAt(blockFields('hero'), key).section).toBeUndefined();
  });

  it('lets a section beside a $ref say where that one use goes', () => {
    expect(fieldAt(model.page, 'image')).toMatchObject({ kind: 'image', section: 'settings' });
    expect(fieldAt(blockFields('rich-text'), 'image').section).toBeUndefined();
  });

  it.each<{ name: string; change: Change; message: RegExp }>([
    {
      name: 'page settings inside a block',
      change: (files) => {
        hero(files).properties!.heading = { type: 'string', ui: { section: 'settings' } };
      },
      message: /^blocks\/hero\/schema\.json at heading: "ui": section "settings" belongs on a content file's own properties/,
    },
    {
      name: "a section on a list's item",
      change: (files) => {
        files['block-stats.schema.json']!.properties!.items!.items = {
          ...(files['block-stats.schema.json']!.properties!.items!.items as JsonSchema),
          ui: { section: 'advanced' },
        };
      },
      message: /^blocks\/stats\/schema\.json at items\[\]: "ui": section belongs on a property/,
    },
    {
      name: 'a section the studio does not draw',
      change: (files) => {
        hero(files).properties!.heading = { type: 'string', ui: { section: 'sidebar' } } as unknown as JsonSchema;
      },
      message: /^blocks\/hero\/schema\.json at heading: "ui": section "sidebar" is not one the studio draws/,
    },
  ])('refuses $name', ({ change, message }) => {
    const files = clone(schemas) as Record<string, JsonSchema>;
    change(files);
    expect(() => buildFormModel(files)).toThrow(message);
  });

  it.each([
    ['an unknown section', { section: 'sidebar' }],
    ['an empty ui', {}],
    ['an unknown word', { position: 'top' }],
  ])('refuses %s in the validators too', (_name, ui) => {
    const files = clone(schemas) as Record<string, JsonSchema>;
    hero(files).properties!.note = { type: 'string', ui } as unknown as JsonSchema;
    expect(() => createAjv(files).getSchema('block-hero.schema.json')).toThrow(/keyword "ui" value is invalid/);
  });

  it('changes nothing the validators accept', () => {
    const files = clone(schemas) as Record<string, JsonSchema>;
    const page = {
      path: '/x',
      title: 'X',
      description: 'A page long enough to be a search description of fifty characters.',
      blocks: [{ type: 'hero', heading: 'Hi' }],
    };
    expect(validationErrors(createAjv(files), 'page.schema.json', page)).toEqual([]);
    expect(validationErrors(createAjv(files), 'page.schema.json', { ...page, path: 'x' }).length).toBeGreaterThan(0);
  });
});

describe('the model as the studio receives it', () => {
  it('survives a JSON round trip (the server sends the schemas as JSON)', () => {
    const sent = JSON.parse(JSON.stringify(schemas)) as Record<string, JsonSchema>;
    expect(buildFormModel(sent)).toEqual(model);
  });

  it('is plain data', () => {
    const roundTrip: FormModel = JSON.parse(JSON.stringify(model)) as FormModel;
    expect(roundTrip).toEqual(model);
  });
});
