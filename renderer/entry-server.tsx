// Prerender entry: renders one address to HTML with its styles, head tags and router data.
import createCache from '@emotion/cache';
import createEmotionServer from '@emotion/server/create-instance';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import site from 'virtual:content/site';
import { articlePath, articles, pages } from 'virtual:content/routes';
import { AppProviders, EMOTION_KEY, theme } from './AppProviders.tsx';
import { renderHeadTags } from './head-tags.ts';
import { HYDRATION_DATA_ID, serializeForScript, type HydrationData } from './hydration-data.ts';
import { resolveHead, type PageHandle } from './page-head.ts';
import { createRoutes } from './routes.tsx';
import { FONT_URL, GLOBAL_STYLES_ATTRIBUTE, globalCss } from './layout/GlobalStyles.tsx';
import { escapeStyleText, prerenderedStyleTags } from './prerendered-styles.ts';
import { preloadMarkdown } from '../blocks/ui/Markdown.tsx';

export type RenderedPage = {
  status: number;
  /** The app's HTML, to go inside #root. */
  appHtml: string;
  /** The deepest matched route id, for #root's data-route-id. */
  routeId: string;
  /** The router data block that follows #root. */
  dataScript: string;
  /** <title>, meta and link tags, then the global CSS and the critical CSS of the page's components. */
  head: string;
  /** The page file rendered (content/pages/<name>.yaml) and the block types it uses: the chunks to preload. */
  pageName: string;
  blockTypes: string[];
};

export { FONT_URL };

/** The browser UI colour for the document's theme-color (the brand's primary colour). */
export const THEME_COLOR: string = theme.colors.primary;

/** Every address to prerender: each page (the article page once per article) and the two "not found" screens. */
export function listRoutes() {
  return {
    pages: pages.map(({ name, path }) => ({ name, path })),
    articlePath,
    articleSlugs: Object.keys(articles),
  };
}

export async function render(url: string): Promise<RenderedPage> {
  // Markdown renders synchronously here; browsers load the parser only when they render text themselves.
  await preloadMarkdown();
  const handler = createStaticHandler(createRoutes());
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error(`Prerendering ${url} answered a redirect to ${context.headers.get('Location')}`);
  if (context.errors) throw new Error(`Prerendering ${url} failed: ${JSON.stringify(context.errors)}`);

  const router = createStaticRouter(handler.dataRoutes, context);
  const cache = createCache({ key: EMOTION_KEY });
  const emotion = createEmotionServer(cache);
  const app = renderToString(
    <AppProviders cache={cache}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  const styles = [
    `<style ${GLOBAL_STYLES_ATTRIBUTE}>${escapeStyleText(globalCss(theme))}</style>`,
    prerenderedStyleTags(cache, emotion.extractCriticalToChunks(app).styles),
  ].join('');
  const matches = context.matches.map((m) => ({ handle: m.route.handle, data: context.loaderData[m.route.id] }));
  const head = resolveHead(matches, site, new URL(url).pathname);
  if (!head) throw new Error(`Prerendering ${url}: no page matched`);
  const routeIds = context.matches.map((m) => m.route.id);
  const pageHandle = context.matches.at(-1)?.route.handle as PageHandle | undefined;
  if (!pageHandle) throw new Error(`Prerendering ${url}: the matched route has no page`);
  const data: HydrationData = { loaderData: context.loaderData, actionData: context.actionData };
  return {
    status: context.statusCode,
    appHtml: app,
    routeId: routeIds.at(-1) ?? '',
    dataScript: `<script type="application/json" id="${HYDRATION_DATA_ID}">${serializeForScript(data)}</script>`,
    head: `${renderHeadTags(head)}\n    ${styles}`,
    pageName: routeIds.at(-1)!.replace(/^page:/, ''),
    blockTypes: [...new Set(pageHandle.page.blocks.map((b) => b.type))],
  };
}
