import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

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
 * The hint must be the file's first line, so it is written into the files once they are on disk:
 * minification strips comments, and Vite puts its preload map at the top of the entry after every
 * plugin's generateBundle. The hashes in the file names are of the code without the line.
 */
export function compileHintsPlugin(): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || !output.moduleIds.some((id) => STARTUP_PACKAGES.test(id))) continue;
        const file = path.join(options.dir ?? '', output.fileName);
        writeFileSync(file, `${COMPILE_HINT}\n${readFileSync(file, 'utf8')}`);
      }
    },
  };
}
