// What a content schema is, for every reader of the schemas (schema/*.schema.json and each block's
// blocks/<type>/schema.json): the type generator, the content guide, the content check and the
// studio's forms. Pure: the files themselves are read by load/schema-files.ts.
import type addContentKeywords from './schema-keywords.cjs';

/** The controls a schema may ask the studio for with `ui: { control }`. */
export type UiControl = (typeof addContentKeywords.UI_CONTROLS)[number];

/** Where the studio's form puts a property with `ui: { section }`: page settings, or a group's advanced options. */
export type UiSection = (typeof addContentKeywords.UI_SECTIONS)[number];

/** The part of draft-07 JSON Schema the content schemas use, and their two keywords: one type for every reader. */
export type JsonSchema = {
  $schema?: string;
  $id?: string;
  $ref?: string;
  $comment?: string;
  title?: string;
  description?: string;
  examples?: readonly unknown[];
  default?: unknown;
  type?: string | readonly string[];
  enum?: readonly unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | readonly JsonSchema[];
  definitions?: Record<string, JsonSchema>;
  allOf?: readonly JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  /** A block's schema: the block responds to the visitor and is hydrated (schema-keywords.cjs). */
  interactive?: true;
  /** The studio's control for a text, where its type does not say, and the form's section for a property (schema-keywords.cjs). */
  ui?: { control?: UiControl; section?: UiSection };
};

/** A list's one item schema; undefined for a tuple (a list of fixed positions), which no content file uses. */
export function itemSchemaOf(schema: JsonSchema): JsonSchema | undefined {
  return Array.isArray(schema.items) ? undefined : (schema.items as JsonSchema | undefined);
}

/** The schema's one type name; undefined when it names none or several. */
export function typeNameOf(schema: JsonSchema): string | undefined {
  return typeof schema.type === 'string' ? schema.type : undefined;
}

// A block type is one folder, blocks/<type>/, holding its schema (schema.json) and its component
// (Block.tsx). Its schema's name, the $id other schemas refer to it by, is block-<type>.schema.json.
// The other schemas are schema/<name>.schema.json, named by their file.
export const BLOCKS_DIR = 'blocks';
export const BLOCK_SCHEMA_FILE = 'schema.json';
export const BLOCK_COMPONENT_FILE = 'Block.tsx';
export const SCHEMAS_DIR = 'schema';
export const SCHEMA_SUFFIX = '.schema.json';
const BLOCK_SCHEMA_NAME = /^block-([a-z0-9]+(?:-[a-z0-9]+)*)\.schema\.json$/;

/** "hero" → "block-hero.schema.json" */
export function blockSchemaName(type: string): string {
  return `block-${type}${SCHEMA_SUFFIX}`;
}

/** "block-hero.schema.json" → "hero"; undefined for a schema that is not a block's. */
export function blockTypeOfSchemaName(name: string): string | undefined {
  return BLOCK_SCHEMA_NAME.exec(name)?.[1];
}

/** Where a schema lives, relative to the project: for messages that send an editor to the file. */
export function schemaFileOf(name: string): string {
  const type = blockTypeOfSchemaName(name);
  return type === undefined ? `${SCHEMAS_DIR}/${name}` : `${BLOCKS_DIR}/${type}/${BLOCK_SCHEMA_FILE}`;
}

/**
 * A `$ref` split into the schema it names and the JSON pointer inside it. A reference with no name
 * ("#/definitions/x") stays in `base`, the schema it is written in.
 */
export function splitRef(ref: string, base: string): { name: string; pointer: string } {
  const [name = '', pointer = ''] = ref.split('#');
  return { name: name === '' ? base : name.replace(/^\.\//, ''), pointer };
}

/** The part of `files` a `$ref` written in `base` points to; undefined when it points to nothing. */
export function schemaAtRef(files: Readonly<Record<string, JsonSchema>>, ref: string, base: string): JsonSchema | undefined {
  const { name, pointer } = splitRef(ref, base);
  const root = files[name] ?? Object.values(files).find((schema) => schema.$id === name);
  let node: unknown = root;
  for (const segment of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
    node = typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as JsonSchema) : undefined;
}

/** "card-grid" → "CardGrid" */
export function pascalCase(name: string): string {
  return name.replace(/(^|[-_])([a-z0-9])/g, (_m, _sep: string, ch: string) => ch.toUpperCase());
}

/** The name of a `common.schema.json#/definitions/<name>` reference, or undefined. */
export function commonRefName(ref: string | undefined): string | undefined {
  const match = ref?.match(/^common\.schema\.json#\/definitions\/([A-Za-z0-9-]+)$/);
  return match?.[1];
}
