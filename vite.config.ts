import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { readPublicSettings } from './renderer/build-settings.ts';
import { contentPlugin } from './renderer/vite-content-plugin.ts';

const root = import.meta.dirname;

export default defineConfig(({ isSsrBuild }) => ({
  root,
  plugins: [
    react({ jsxImportSource: '@emotion/react' }),
    contentPlugin({ root, contentDir: process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : undefined, settings: readPublicSettings(process.env) }),
  ],
  build: {
    outDir: path.join(process.env.OUT_DIR ? path.resolve(process.env.OUT_DIR) : path.join(root, 'dist'), isSsrBuild ? 'server' : 'client'),
    emptyOutDir: true,
    manifest: !isSsrBuild,
    target: 'es2022',
    assetsInlineLimit: 0,
    rollupOptions: isSsrBuild ? { input: path.join(root, 'renderer/entry-server.tsx') } : undefined,
  },
  ssr: { noExternal: isSsrBuild ? ['@fontsource-variable/inter'] : [] },
  server: { host: '127.0.0.1', port: 5173 },
}));
