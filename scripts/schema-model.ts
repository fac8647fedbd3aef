// Reads the JSON Schemas in schema/ into one model shared by the type and guide generators.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type JsonSchema = {
  $id?: string;
  $ref?: string;
  title?: string;
  description?: string;
  type?: string;
  enum?: readonly (string | number)[];
  const?: string;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  items?: JsonSchema;
  allOf?: readonly JsonSchema[];
  definitions?: Record<string, JsonSchema>;
  examples?: readonly unknown[];
  default?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  additionalProperties?: boolean;
};

export type SchemaModel = {
  common: JsonSchema;
  files: Record<string, JsonSchema>;
  blocks: { type: string; file: string; schema: JsonSchema }[];
};

export const BLOCK_SCHEMA_PREFIX = 'block-';
export const SCHEMA_SUFFIX = '.schema.json';

export function readSchemaModel(schemaDir: string): SchemaModel {
  const files: Record<string, JsonSchema> = {};
  for (const file of readdirSync(schemaDir)
    .filter((f) => f.endsWith(SCHEMA_SUFFIX))
    .sort()) {
    files[file] = JSON.parse(readFileSync(path.join(schemaDir, file), 'utf8')) as JsonSchema;
  }
  const common = files['common.schema.json'];
  if (!common) throw new Error(`${schemaDir}/common.schema.json is missing`);
  const blocks = Object.entries(files)
    .filter(([file]) => file.startsWith(BLOCK_SCHEMA_PREFIX))
    .map(([file, schema]) => ({ type: blockTypeOf(file, schema), file, schema }));
  return { common, files, blocks };
}

function blockTypeOf(file: string, schema: JsonSchema): string {
  const type = schema.properties?.type?.const;
  const expected = file.slice(BLOCK_SCHEMA_PREFIX.length, -SCHEMA_SUFFIX.length);
  if (type !== expected) throw new Error(`schema/${file}: properties.type.const must be "${expected}"`);
  return type;
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
