import type { ComponentType } from 'react';
import { isInteractive, type ResolvedBlocks } from './block-registry.ts';
import type { Block } from '../generated/content-types.ts';
import { BlockErrorBoundary } from './BlockErrorBoundary.tsx';
import { IslandSlot, useIslandCollector } from './islands/server-islands.tsx';

type RenderBlocksProps = {
  blocks: readonly Block[];
  components: ResolvedBlocks;
  /**
   * Wraps each block in an element with these attributes and no box of its own (the studio's
   * preview marks blocks this way to find the one clicked). The site itself never passes it.
   */
  markBlock?: (index: number) => Record<`data-${string}`, string>;
};

/**
 * Renders a page's blocks in order, each inside its own error boundary. While prerendering, an
 * interactive block becomes an island (hydrated on its own in the browser); the rest is plain HTML.
 */
export function RenderBlocks({ blocks, components, markBlock }: RenderBlocksProps) {
  const islands = useIslandCollector();
  return (
    <>
      {blocks.map((block, index) => {
        // The registry's mapped type guarantees each component matches its block; the union needs one widening here.
        const Component = components[block.type] as ComponentType<Block> | undefined;
        if (!Component) throw new Error(`Block type "${block.type}" was not loaded for this page`);
        if (islands && isInteractive(block.type)) return <IslandSlot key={index} island={islands.add(block, Component)} />;
        const rendered = (
          <BlockErrorBoundary key={index} blockType={block.type}>
            <Component {...block} />
          </BlockErrorBoundary>
        );
        if (!markBlock) return rendered;
        return (
          <div key={index} style={{ display: 'contents' }} {...markBlock(index)}>
            {rendered}
          </div>
        );
      })}
    </>
  );
}
