// How an interactive block appears in prerendered HTML: a wrapper element that names the block type,
// carries the block's data and holds the block's own HTML, rendered as a React root of its own so the
// browser can hydrate exactly that subtree (ids from useId match because both sides use the same
// identifier prefix). The wrapper takes no box of its own (display: contents, in the global CSS).

/** The block type; its presence marks an island. */
export const ISLAND_ATTRIBUTE = 'data-island';
/** Unique within the page; the React identifier prefix of the island's root derives from it. */
export const ISLAND_ID_ATTRIBUTE = 'data-island-id';
/** The block's data as JSON (the component's props). */
export const ISLAND_PROPS_ATTRIBUTE = 'data-props';
/** Set on the wrapper once the island is hydrated and responds to the visitor. */
export const ISLAND_HYDRATED_ATTRIBUTE = 'data-hydrated';

export const ISLAND_SELECTOR = `[${ISLAND_ATTRIBUTE}]`;

/** React's identifierPrefix for an island root, so useId never collides between two islands of a page. */
export function islandIdentifierPrefix(islandId: string): string {
  return `${islandId}-`;
}
