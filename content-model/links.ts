// Links between pages. A link names a page by its address; "/about/", "/about?ref=nav" and
// "/about#team" all name the page at "/about". The content check, the list of what links to a page
// and changing a page's address all read links with these functions, so they always agree.

/** Keys and list positions leading to a value, as in `['blocks', 2, 'href']`. */
export type Segments = readonly (string | number)[];

/**
 * The address of the page of this site that `href` names: "/about/?x#y" → "/about". Undefined for
 * a link elsewhere (https:, mailto:, tel:, booking, "#top", "//host").
 */
export function linkedAddress(href: string): string | undefined {
  if (!href.startsWith('/') || href.startsWith('//')) return undefined;
  return href.split(/[?#]/)[0]!.replace(/(.)\/$/, '$1');
}

/** Calls `found` with every `href` in `data` and the segments that lead to it. */
export function forEachLink(data: unknown, found: (href: string, segments: Segments) => void, segments: Segments = []): void {
  if (Array.isArray(data)) {
    data.forEach((item, index) => forEachLink(item, found, [...segments, index]));
    return;
  }
  if (typeof data !== 'object' || data === null) return;
  for (const [key, value] of Object.entries(data)) {
    if (key === 'href' && typeof value === 'string') found(value, [...segments, key]);
    else forEachLink(value, found, [...segments, key]);
  }
}

/** `data` with every link to the page at `from` pointing at `to`: "/about/?x#y" becomes "/about-us?x#y". */
export function replaceLinks(data: unknown, from: string, to: string): unknown {
  if (Array.isArray(data)) return data.map((item) => replaceLinks(item, from, to));
  if (typeof data !== 'object' || data === null) return data;
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => {
      if (key === 'href' && typeof value === 'string' && linkedAddress(value) === from) {
        const rest = value.search(/[?#]/);
        return [key, rest === -1 ? to : to + value.slice(rest)];
      }
      return [key, replaceLinks(value, from, to)];
    }),
  );
}
