// The one map from block type to component, and the one place that says which blocks respond to the
// visitor. Typed from the schemas' union: a block type without an entry here, or an entry whose
// component takes the wrong data, is a compile error.
//
// A prerendered page ships only its interactive blocks as JavaScript: each becomes an island that
// hydrates on its own (renderer/islands/). Every other block is its prerendered HTML and CSS and is
// never hydrated, so it costs the browser no script at all. Every block stays renderable in the
// browser (`npm run dev` renders whole pages there).
import type { ComponentType } from 'react';
import type { Block, BlockType } from '../generated/content-types.ts';

export type BlockOf<T extends BlockType> = Extract<Block, { type: T }>;
export type BlockComponent<T extends BlockType> = ComponentType<BlockOf<T>>;
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

export const blockRegistry: { readonly [T in BlockType]: BlockRegistration<T> } = {
  article: { load: () => import('../blocks/article/Block.tsx') },
  'blog-list': { load: () => import('../blocks/blog-list/Block.tsx') },
  callout: { load: () => import('../blocks/callout/Block.tsx') },
  'card-grid': { load: () => import('../blocks/card-grid/Block.tsx') },
  checklist: { load: () => import('../blocks/checklist/Block.tsx') },
  'contact-details': { load: () => import('../blocks/contact-details/Block.tsx') },
  // Ticks every second.
  countdown: { load: () => import('../blocks/countdown/Block.tsx'), interactive: true },
  cta: { load: () => import('../blocks/cta/Block.tsx') },
  // Native <details> disclosures: they open and close without any script.
  'faq-list': { load: () => import('../blocks/faq-list/Block.tsx') },
  form: { load: () => import('../blocks/form/Block.tsx'), interactive: true },
  hero: { load: () => import('../blocks/hero/Block.tsx') },
  'legal-sections': { load: () => import('../blocks/legal-sections/Block.tsx') },
  // Logs the missing address to the console in the browser.
  'not-found': { load: () => import('../blocks/not-found/Block.tsx'), interactive: true },
  'pricing-table': { load: () => import('../blocks/pricing-table/Block.tsx') },
  'rich-text': { load: () => import('../blocks/rich-text/Block.tsx') },
  'roi-calculator': { load: () => import('../blocks/roi-calculator/Block.tsx'), interactive: true },
  stats: { load: () => import('../blocks/stats/Block.tsx') },
  steps: { load: () => import('../blocks/steps/Block.tsx') },
  team: { load: () => import('../blocks/team/Block.tsx') },
  testimonials: { load: () => import('../blocks/testimonials/Block.tsx') },
};

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
