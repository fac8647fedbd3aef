// Vite plugin: marks the browser chunks whose functions all run as the page starts or at the
// visitor's first tap with V8's compile hint, `//# allFunctionsCalledOnLoad` as the file's first line.
// Chromium (136 and later) then compiles every function in such a file as it loads, instead of each
// one on the main thread the first time it is called. Without it, the first tap on a page compiled
// the shell's and the field-speed code's listeners inside the tap: about 40 ms at 16× CPU slowdown,
// before the browser could answer it. Other browsers read the line as a comment.
//
// Only small chunks that run whole belong here. Marking React's chunks too made a form's hydration
// longer on a slow phone, not shorter: they are compiled as they are evaluated, on the main thread.
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** Which chunks to mark: `facadeModuleId` is the absolute path of the module the chunk is for. */
export type CompileHintRule = (chunk: { isEntry: boolean; facadeModuleId: string | null }) => boolean;

export function compileHintsPlugin(shouldHint: CompileHintRule): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    // A hinted file is served under another name than the same code without the hint: the hashed
    // files are cached for a year, so a browser holding the one must never be sent the other.
    augmentChunkHash(chunk) {
      return shouldHint(chunk) ? COMPILE_HINT : undefined;
    },
    // Last, once every chunk's code is final: Vite puts its preload helper at the top of the entry
    // when it writes the bundle, and V8 looks for the hint at the top of the file.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        if (this.environment?.config.consumer === 'server') return;
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk' || !shouldHint(output)) continue;
          output.code = `${COMPILE_HINT}\n${output.code}`;
        }
      },
    },
  };
}
