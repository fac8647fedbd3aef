import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { readPublicSettings } from './renderer/build-settings.ts';
import { contentPlugin } from './renderer/vite-content-plugin.ts';
import { chunkModulesPlugin } from './scripts/budgets/chunk-modules-plugin.ts';
import { compileHintsPlugin } from './scripts/build/compile-hints.ts';

const root = import.meta.dirname;

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
 */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: path.join(root, 'node_modules/react-router/dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(root, 'node_modules/react-router/dist/production/dom-export.mjs') },
];

export default defineConfig(({ command, isSsrBuild }) => ({
  root,
  resolve: { alias: command === 'build' ? reactRouterProduction : [] },
  plugins: [
    react({ jsxImportSource: '@emotion/react' }),
    contentPlugin({ root, contentDir: process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : undefined, settings: readPublicSettings(process.env) }),
    // Which modules each browser chunk holds, for the byte-budget tests.
    chunkModulesPlugin(root),
    // Code every page runs while it starts is compiled off the main thread as it downloads.
    isSsrBuild ? [] : compileHintsPlugin(),
  ],
  build: {
    outDir: path.join(process.env.OUT_DIR ? path.resolve(process.env.OUT_DIR) : path.join(root, 'dist'), isSsrBuild ? 'server' : 'client'),
    emptyOutDir: true,
    manifest: !isSsrBuild,
    target: 'es2022',
    assetsInlineLimit: 0,
    rollupOptions: isSsrBuild
      ? { input: path.join(root, 'renderer/entry-server.tsx') }
      : {
          output: {
            chunkFileNames: (chunk: { facadeModuleId: string | null; name: string }) => `assets/${chunkName(chunk)}-[hash].js`,
          },
        },
  },
  // The prerender bundle is self-contained, so a build can be written anywhere (tests build into temp folders).
  ssr: { noExternal: isSsrBuild ? true : [] },
  server: { host: '127.0.0.1', port: 5173 },
}));
