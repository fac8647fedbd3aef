// The one Vite configuration of the site, for the dev server (vite.config.ts) and for the two
// bundles `npm run build` makes (scripts/build/build-site.ts): the browser bundle and the
// prerender bundle. Nothing here depends on where node_modules lives.
import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { InlineConfig, PluginOption } from 'vite';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import { contentPlugin } from './vite-content-plugin.ts';
import { chunkModulesPlugin } from '../budgets/chunk-modules-plugin.ts';
import { compileHintsPlugin } from './compile-hints-plugin.ts';

export type SiteViteOptions = {
  readonly root: string;
  readonly settings: PublicSettings;
  /** Content already loaded and checked (the build); the dev server loads and watches it itself. */
  readonly content?: ContentBundle;
  readonly contentDir?: string;
};

/** Readable chunk names: `block-hero-…js`, `page-home-…js`, `article-…js`. */
function chunkName({ facadeModuleId, name }: { facadeModuleId: string | null; name: string }): string {
  const block = facadeModuleId?.match(/blocks\/([a-z-]+)\/Block\.tsx$/)?.[1];
  if (block) return `block-${block}`;
  const content = facadeModuleId?.match(/virtual:content\/(page|article)\/([a-z0-9-]+)$/);
  if (content) return `${content[1]}-${content[2]}`;
  return name;
}

/**
 * react-router's package exports always resolve to its development build, which keeps its dev-only
 * warnings and checks; builds use the production copy the package ships (identical apart from that).
 * Resolved through Node, so it is found wherever the package is installed.
 */
export function reactRouterProduction(root: string) {
  const require = createRequire(path.join(root, 'package.json'));
  const distDir = path.join(path.dirname(require.resolve('react-router/package.json')), 'dist', 'production');
  return [
    { find: /^react-router$/, replacement: path.join(distDir, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: path.join(distDir, 'dom-export.mjs') },
  ];
}

function sharedPlugins({ root, settings, content, contentDir }: SiteViteOptions, contentAtRender = false): PluginOption[] {
  return [react({ jsxImportSource: '@emotion/react' }), contentPlugin({ root, contentDir, content, settings, contentAtRender })];
}

/** The dev server: live content, errors in the page. */
export function devConfig(options: SiteViteOptions): InlineConfig {
  return {
    root: options.root,
    plugins: sharedPlugins(options),
    server: { host: '127.0.0.1', port: 5173 },
  };
}

/** Prerendered pages start the page shell; `npm run dev` starts renderer/entry-client.tsx from index.html. */
const BROWSER_ENTRY = 'renderer/shell/entry.ts';
const PRERENDER_ENTRY = 'renderer/entry-server.tsx';
/** The field-speed code the shell loads once the page is painted. */
const FIELD_SPEED_ENTRY = 'renderer/shell/vitals.ts';

/** The browser bundle: the page shell, the island runtime, a chunk per block. */
export function browserBuildConfig(options: SiteViteOptions & { readonly outDir: string }): InlineConfig {
  return {
    root: options.root,
    configFile: false,
    logLevel: 'warn',
    resolve: { alias: reactRouterProduction(options.root) },
    plugins: [
      ...sharedPlugins(options),
      // Which modules each browser chunk holds, for the byte-budget tests.
      chunkModulesPlugin(options.root),
      // The page shell (the entry) and the field-speed code: what answers the visitor's first tap.
      compileHintsPlugin((chunk) => chunk.isEntry || (chunk.facadeModuleId?.endsWith(FIELD_SPEED_ENTRY) ?? false)),
    ],
    publicDir: path.join(options.root, 'public'),
    build: {
      outDir: options.outDir,
      emptyOutDir: true,
      // The build copies public/ itself, leaving out uploads no published content uses (public-files.ts).
      copyPublicDir: false,
      // Kept for tools and tests that inspect the chunk graph; the build itself reads its own output.
      manifest: true,
      target: 'es2022',
      assetsInlineLimit: 0,
      rollupOptions: {
        input: path.join(options.root, BROWSER_ENTRY),
        output: {
          entryFileNames: 'assets/shell-[hash].js',
          chunkFileNames: (chunk: { facadeModuleId: string | null; name: string }) => `assets/${chunkName(chunk)}-[hash].js`,
          // zod in a chunk of its own, apart from the forms' rules built with it: the forms set up
          // zod, then build their rules, in tasks of their own (forms/submit-flow.ts), so the two are
          // not one long task on a slow phone.
          codeSplitting: { groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ }] },
        },
      },
    },
  };
}

/**
 * The prerender bundle: self-contained (no import from node_modules at run time) and without content:
 * the build hands the content in as it runs it (scripts/build/prerender-content.ts), so a later build
 * of the same code can render changed pages with it.
 */
export function prerenderBuildConfig(options: SiteViteOptions & { readonly outDir: string }): InlineConfig {
  return {
    root: options.root,
    configFile: false,
    logLevel: 'warn',
    resolve: { alias: reactRouterProduction(options.root) },
    plugins: sharedPlugins(options, true),
    publicDir: false,
    ssr: { noExternal: true },
    build: {
      outDir: options.outDir,
      emptyOutDir: true,
      ssr: path.join(options.root, PRERENDER_ENTRY),
      // Files only the prerendered HTML refers to (the font in the global CSS): no browser script
      // imports them, so the browser bundle does not write them; the build copies them from here.
      ssrEmitAssets: true,
      target: 'node24',
      rollupOptions: { output: { entryFileNames: 'entry-server.js' } },
    },
  };
}
