// Vite plugin: validated content as virtual modules, one chunk per page and per article.
// Build: the build loads and checks the content once, before any bundling, and hands it in here.
// Dev: the plugin loads and watches it; a mistake shows in the page (Vite's overlay) with the same
// message as the build, and the page reloads by itself once the file is fixed.
import path from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { ContentError } from '../../content-model/content-issue.ts';
import { ARTICLE_PATH, loadContent, type ContentBundle } from '../../content-model/load/load-content.ts';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import { blogIndexEntry } from '../../content-model/blog-index.ts';
import { articleModule, prerenderContentModule, siteModule } from './prerender-content.ts';

export const VIRTUAL = {
  site: 'virtual:content/site',
  routes: 'virtual:content/routes',
  blogIndex: 'virtual:content/blog-index',
  roi: 'virtual:content/roi',
  pagePrefix: 'virtual:content/page/',
  articlePrefix: 'virtual:content/article/',
} as const;
const RESOLVED_PREFIX = '\0';

export type ContentPluginOptions = {
  root: string;
  contentDir?: string;
  settings: PublicSettings;
  /** Content already loaded and checked: used as it is, never reloaded (the build). */
  content?: ContentBundle;
  /**
   * The prerender bundle: no content in the bundle, read when it runs instead
   * (scripts/build/prerender-content.ts), so the live build's bundle can render a changed page.
   */
  contentAtRender?: boolean;
};

export function contentPlugin(options: ContentPluginOptions): Plugin {
  const { root, settings } = options;
  const contentDir = options.contentDir ?? path.join(root, 'content');
  // Block schemas sit beside their components; a block's schema.json changes what content is valid.
  const schemaPaths = [path.join(root, 'schema'), path.join(root, 'blocks')];
  const isSchema = (file: string) => schemaPaths.some((dir) => file.startsWith(dir)) && file.endsWith('.json');
  let bundle: ContentBundle | undefined = options.content;
  let failure: ContentError | undefined;
  let server: ViteDevServer | undefined;

  const reload = () => {
    try {
      bundle = loadContent({ root, contentDir, publicDir: path.join(root, 'public') });
      failure = undefined;
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      failure = error;
    }
  };
  const current = (): ContentBundle => {
    if (!bundle && !failure) reload();
    if (failure) throw failure;
    return bundle!;
  };

  return {
    name: 'site-content',
    enforce: 'pre',
    buildStart() {
      if (options.content !== undefined) return;
      reload();
      if (failure && !server) this.error(failure.message);
      for (const file of bundle?.files ?? []) this.addWatchFile(file);
    },
    configureServer(devServer) {
      server = devServer;
      devServer.watcher.add([contentDir, ...schemaPaths]);
      const onChange = (file: string) => {
        if (!file.startsWith(contentDir) && !isSchema(file) && !file.startsWith(path.join(root, 'public', 'images'))) return;
        reload();
        for (const mod of devServer.moduleGraph.idToModuleMap.values()) {
          if (mod.id?.startsWith(RESOLVED_PREFIX + 'virtual:content/')) devServer.moduleGraph.invalidateModule(mod);
        }
        if (failure) {
          devServer.config.logger.error(failure.message, { timestamp: true });
          devServer.ws.send({ type: 'error', err: { message: failure.message, stack: '', plugin: 'site-content' } });
        } else {
          devServer.config.logger.info('content reloaded', { timestamp: true });
          devServer.ws.send({ type: 'full-reload' });
        }
      };
      devServer.watcher.on('change', onChange);
      devServer.watcher.on('add', onChange);
      devServer.watcher.on('unlink', onChange);
    },
    resolveId(id) {
      return id.startsWith('virtual:content/') ? RESOLVED_PREFIX + id : undefined;
    },
    load(id) {
      if (!id.startsWith(RESOLVED_PREFIX + 'virtual:content/')) return undefined;
      const name = id.slice(RESOLVED_PREFIX.length);
      if (options.contentAtRender) {
        const code = prerenderContentModule(name);
        if (code === undefined) this.error(`${name} has no prerender module (scripts/build/prerender-content.ts)`);
        return code;
      }
      const content = current();
      const json = (value: unknown) => `export default ${JSON.stringify(value)};`;
      if (name === VIRTUAL.site) return json(siteModule(content, settings));
      if (name === VIRTUAL.roi) return json(content.roi);
      if (name === VIRTUAL.blogIndex) return json(content.posts.map(blogIndexEntry));
      if (name === VIRTUAL.routes) {
        const pages = content.pages.map(
          (p) =>
            `  { name: ${JSON.stringify(p.name)}, path: ${JSON.stringify(p.page.path)}, load: () => import(${JSON.stringify(VIRTUAL.pagePrefix + p.name)}) },`,
        );
        const articles = content.posts.map(
          (p) => `  ${JSON.stringify(p.slug)}: () => import(${JSON.stringify(VIRTUAL.articlePrefix + p.slug)}),`,
        );
        return `export const pages = [\n${pages.join('\n')}\n];\nexport const articles = {\n${articles.join('\n')}\n};\nexport const articlePath = ${JSON.stringify(ARTICLE_PATH)};\n`;
      }
      if (name.startsWith(VIRTUAL.pagePrefix)) {
        const page = content.pages.find((p) => p.name === name.slice(VIRTUAL.pagePrefix.length));
        return page ? json(page.page) : undefined;
      }
      if (name.startsWith(VIRTUAL.articlePrefix)) {
        const post = content.posts.find((p) => p.slug === name.slice(VIRTUAL.articlePrefix.length));
        return post ? json(articleModule(post)) : undefined;
      }
      return undefined;
    },
  };
}
