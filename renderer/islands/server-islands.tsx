// Prerendering islands. The page renders once with an empty wrapper for each interactive block; each
// island is then rendered as a root of its own (as the browser will hydrate it) and put in its
// wrapper. Static blocks stay in the page render and are never hydrated.
import { createContext, useContext, type ComponentType } from 'react';
import type { Block } from '../../generated/content-types.ts';
import type { LaterScreens } from '../block-registry.ts';
import { ISLAND_ATTRIBUTE, ISLAND_ID_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE } from './island-markup.ts';

/** An island of the page; its component may name screens it shows later (`LaterScreens`), whose styles the page holds too. */
export type CollectedIsland = { id: string; block: Block; Component: ComponentType<Block> & LaterScreens<Block> };

/** The islands of one page render, in document order. */
export class IslandCollector {
  readonly islands: CollectedIsland[] = [];

  add(block: Block, Component: ComponentType<Block>): CollectedIsland {
    const island = { id: `i${this.islands.length}`, block, Component };
    this.islands.push(island);
    return island;
  }
}

const IslandCollectorContext = createContext<IslandCollector | null>(null);
export const IslandCollectorProvider = IslandCollectorContext.Provider;

/** The collector when prerendering; null when the whole page renders in the browser (`npm run dev`). */
export function useIslandCollector(): IslandCollector | null {
  return useContext(IslandCollectorContext);
}

const placeholder = (id: string) => `<!--island:${id}-->`;

/** The wrapper of an island, holding a placeholder that `fillIslands` replaces with its HTML. */
export function IslandSlot({ island }: { island: CollectedIsland }) {
  const attributes = {
    [ISLAND_ATTRIBUTE]: island.block.type,
    [ISLAND_ID_ATTRIBUTE]: island.id,
    [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(island.block),
  };
  return <div {...attributes} dangerouslySetInnerHTML={{ __html: placeholder(island.id) }} />;
}

/** Puts each island's own render into its wrapper. */
export function fillIslands(html: string, collector: IslandCollector, render: (island: CollectedIsland) => string): string {
  let filled = html;
  for (const island of collector.islands) {
    const marker = placeholder(island.id);
    const at = filled.indexOf(marker);
    if (at === -1) throw new Error(`The page render has no place for island ${island.id} (${island.block.type})`);
    filled = filled.slice(0, at) + render(island) + filled.slice(at + marker.length);
  }
  return filled;
}
