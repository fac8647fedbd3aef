// Builds the studio's browser app (the editor and the preview) with Vite. The preview bundles the
// site's own renderer, blocks and theme; where the site's blocks import the content as
// `virtual:content/…`, the preview gets live objects the editor fills (studio/app/preview/live-content.ts).
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type InlineConfig, type Plugin } from 'vite';

const LIVE_MODULES: Record<string, string> = {
  'virtual:content/site': 'liveSite',
  'virtual:content/roi': 'liveRoi',
  'virtual:content/blog-index': 'livePosts',
};

function liveContentPlugin(root: string): Plugin {
  const liveContent = path.join(root, 'studio', 'app', 'preview', 'live-content.ts');
  return {
    name: 'studio-live-content',
    enforce: 'pre',
    resolveId(id) {
      if (id in LIVE_MODULES) return `\0studio-live:${id}`;
      if (id.startsWith('virtual:content/'))
        throw new Error(`The studio preview cannot use ${id}: only ${Object.keys(LIVE_MODULES).join(', ')} are live.`);
      return undefined;
    },
    load(id) {
      if (!id.startsWith('\0studio-live:')) return undefined;
      const name = LIVE_MODULES[id.slice('\0studio-live:'.length)]!;
      return `import { ${name} } from ${JSON.stringify(liveContent)};\nexport default ${name};\n`;
    },
  };
}

export function studioAppConfig(root: string, outDir: string): InlineConfig {
  const appRoot = path.join(root, 'studio', 'app');
  return {
    root: appRoot,
    configFile: false,
    logLevel: 'warn',
    base: '/',
    publicDir: false,
    plugins: [react({ jsxImportSource: '@emotion/react' }), liveContentPlugin(root)],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      assetsInlineLimit: 0,
      rollupOptions: { input: { index: path.join(appRoot, 'index.html'), preview: path.join(appRoot, 'preview.html') } },
    },
  };
}

export async function buildStudioApp(root: string, outDir: string): Promise<void> {
  await build(studioAppConfig(root, outDir));
}
