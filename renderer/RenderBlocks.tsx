import type { ComponentType } from 'react';
import type { ResolvedBlocks } from './block-registry.ts';
import type { Block } from '../generated/content-types.ts';
import { BlockErrorBoundary } from './BlockErrorBoundary.tsx';

type RenderBlocksProps = { blocks: readonly Block[]; components: ResolvedBlocks };

/** Renders a page's blocks in order, each inside its own error boundary. */
export function RenderBlocks({ blocks, components }: RenderBlocksProps) {
  return (
    <>
      {blocks.map((block, index) => {
        // The registry's mapped type guarantees each component matches its block; the union needs one widening here.
        const Component = components[block.type] as ComponentType<Block> | undefined;
        if (!Component) throw new Error(`Block type "${block.type}" was not loaded for this page`);
        return (
          <BlockErrorBoundary key={index} blockType={block.type}>
            <Component {...block} />
          </BlockErrorBoundary>
        );
      })}
    </>
  );
}
