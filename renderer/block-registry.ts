// The one map from block type to component. Typed from the schemas' union: a block type without an
// entry here, or an entry whose component takes the wrong data, is a compile error.
import type { ComponentType } from 'react';
import type { Block, BlockType } from '../generated/content-types.ts';

export type BlockOf<T extends BlockType> = Extract<Block, { type: T }>;
export type BlockComponent<T extends BlockType> = ComponentType<BlockOf<T>>;
type BlockModule<T extends BlockType> = { default: BlockComponent<T> };

/** Each block is its own chunk, so a route downloads only the blocks its page uses. */
export const blockLoaders: { [T in BlockType]: () => Promise<BlockModule<T>> } = {
  article: () => import('../blocks/article/Block.tsx'),
  'blog-list': () => import('../blocks/blog-list/Block.tsx'),
  callout: () => import('../blocks/callout/Block.tsx'),
  'card-grid': () => import('../blocks/card-grid/Block.tsx'),
  checklist: () => import('../blocks/checklist/Block.tsx'),
  'contact-details': () => import('../blocks/contact-details/Block.tsx'),
  countdown: () => import('../blocks/countdown/Block.tsx'),
  cta: () => import('../blocks/cta/Block.tsx'),
  'faq-list': () => import('../blocks/faq-list/Block.tsx'),
  form: () => import('../blocks/form/Block.tsx'),
  hero: () => import('../blocks/hero/Block.tsx'),
  'legal-sections': () => import('../blocks/legal-sections/Block.tsx'),
  'not-found': () => import('../blocks/not-found/Block.tsx'),
  'pricing-table': () => import('../blocks/pricing-table/Block.tsx'),
  'rich-text': () => import('../blocks/rich-text/Block.tsx'),
  'roi-calculator': () => import('../blocks/roi-calculator/Block.tsx'),
  stats: () => import('../blocks/stats/Block.tsx'),
  steps: () => import('../blocks/steps/Block.tsx'),
  team: () => import('../blocks/team/Block.tsx'),
  testimonials: () => import('../blocks/testimonials/Block.tsx'),
};

export type ResolvedBlocks = Partial<{ [T in BlockType]: BlockComponent<T> }>;

/** Loads the components a page needs (each type once) before it renders. */
export async function loadBlockComponents(blocks: readonly Block[]): Promise<ResolvedBlocks> {
  const types = [...new Set(blocks.map((b) => b.type))];
  const modules = await Promise.all(types.map((type) => blockLoaders[type]()));
  const resolved: Record<string, unknown> = {};
  types.forEach((type, i) => {
    resolved[type] = modules[i]!.default;
  });
  return resolved as ResolvedBlocks;
}
