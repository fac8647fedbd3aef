// The React tree of one island, identical while prerendering and while hydrating: the app's providers
// (emotion cache, theme, site settings), a router context so links and `useLocation` work inside the
// block, and the block in its error boundary.
import type { EmotionCache } from '@emotion/react';
import { useEffect, useSyncExternalStore, type ComponentType } from 'react';
import { Router, type Navigator } from 'react-router-dom';
import type { Block } from '../../generated/content-types.ts';
import { AppProviders } from '../AppProviders.tsx';
import { BlockErrorBoundary } from '../BlockErrorBoundary.tsx';

export type IslandLocation = { pathname: string; search: string; hash: string };

/** The address as the island sees it: fixed while prerendering, the shell's current one in the browser. */
export type LocationSource = { subscribe(onChange: () => void): () => void; get(): IslandLocation };

export function fixedLocation(location: IslandLocation): LocationSource {
  return { subscribe: () => () => {}, get: () => location };
}

type IslandRootProps = {
  cache: EmotionCache;
  location: LocationSource;
  navigator: Navigator;
  /** True while prerendering: links render, nothing navigates. */
  isStatic: boolean;
  block: Block;
  Component: ComponentType<Block>;
  /** Called once, after the island's first commit in the browser (it then responds to the visitor). */
  onHydrated?: () => void;
};

export function IslandRoot({ cache, location: source, navigator, isStatic, block, Component, onHydrated }: IslandRootProps) {
  const location = useSyncExternalStore(source.subscribe, source.get, source.get);
  return (
    <AppProviders cache={cache}>
      <Router location={location} navigator={navigator} static={isStatic}>
        <BlockErrorBoundary blockType={block.type}>
          <Component {...block} />
        </BlockErrorBoundary>
      </Router>
      {onHydrated ? <Committed onCommit={onHydrated} /> : null}
    </AppProviders>
  );
}

/** Renders nothing; its effect runs after everything before it has committed. */
function Committed({ onCommit }: { onCommit: () => void }) {
  useEffect(() => onCommit(), [onCommit]);
  return null;
}
