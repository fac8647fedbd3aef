// Reads the JSON Schemas in schema/ into one model shared by the type and guide generators.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BLOCK_SCHEMA_PREFIX, SCHEMA_SUFFIX, type JsonSchema } from '../schema.ts';

export { commonRefName, itemSchemaOf, pascalCase, typeNameOf, type JsonSchema } from '../schema.ts';

export type SchemaModel = {
  common: JsonSchema;
  files: Record<string, JsonSchema>;
  blocks: { type: string; file: string; schema: JsonSchema }[];
};

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
