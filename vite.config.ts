// `npm run dev`: the live-editing server. The production build does not read this file: it runs
// Vite through its JavaScript API from scripts/build/build-site.ts, with the same configuration.
import path from 'node:path';
import { defineConfig } from 'vite';
import { readPublicSettings } from './renderer/build-settings.ts';
import { devConfig } from './scripts/build/vite-config.ts';

export default defineConfig(
  devConfig({
    root: import.meta.dirname,
    settings: readPublicSettings(process.env),
    contentDir: process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : undefined,
  }),
);
