// Prerender entry: renders one address to HTML with its styles and head tags. The page renders
// once, then each interactive block renders again as an island root of its own (renderer/islands/).
import createCache from '@emotion/cache';
import createEmotionServer from '@emotion/server/create-instance';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { createPath, createStaticHandler, createStaticRouter, StaticRouterProvider, type Navigator } from 'react-router-dom';
import site from 'virtual:content/site';
import { articlePath, articles, pages } from 'virtual:content/routes';
import type { Block } from '../generated/content-types.ts';
import { AppProviders, EMOTION_KEY, theme } from './AppProviders.tsx';
import { renderHeadTags } from './head-tags.ts';
import { fixedLocation, IslandRoot } from './islands/IslandRoot.tsx';
import { islandIdentifierPrefix } from './islands/island-markup.ts';
import { fillIslands, IslandCollector, IslandCollectorProvider, type CollectedIsland } from './islands/server-islands.tsx';
import { resolveHead } from './page-head.ts';
import { createRoutes } from './routes.tsx';
import { FONT_URL, GLOBAL_STYLES_ATTRIBUTE, globalCss } from './layout/GlobalStyles.tsx';
import { escapeStyleText, prerenderedStyleTags } from './prerendered-styles.ts';
import { preloadMarkdown } from '../ui/Markdown.tsx';

export type RenderedPage = {
  status: number;
  /** The app's HTML, to go inside #root. */
  appHtml: string;
  /** The deepest matched route id, for #root's data-route-id. */
  routeId: string;
  /** <title>, meta and link tags, then the global CSS and the critical CSS of the page's components. */
  head: string;
  /** The page file rendered (content/pages/<name>.yaml). */
  pageName: string;
  /** The interactive block types on the page: the island chunks its HTML starts. */
  islandTypes: string[];
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
  const islands = new IslandCollector();
  const page = renderToString(
    <AppProviders cache={cache}>
      <IslandCollectorProvider value={islands}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </IslandCollectorProvider>
    </AppProviders>,
  );
  const location = new URL(url);
  const renderIsland = (island: CollectedIsland, Component: ComponentType<Block>) =>
    renderToString(
      <IslandRoot
        cache={cache}
        location={fixedLocation({ pathname: location.pathname, search: location.search, hash: '' })}
        navigator={PRERENDER_NAVIGATOR}
        isStatic
        block={island.block}
        Component={Component}
      />,
      { identifierPrefix: islandIdentifierPrefix(island.id) },
    );
  const app = fillIslands(page, islands, (island) => {
    // For its style rules only: they land in the cache, which the page's styles are written from.
    if (island.Component.laterScreens) renderIsland(island, island.Component.laterScreens);
    return renderIsland(island, island.Component);
  });
  const styles = [
    `<style ${GLOBAL_STYLES_ATTRIBUTE}>${escapeStyleText(globalCss(theme))}</style>`,
    prerenderedStyleTags(cache, emotion.extractCriticalToChunks(app).styles),
  ].join('');
  const matches = context.matches.map((m) => ({ handle: m.route.handle, data: context.loaderData[m.route.id] }));
  const head = resolveHead(matches, site, new URL(url).pathname);
  if (!head) throw new Error(`Prerendering ${url}: no page matched`);
  const routeIds = context.matches.map((m) => m.route.id);
  return {
    status: context.statusCode,
    appHtml: app,
    routeId: routeIds.at(-1) ?? '',
    head: `${renderHeadTags(head)}\n    ${styles}`,
    pageName: routeIds.at(-1)!.replace(/^page:/, ''),
    islandTypes: [...new Set(islands.islands.map((island) => island.block.type))],
  };
}

/** Nothing navigates while prerendering; links only need their href. */
const PRERENDER_NAVIGATOR: Navigator = {
  createHref: (to) => (typeof to === 'string' ? to : createPath(to)),
  go: () => {},
  push: () => {},
  replace: () => {},
};
