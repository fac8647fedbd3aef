// What a content schema is, for every reader of schema/: the type generator, the content guide, the
// content check and the studio's forms. Pure: the files themselves are read by load/schema-files.ts.

/** The part of draft-07 JSON Schema the schemas in schema/ use: one type for every reader. */
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
};

/** A list's one item schema; undefined for a tuple (a list of fixed positions), which no content file uses. */
export function itemSchemaOf(schema: JsonSchema): JsonSchema | undefined {
  return Array.isArray(schema.items) ? undefined : (schema.items as JsonSchema | undefined);
}

/** The schema's one type name; undefined when it names none or several. */
export function typeNameOf(schema: JsonSchema): string | undefined {
  return typeof schema.type === 'string' ? schema.type : undefined;
}

/** Block schemas are the files `block-<type>.schema.json`, one per block type. */
export const BLOCK_SCHEMA_PREFIX = 'block-';
export const SCHEMA_SUFFIX = '.schema.json';

/** "card-grid" → "CardGrid" */
export function pascalCase(name: string): string {
  return name.replace(/(^|[-_])([a-z0-9])/g, (_m, _sep: string, ch: string) => ch.toUpperCase());
}

/** The name of a `common.schema.json#/definitions/<name>` reference, or undefined. */
export function commonRefName(ref: string | undefined): string | undefined {
  const match = ref?.match(/^common\.schema\.json#\/definitions\/([A-Za-z0-9-]+)$/);
  return match?.[1];
}
