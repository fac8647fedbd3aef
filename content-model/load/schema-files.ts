// Reads the content schemas from disk: the shared ones in schema/ and each block type's
// blocks/<type>/schema.json. One reader for the type and guide generators, the content check and the
// studio, so a new block folder is seen by all of them at once.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BLOCK_SCHEMA_FILE,
  BLOCKS_DIR,
  SCHEMAS_DIR,
  SCHEMA_SUFFIX,
  blockSchemaName,
  blockTypeOfSchemaName,
  type JsonSchema,
} from '../schema.ts';

export { commonRefName, itemSchemaOf, pascalCase, typeNameOf, type JsonSchema } from '../schema.ts';

/** One schema file: its name (the `$id` other schemas use), where it is, and its text. */
export type SchemaFile = { name: string; file: string; text: string };

export type SchemaModel = {
  common: JsonSchema;
  /** Every schema by name, blocks' included, in name order. */
  files: Record<string, JsonSchema>;
  /** The block types in name order, each with its schema's name and the schema. */
  blocks: { type: string; file: string; schema: JsonSchema }[];
};

/** The schema files of the project at `root`, sorted by name. A block folder without a schema is an error. */
export function readSchemaFiles(root: string): SchemaFile[] {
  const found: SchemaFile[] = [];
  const schemaDir = path.join(root, SCHEMAS_DIR);
  for (const name of readdirSync(schemaDir).filter((f) => f.endsWith(SCHEMA_SUFFIX))) {
    if (blockTypeOfSchemaName(name) !== undefined) {
      throw new Error(`${SCHEMAS_DIR}/${name}: a block's schema belongs in its folder, ${BLOCKS_DIR}/<type>/${BLOCK_SCHEMA_FILE}`);
    }
    const file = path.join(schemaDir, name);
    found.push({ name, file, text: readFileSync(file, 'utf8') });
  }
  const blocksDir = path.join(root, BLOCKS_DIR);
  for (const entry of readdirSync(blocksDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const file = path.join(blocksDir, entry.name, BLOCK_SCHEMA_FILE);
    if (!existsSync(file))
      throw new Error(`${BLOCKS_DIR}/${entry.name}/ has no ${BLOCK_SCHEMA_FILE}: every folder in ${BLOCKS_DIR}/ is a block type`);
    found.push({ name: blockSchemaName(entry.name), file, text: readFileSync(file, 'utf8') });
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function readSchemaModel(root: string): SchemaModel {
  return schemaModelOf(readSchemaFiles(root));
}

export function schemaModelOf(schemaFiles: readonly SchemaFile[]): SchemaModel {
  const files: Record<string, JsonSchema> = {};
  const blocks: SchemaModel['blocks'] = [];
  for (const { name, file, text } of schemaFiles) {
    const schema = parseSchema(file, text);
    if (schema.$id !== name) throw new Error(`${file}: "$id" must be "${name}"`);
    files[name] = schema;
    const type = blockTypeOfSchemaName(name);
    if (type !== undefined) {
      if (schema.properties?.type?.const !== type) throw new Error(`${file}: properties.type.const must be "${type}"`);
      blocks.push({ type, file: name, schema });
    }
  }
  const common = files['common.schema.json'];
  if (!common) throw new Error(`${SCHEMAS_DIR}/common.schema.json is missing`);
  return { common, files, blocks };
}

function parseSchema(file: string, text: string): JsonSchema {
  try {
    return JSON.parse(text) as JsonSchema;
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}
