// The page schema's list of block types follows from the block folders: `npm run generate` writes
// it from blocks/*/ with this function, and a test fails while it is out of date. Editors see the
// list in that order (the studio's palette), so types already listed keep their place and a new
// folder's type is added at the end.
import { blockSchemaName, type JsonSchema } from './schema.ts';

/** The block types in the order the page schema lists them, or [] when it lists none. */
export function listedBlockTypes(page: JsonSchema): string[] {
  const listed = page.properties?.blocks?.items;
  const types = listed !== undefined && !Array.isArray(listed) ? (listed as JsonSchema).properties?.type?.enum : undefined;
  return (types ?? []).filter((type): type is string => typeof type === 'string');
}

/** The block types in palette order: the listed ones that still have a folder, then new ones by name. */
export function blockTypesInOrder(page: JsonSchema, folderTypes: readonly string[]): string[] {
  const present = new Set(folderTypes);
  const kept = listedBlockTypes(page).filter((type) => present.has(type));
  const added = folderTypes.filter((type) => !kept.includes(type)).sort();
  return [...kept, ...added];
}

/**
 * The page schema with its block list rewritten for these types: the `type` choices, and one branch
 * per type that checks a block against its own schema. Everything else is kept as it is.
 */
export function pageSchemaWithBlocks(page: JsonSchema, folderTypes: readonly string[]): JsonSchema {
  const blocks = page.properties?.blocks;
  const items = blocks?.items;
  if (blocks === undefined || items === undefined || Array.isArray(items)) {
    throw new Error('page.schema.json needs "blocks": { "type": "array", "items": { … } }');
  }
  const item = items as JsonSchema;
  const types = blockTypesInOrder(page, folderTypes);
  const typeProperty = { ...item.properties?.type, enum: types };
  const branches = types.map((type) => ({
    if: { properties: { type: { const: type } }, required: ['type'] },
    then: { $ref: blockSchemaName(type) },
  }));
  const newItem: JsonSchema = { ...item, properties: { ...item.properties, type: typeProperty }, allOf: branches };
  return { ...page, properties: { ...page.properties, blocks: { ...blocks, items: newItem } } };
}
