// The console's browser app (console/app/), built apart from the public site into <distDir>/console/:
// index.html, which the server answers for every /console address, and hashed files under
// /console/assets/. Its own bundle, so no public page loads a byte of it; plain React with one CSS
// file the build emits, because the console's Content-Security-Policy allows no inline script or
// style (the site's emotion runtime stays out of it).
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type InlineConfig } from 'vite';
import { reactRouterProduction } from './vite-config.ts';
import { CONSOLE_DIR } from '../../content-model/load/build-files.ts';

/** Where the console is served: the router's basename and the assets' prefix. */
export const CONSOLE_BASE = '/console/';

export function consoleAppConfig(root: string, outDir: string): InlineConfig {
  const appRoot = path.join(root, 'console', 'app');
  return {
    root: appRoot,
    configFile: false,
    logLevel: 'warn',
    base: CONSOLE_BASE,
    publicDir: false,
    resolve: { alias: reactRouterProduction(root) },
    plugins: [react({ jsxImportSource: 'react' })],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      assetsInlineLimit: 0,
      // Every browser the console supports preloads modules itself.
      modulePreload: { polyfill: false },
      rollupOptions: { input: path.join(appRoot, 'index.html') },
    },
  };
}

/** Builds the console into `<distDir>/console/`. */
export async function buildConsoleApp(root: string, distDir: string): Promise<string> {
  const outDir = path.join(distDir, CONSOLE_DIR);
  await build(consoleAppConfig(root, outDir));
  return outDir;
}
