// Turns the JSON Schemas in schema/ into descriptions of form fields, so every studio form is
// generated from the schemas and a new block schema file appears in the studio with no code change.
// Pure and free of Node APIs: the server sends the parsed schema files and the browser builds this.
import { KIND_ORDER, kindDefinition, type ContentKind } from '../../../content-model/kinds.ts';
import {
  BLOCKS_DIR,
  blockTypeOfSchemaName,
  schemaAtRef,
  schemaFileOf,
  splitRef,
  type JsonSchema,
  type UiControl,
  type UiSection,
} from '../../../content-model/schema.ts';
import { isRecord } from '../../../content-model/values.ts';

export type { JsonSchema };

export type FieldKind =
  | 'text'
  | 'multiline'
  | 'markdown'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'choice'
  | 'image'
  /** A text holding a picture's address, chosen from the picture library (`ui: { control: "picture" }`). */
  | 'picture'
  | 'link'
  | 'date'
  | 'object'
  | 'list'
  | 'blocks';

export type Choice = { value: string | number; label: string };

const CONSTRAINT_KEYWORDS = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
] as const satisfies readonly (keyof JsonSchema)[];

export type Constraints = Pick<JsonSchema, (typeof CONSTRAINT_KEYWORDS)[number]>;

export type Field = {
  /** The property name; '' for a list item and for a whole file. */
  key: string;
  label: string;
  /** The schema's description of the property. */
  help?: string;
  required: boolean;
  kind: FieldKind;
  choices?: Choice[];
  example?: unknown;
  default?: unknown;
  constraints?: Constraints;
  /** An object's properties, in schema order. */
  fields?: Field[];
  /** What each entry of a list is. */
  item?: Field;
  /** A fixed value (a block's `type`): shown, never edited. */
  constant?: string | number;
  /**
   * Where the form puts it (the schema's `ui: { section }`): "settings" under the page's closed
   * "Page settings", "advanced" under its group's closed "Advanced"; absent for content, shown first.
   */
  section?: UiSection;
};

export type BlockType = {
  type: string;
  title: string;
  description: string;
  fields: Field[];
  /** What a block added from the palette starts with: the schema's first example, else the least that satisfies it. */
  example: Record<string, unknown>;
};

export type FormModel = { page: Field; site: Field; article: Field; roi: Field; blocks: BlockType[] };

/** The file whose top-level object each kind of content file is. */
const ROOT_FILES = Object.fromEntries(KIND_ORDER.map((kind) => [kind, kindDefinition(kind).schema])) as Record<ContentKind, string>;

/** Shared definitions that get their own control (a Markdown editor, a picture picker, a link box). */
const KIND_BY_REF: Record<string, { kind: FieldKind; type: string }> = {
  'common.schema.json#/definitions/markdown': { kind: 'markdown', type: 'string' },
  'common.schema.json#/definitions/image': { kind: 'image', type: 'object' },
  'common.schema.json#/definitions/href': { kind: 'link', type: 'string' },
};

const KIND_BY_TYPE: Record<string, FieldKind> = {
  string: 'text',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  object: 'object',
  array: 'list',
};

/** String formats the studio knows; an unknown format fails rather than guessing a control. */
const KIND_BY_FORMAT: Record<string, FieldKind> = { date: 'date', email: 'text', uri: 'text' };

// A text's control is said by its schema, never guessed from the words of its description: the
// `ui` keyword asks for a text area, a date picker or the picture library; without it a text is a one-line input.
const KIND_BY_CONTROL: Record<UiControl, FieldKind> = { multiline: 'multiline', date: 'date', picture: 'picture' };

const ANNOTATION_KEYWORDS = ['title', 'description', 'examples', 'default'] as const;

/** Keywords that may sit beside a $ref and win over the target's: what one use of a shared piece means, and where it goes. */
const OVERLAY_KEYWORDS = [...ANNOTATION_KEYWORDS, 'ui'] as const;

// Every keyword the model reads or may safely leave to the build's validator. Anything else (oneOf,
// patternProperties, if/then outside the block list…) fails loudly instead of making a broken form.
const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  ...ANNOTATION_KEYWORDS,
  ...CONSTRAINT_KEYWORDS,
  '$schema',
  '$id',
  '$ref',
  '$comment',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'definitions',
  'allOf',
  'uniqueItems',
  'multipleOf',
  'interactive',
  'ui',
]);

/** Words written differently in labels: abbreviations in capitals. */
const ABBREVIATIONS: Record<string, string> = { cta: 'CTA', faq: 'FAQ', url: 'URL', seo: 'SEO', roi: 'ROI', id: 'ID', usd: 'USD' };

/** Code words in property names said the way editors say them ("ctaHref" → "CTA link"). */
const LABEL_WORDS: Record<string, string> = {
  href: 'link',
  usd: '(USD)',
  alt: 'description',
  src: 'picture',
  noindex: 'hide from search engines',
};

type Files = Readonly<Record<string, JsonSchema>>;

type Context = { files: Files; blockTitles: ReadonlyMap<string, string> };

/** Where the walk is, for error messages: the file, the property path in it, the $refs followed. */
type Place = { file: string; path: string; via: readonly string[] };

/** A schema with its $refs followed: `base` is the file its own relative $refs point into. */
type Resolved = { schema: JsonSchema; base: string; refs: readonly string[] };

export function buildFormModel(schemas: Files): FormModel {
  const ctx: Context = { files: schemas, blockTitles: readBlockTitles(schemas) };
  // Every shared definition must map even when nothing uses it yet.
  for (const [file, schema] of Object.entries(schemas)) {
    for (const [name, definition] of Object.entries(schema.definitions ?? {})) {
      mapField(name, definition, false, file, { file, path: `definitions.${name}`, via: [] }, ctx);
    }
  }
  const blocks = blockFiles(schemas).map(([file, schema]) => toBlockType(file, schema, ctx));
  // Any other content file's schema must map too, so it is ready when the studio learns to open it.
  const rootFiles: readonly string[] = Object.values(ROOT_FILES);
  for (const [file, schema] of Object.entries(schemas)) {
    if (!rootFiles.includes(file) && blockTypeOfSchemaName(file) === undefined && schema.properties) mapRoot(file, ctx);
  }
  const page = mapRoot(ROOT_FILES.page, ctx);
  return {
    page,
    site: mapRoot(ROOT_FILES.site, ctx),
    article: mapRoot(ROOT_FILES.article, ctx),
    roi: mapRoot(ROOT_FILES.roi, ctx),
    blocks: inPaletteOrder(blocks, page),
  };
}

export function blockTypeOf(model: FormModel, type: string): BlockType | undefined {
  return model.blocks.find((block) => block.type === type);
}

/** A new block of this type, as the palette adds it: a fresh copy of its example, `type` first. */
export function startingBlock(model: FormModel, type: string): Record<string, unknown> {
  const block = blockTypeOf(model, type);
  if (!block) throw new Error(`"${type}" is not a block type: no ${BLOCKS_DIR}/${type}/schema.json`);
  return Object.assign({ type }, structuredClone(block.example), { type });
}

const EMPTY_BY_KIND: Record<FieldKind, (field: Field) => unknown> = {
  text: () => '',
  multiline: () => '',
  markdown: () => '',
  link: () => '',
  date: () => '',
  picture: () => '',
  number: lowestNumber,
  integer: lowestNumber,
  boolean: () => false,
  choice: (field) => field.choices?.[0]?.value,
  object: requiredPart,
  image: requiredPart,
  list: (field) => Array.from({ length: field.constraints?.minItems ?? 0 }, () => (field.item ? emptyValue(field.item) : '')),
  // Blocks are added from the palette, each with its own starting content.
  blocks: () => [],
};

/**
 * The value "Add" puts in place of a missing one: the constant or the default when the schema has
 * one, else the least that satisfies it (empty texts, the first choice, the lowest allowed number,
 * objects with only their required properties, lists with as many starting items as they require).
 */
export function emptyValue(field: Field): unknown {
  if (field.constant !== undefined) return field.constant;
  if (field.default !== undefined) return structuredClone(field.default);
  return EMPTY_BY_KIND[field.kind](field);
}

function lowestNumber(field: Field): number {
  const { minimum, exclusiveMinimum, maximum } = field.constraints ?? {};
  const lowest = minimum ?? (exclusiveMinimum === undefined ? 0 : exclusiveMinimum + 1);
  return maximum === undefined ? lowest : Math.min(lowest, maximum);
}

function requiredPart(field: Field): Record<string, unknown> {
  return Object.fromEntries((field.fields ?? []).filter((child) => child.required).map((child) => [child.key, emptyValue(child)]));
}

/** An enum value as a choice's label: "real_estate" → "Real Estate", "cta" → "CTA". */
export function choiceLabel(value: string | number): string {
  if (typeof value === 'number') return String(value);
  return splitWords(value)
    .map((word) => ABBREVIATIONS[word.toLowerCase()] ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** A property name as a label in sentence case: "fullPageLoad" → "Full page load", "ctaHref" → "CTA link". */
export function fieldLabel(key: string): string {
  const label = splitWords(key)
    .map((word) => word.toLowerCase())
    .map((word) => LABEL_WORDS[word] ?? ABBREVIATIONS[word] ?? word)
    .join(' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function splitWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean);
}

// ---- blocks ----------------------------------------------------------------------------------

function blockFiles(files: Files): [string, JsonSchema][] {
  return Object.entries(files)
    .filter(([file]) => blockTypeOfSchemaName(file) !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
}

/** A block schema's type is its `type` constant, which must match its name as the generators require. */
function readBlockType(file: string, schema: JsonSchema): string {
  const expected = blockTypeOfSchemaName(file)!;
  if (schema.properties?.type?.const !== expected) {
    fail({ file, path: 'type', via: [] }, `a block schema needs "type": { "const": "${expected}" }`);
  }
  return expected;
}

function readBlockTitles(files: Files): Map<string, string> {
  return new Map(
    blockFiles(files).map(([file, schema]) => {
      const type = readBlockType(file, schema);
      return [type, schema.title ?? choiceLabel(type)];
    }),
  );
}

function toBlockType(file: string, schema: JsonSchema, ctx: Context): BlockType {
  const type = readBlockType(file, schema);
  const root = mapRoot(file, ctx);
  const example = schema.examples?.[0];
  if (example !== undefined && !isRecord(example)) fail({ file, path: 'examples[0]', via: [] }, 'a block example must be an object');
  return {
    type,
    title: ctx.blockTitles.get(type) ?? type,
    description: schema.description ?? '',
    fields: root.fields ?? [],
    example: example ?? requiredPart(root),
  };
}

/** The palette follows the page schema's list of block types; block files it does not list come last. */
function inPaletteOrder(blocks: BlockType[], page: Field): BlockType[] {
  const listed = (findBlocksField(page)?.item?.fields?.find((f) => f.key === 'type')?.choices ?? []).map((c) => c.value);
  const rank = (block: BlockType) => (listed.includes(block.type) ? listed.indexOf(block.type) : listed.length);
  return [...blocks].sort((a, b) => rank(a) - rank(b));
}

function findBlocksField(field: Field): Field | undefined {
  if (field.kind === 'blocks') return field;
  for (const child of field.fields ?? []) {
    const found = findBlocksField(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * The one use of allOf the studio understands: a list's items chosen by type, each branch being
 * `if type is X then block-X.schema.json`. It checks the branches and returns their types.
 */
function readBlockUnion(branches: readonly JsonSchema[], base: string, at: Place, ctx: Context): string[] {
  return branches.map((branch, index) => {
    const place = { ...at, path: `${at.path}.allOf[${index}]` };
    const type = branch.if?.properties?.type?.const;
    const extra = Object.keys(branch).filter((k) => k !== 'if' && k !== 'then' && k !== '$comment');
    if (typeof type !== 'string' || !branch.then || extra.length > 0) {
      fail(place, 'allOf is understood only as branches "if type is X then a block schema"');
    }
    const target = resolveRefs(branch.then, base, place, ctx);
    if (blockTypeOfSchemaName(target.base) === undefined || target.refs.at(-1) !== `${target.base}#`) {
      fail(place, `the branch for "${type}" must select a whole block schema (${BLOCKS_DIR}/<type>/schema.json)`);
    }
    if (target.schema.properties?.type?.const !== type) fail(place, `the branch for "${type}" selects ${target.base}`);
    return type;
  });
}

// ---- mapping ---------------------------------------------------------------------------------

function mapRoot(file: string, ctx: Context): Field {
  const schema = ctx.files[file];
  if (!schema) throw new Error(`${schemaFileOf(file)} is missing`);
  const field = mapField('', schema, true, file, { file, path: '', via: [] }, ctx);
  if (field.kind !== 'object') fail({ file, path: '', via: [] }, 'a content file must be an object');
  return field;
}

function mapField(key: string, schema: JsonSchema, required: boolean, base: string, at: Place, ctx: Context): Field {
  const resolved = resolveRefs(schema, base, at, ctx);
  return mapResolved(key, resolved, required, { ...at, via: [...at.via, ...resolved.refs] }, ctx);
}

function mapResolved(key: string, { schema, base, refs }: Resolved, required: boolean, at: Place, ctx: Context): Field {
  const unknown = Object.keys(schema).filter((keyword) => !KNOWN_KEYWORDS.has(keyword));
  if (unknown.length > 0) fail(at, `${unknown.map((k) => `"${k}"`).join(', ')} cannot be shown as a form field`);
  if (schema.allOf) fail(at, 'allOf is understood only on the items of a list of blocks');
  if (typeof schema.additionalProperties === 'object') fail(at, 'additionalProperties with a schema cannot be edited');

  const described = compact({
    key,
    label: schema.title ?? (key ? fieldLabel(key) : 'Item'),
    help: schema.description,
    required,
    example: schema.examples?.[0],
    default: schema.default,
    constraints: constraintsOf(schema),
    section: sectionOf(schema, key, at),
  });
  if (schema.const !== undefined) {
    const constant = schema.const;
    if (typeof constant !== 'string' && typeof constant !== 'number') fail(at, 'a const must be a string or a number');
    return { ...described, kind: typeof constant === 'number' ? 'number' : 'text', constant };
  }

  const type = typeOf(schema, at);
  const byRef = refs.map((ref) => KIND_BY_REF[ref]).find((entry) => entry !== undefined);
  if (byRef && byRef.type !== type) fail(at, `${refs.join(' → ')} must be of type "${byRef.type}"`);
  if (schema.ui?.control !== undefined && (type !== 'string' || schema.enum !== undefined || byRef !== undefined)) {
    fail(at, '"ui": control chooses the control of a plain text only');
  }
  if (schema.enum) return { ...described, kind: 'choice', choices: choicesOf(schema.enum, at, ctx) };
  if (type === 'object') return { ...described, kind: byRef?.kind ?? 'object', fields: objectFields(schema, base, at, ctx) };
  if (type === 'array') return { ...described, ...listOf(schema, base, at, ctx) };
  if (type === 'string') return { ...described, kind: byRef?.kind ?? stringKind(schema, at) };
  return { ...described, kind: KIND_BY_TYPE[type] ?? fail(at, `type "${type}" has no control`) };
}

function typeOf(schema: JsonSchema, at: Place): string {
  if (typeof schema.type === 'string' && KIND_BY_TYPE[schema.type]) return schema.type;
  if (schema.type !== undefined) fail(at, `type ${JSON.stringify(schema.type)} has no control`);
  // A bare enum (like the page's list of block types) takes the type of its values.
  if (schema.enum?.every((value) => typeof value === 'string')) return 'string';
  if (schema.enum?.every((value) => typeof value === 'number')) return 'number';
  return fail(at, 'a property needs a "type", an "enum", a "const" or a "$ref"');
}

function stringKind(schema: JsonSchema, at: Place): FieldKind {
  if (schema.ui?.control !== undefined) {
    const kind = KIND_BY_CONTROL[schema.ui.control] ?? fail(at, `"ui": control "${String(schema.ui.control)}" is not one the studio draws`);
    return kind;
  }
  if (schema.format !== undefined) return KIND_BY_FORMAT[schema.format] ?? fail(at, `format "${schema.format}" has no control`);
  return 'text';
}

const UI_SECTIONS: readonly UiSection[] = ['settings', 'advanced'];

/**
 * A property's section. "settings" belongs to a content file's own properties (its address, its
 * search title), "advanced" to a property inside a group (a block's anchor name, a button's full
 * page load): the form draws each only there, so anywhere else it fails rather than vanish.
 */
function sectionOf(schema: JsonSchema, key: string, at: Place): UiSection | undefined {
  const section = schema.ui?.section;
  if (section === undefined) return undefined;
  if (!UI_SECTIONS.includes(section)) fail(at, `"ui": section "${String(section)}" is not one the studio draws`);
  // A definition is checked where it is used; a list's item has no place of its own to go.
  if (at.path.startsWith('definitions.')) return section;
  if (key === '') fail(at, '"ui": section belongs on a property, not on a list\'s item or a whole file');
  const topLevel = !at.path.includes('.') && !at.path.includes('[') && (Object.values(ROOT_FILES) as string[]).includes(at.file);
  if (section === 'settings' && !topLevel) fail(at, '"ui": section "settings" belongs on a content file\'s own properties');
  return section;
}

function choicesOf(values: readonly unknown[], at: Place, ctx: Context): Choice[] {
  // A list of block types is labelled with the blocks' titles, as the palette shows them.
  const areBlockTypes = values.every((value) => typeof value === 'string' && ctx.blockTitles.has(value));
  return values.map((value) => {
    if (typeof value !== 'string' && typeof value !== 'number') fail(at, 'enum values must be strings or numbers');
    const label = areBlockTypes ? ctx.blockTitles.get(String(value)) : undefined;
    return { value, label: label ?? choiceLabel(value) };
  });
}

function objectFields(schema: JsonSchema, base: string, at: Place, ctx: Context): Field[] {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) fail(at, 'an object without "properties" cannot be edited');
  const required = new Set(schema.required ?? []);
  const undescribed = [...required].filter((name) => !schema.properties?.[name]);
  if (undescribed.length > 0) fail(at, `it requires ${undescribed.join(', ')} but does not describe them`);
  return properties.map(([name, property]) =>
    mapField(name, property, required.has(name), base, { ...at, path: at.path ? `${at.path}.${name}` : name }, ctx),
  );
}

function listOf(schema: JsonSchema, base: string, at: Place, ctx: Context): Pick<Field, 'kind' | 'item'> {
  const items = schema.items;
  if (!items || Array.isArray(items)) fail(at, 'a list needs "items" with one schema');
  const place = { ...at, path: `${at.path}[]` };
  const resolved = resolveRefs(items as JsonSchema, base, place, ctx);
  const itemAt = { ...place, via: [...place.via, ...resolved.refs] };
  if (!resolved.schema.allOf) return { kind: 'list', item: mapResolved('', resolved, true, itemAt, ctx) };
  readBlockUnion(resolved.schema.allOf, resolved.base, itemAt, ctx);
  const { allOf: _union, ...itemSchema } = resolved.schema;
  return { kind: 'blocks', item: mapResolved('', { ...resolved, schema: itemSchema }, true, itemAt, ctx) };
}

function constraintsOf(schema: JsonSchema): Constraints | undefined {
  const present = CONSTRAINT_KEYWORDS.filter((keyword) => schema[keyword] !== undefined);
  return present.length > 0 ? Object.fromEntries(present.map((keyword) => [keyword, schema[keyword]])) : undefined;
}

// ---- $ref ------------------------------------------------------------------------------------

/**
 * Follows $refs (to "file.schema.json", "file.schema.json#/definitions/x" or "#/definitions/x").
 * Annotations beside a $ref win over the target's, so a property can say what the shared piece means here.
 */
function resolveRefs(schema: JsonSchema, base: string, at: Place, ctx: Context): Resolved {
  let node = schema;
  let file = base;
  const refs: string[] = [];
  const overlay: Pick<JsonSchema, (typeof OVERLAY_KEYWORDS)[number]> = {};
  while (node.$ref !== undefined) {
    const beside = Object.keys(node).filter((k) => k !== '$ref' && k !== '$comment' && !isOverlay(k));
    if (beside.length > 0) fail(at, `${beside.map((k) => `"${k}"`).join(', ')} beside "$ref" is not understood`);
    for (const keyword of OVERLAY_KEYWORDS) {
      if (node[keyword] !== undefined && overlay[keyword] === undefined) Object.assign(overlay, { [keyword]: node[keyword] });
    }
    const ref = node.$ref;
    const { name: targetFile, pointer } = splitRef(ref, file);
    const key = `${targetFile}#${pointer}`;
    if (refs.includes(key) || at.via.includes(key)) fail(at, `"${ref}" refers back to itself, which a form cannot show`);
    refs.push(key);
    node = schemaAtRef(ctx.files, ref, file) ?? fail(at, `"${ref}" points to nothing in the schemas`);
    file = targetFile;
  }
  return { schema: { ...node, ...overlay }, base: file, refs };
}

function isOverlay(keyword: string): boolean {
  return (OVERLAY_KEYWORDS as readonly string[]).includes(keyword);
}

// ---- helpers ---------------------------------------------------------------------------------

function fail(at: Place, problem: string): never {
  const where = at.path ? ` at ${at.path}` : '';
  const via = at.via.length > 0 ? ` (through ${at.via.join(' → ')})` : '';
  throw new Error(`${schemaFileOf(at.file)}${where}${via}: ${problem}`);
}

/** The object without its undefined properties, so fields hold only what the schema says. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
