// The map from block type to component, and which blocks respond to the visitor, as the block folders
// say: blocks/<type>/ holds the schema (with `"interactive": true` for a block that responds) and
// Block.tsx. Typed from the schemas' union: a type without a component, or a component that takes
// the wrong data, is a compile error.
//
// A prerendered page ships only its interactive blocks as JavaScript: each becomes an island that
// hydrates on its own (renderer/islands/). Every other block is its prerendered HTML and CSS and is
// never hydrated, so it costs the browser no script at all. Every block stays renderable in the
// browser (`npm run dev` renders whole pages there).
import type { ComponentType } from 'react';
import { blockModules } from '../generated/block-modules.ts';
import type { Block, BlockType } from '../generated/content-types.ts';

export type BlockOf<T extends BlockType> = Extract<Block, { type: T }>;
/**
 * What an island shows only once the visitor has acted (the calculator's result screen), carried by
 * its block component as `laterScreens`. Prerendering renders it for its style rules alone: they go
 * into the page's styles, never its HTML. Showing it in the browser then adds no style rule; a rule
 * added to the page makes the browser restyle all of it, and emotion compiles each one first, which
 * on a slow phone made the result's appearance a long task.
 */
export type LaterScreens<B> = { laterScreens?: ComponentType<B> };
export type BlockComponent<T extends BlockType> = ComponentType<BlockOf<T>> & LaterScreens<BlockOf<T>>;
type BlockModule<T extends BlockType> = { default: BlockComponent<T> };

export type BlockRegistration<T extends BlockType> = {
  /** Each block is its own chunk, so a route downloads only the blocks it needs. */
  readonly load: () => Promise<BlockModule<T>>;
  /**
   * True when the block responds to the visitor after the page is built (state, effects, event
   * handlers): it is hydrated in the browser. Leave it out for blocks whose HTML never changes.
   */
  readonly interactive?: true;
};

// Written by `npm run generate` from the block folders (blocks/<type>/Block.tsx, and `interactive`
// from each schema.json). The annotation makes a missing type or a component taking the wrong data a
// compile error here.
export const blockRegistry: { readonly [T in BlockType]: BlockRegistration<T> } = blockModules;

export function isInteractive(type: BlockType): boolean {
  return blockRegistry[type].interactive === true;
}

export type ResolvedBlocks = Partial<{ [T in BlockType]: BlockComponent<T> }>;

/** Loads the components a page needs (each type once) before it renders. */
export async function loadBlockComponents(blocks: readonly Block[]): Promise<ResolvedBlocks> {
  const types = [...new Set(blocks.map((b) => b.type))];
  const modules = await Promise.all(types.map((type) => blockRegistry[type].load()));
  const resolved: Record<string, unknown> = {};
  types.forEach((type, i) => {
    resolved[type] = modules[i]!.default;
  });
  return resolved as ResolvedBlocks;
}
