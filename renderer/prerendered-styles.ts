// Styles in prerendered pages, and how the browser takes them over without restyling the page.
//
// Emotion's own SSR markup (<style data-emotion="c id …">) is "hydrated" by moving each element into
// emotion's stylesheet, and <Global> does the same with its element. Moving a <style> element drops
// and re-adds its rules, so the browser recomputes the style and layout of the whole page while the
// app starts: on a slow phone that was the longest main-thread task after the first paint. Here the
// prerendered elements carry their own attribute, stay where they are, and the client cache is only
// told which rules they already hold.
import type { EmotionCache } from '@emotion/cache';

/** Holds "<cache key> <id> <id> …" on each prerendered emotion <style> element. */
export const PRERENDERED_STYLES_ATTRIBUTE = 'data-prerendered-styles';

export type StyleChunk = { key: string; ids: string[]; css: string };

/**
 * The <style> elements for a prerendered page's component styles: the critical chunks (emotion's
 * extractCriticalToChunks, rules whose class the HTML uses), then the rules the render produced
 * that the HTML never names. Those come from a `css` prop on a component, which emotion merges into
 * the component's own class; the browser produces them again while hydrating, and without them here
 * it would insert them then and restyle the page.
 */
export function prerenderedStyleTags(cache: Pick<EmotionCache, 'key' | 'inserted'>, critical: readonly StyleChunk[]): string {
  const inPage = new Set(critical.flatMap((chunk) => chunk.ids));
  const composed = Object.entries(cache.inserted).filter(
    (entry): entry is [string, string] => !inPage.has(entry[0]) && typeof entry[1] === 'string' && entry[1] !== '',
  );
  const chunks =
    composed.length === 0
      ? critical
      : [...critical, { key: cache.key, ids: composed.map(([id]) => id), css: composed.map(([, css]) => css).join('') }];
  return chunks
    .filter((chunk) => chunk.css !== '')
    .map((chunk) => `<style ${PRERENDERED_STYLES_ATTRIBUTE}="${[chunk.key, ...chunk.ids].join(' ')}">${escapeStyleText(chunk.css)}</style>`)
    .join('');
}

/** CSS text inside <style> must not close the element early. */
export function escapeStyleText(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1');
}

/** Tells a fresh client cache which rules the page's prerendered <style> elements already hold. */
export function adoptPrerenderedStyles(cache: EmotionCache, root: ParentNode = document): void {
  for (const element of root.querySelectorAll(`style[${PRERENDERED_STYLES_ATTRIBUTE}]`)) {
    const [key, ...ids] = (element.getAttribute(PRERENDERED_STYLES_ATTRIBUTE) ?? '').split(' ');
    if (key !== cache.key) continue;
    for (const id of ids) cache.inserted[id] = true;
  }
}
