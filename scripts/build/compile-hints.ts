/**
 * V8's explicit compile hint (Chrome 136+): a file that starts with `//# allFunctionsCalledOnLoad`
 * is compiled whole while it streams in, on a background thread. Without it V8 compiles each
 * function on the main thread the first time it runs, which for react-dom is during hydration, in
 * the long tasks a phone's visitor waits through. Only chunks whose code mostly runs on every page
 * start get the hint: eagerly compiling code that never runs would only cost memory.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** Packages whose code runs on every page start: React, react-dom, the router, emotion. */
export const STARTUP_PACKAGES = /node_modules\/(react|react-dom|scheduler|react-router|@emotion\/[a-z-]+)\//;

/**
 * The hint as the bundler's post-banner: written after minification (which would strip a comment)
 * and before the file name's hash is computed, so the hash covers it. The entry chunk is left out:
 * Vite writes its preload map at the top of the entry later, and a hint not on the first line does
 * nothing.
 */
export function compileHintBanner(chunk: { readonly isEntry: boolean; readonly moduleIds: readonly string[] }): string {
  return !chunk.isEntry && chunk.moduleIds.some((id) => STARTUP_PACKAGES.test(id)) ? COMPILE_HINT : '';
}
