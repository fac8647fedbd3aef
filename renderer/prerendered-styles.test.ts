import createCache from '@emotion/cache';
import { describe, expect, it } from 'vitest';
import { adoptPrerenderedStyles, PRERENDERED_STYLES_ATTRIBUTE, prerenderedStyleTags } from './prerendered-styles.ts';

describe('prerenderedStyleTags', () => {
  it('writes the critical rules, then the rules the HTML never names, each under its ids', () => {
    const cache = {
      key: 'c',
      inserted: { a1: '.c-a1{color:red;}', b2: '.c-b2{margin:0;}', merged: '.c-merged{isolation:isolate;}', flag: true as const },
    };
    const html = prerenderedStyleTags(cache, [{ key: 'c', ids: ['a1', 'b2'], css: '.c-a1{color:red;}.c-b2{margin:0;}' }]);
    expect(html).toBe(
      `<style ${PRERENDERED_STYLES_ATTRIBUTE}="c a1 b2">.c-a1{color:red;}.c-b2{margin:0;}</style>` +
        `<style ${PRERENDERED_STYLES_ATTRIBUTE}="c merged">.c-merged{isolation:isolate;}</style>`,
    );
  });

  it('cannot be closed early by CSS text, and writes nothing for a page without styles', () => {
    const cache = { key: 'c', inserted: {} };
    expect(prerenderedStyleTags(cache, [{ key: 'c', ids: ['x'], css: '.c-x::after{content:"</style><script>"}' }])).not.toContain(
      '</style><script>',
    );
    expect(prerenderedStyleTags(cache, [])).toBe('');
  });
});

describe('adoptPrerenderedStyles', () => {
  it("marks the page's rules as present in a fresh cache, for its own key only", () => {
    const elements = [`c a1 b2`, `c merged`, `other z9`].map((value) => ({ getAttribute: () => value }));
    const root = { querySelectorAll: () => elements } as unknown as ParentNode;
    const cache = createCache({ key: 'c' });
    adoptPrerenderedStyles(cache, root);
    expect(cache.inserted).toEqual({ a1: true, b2: true, merged: true });
  });
});
