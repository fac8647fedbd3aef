// The route table comes from the page files: adding content/pages/<name>.yaml adds a route.
import { data, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { articlePath, articles, pages } from 'virtual:content/routes';
import { loadBlockComponents, type ResolvedBlocks } from './block-registry.ts';
import type { PageContent } from '../generated/content-types.ts';
import { ErrorScreen } from './ErrorScreen.tsx';
import { Layout } from './Layout.tsx';
import type { ArticleLoaderData, PageHandle } from '../ui/page/route-data.ts';
import { RenderBlocks } from './RenderBlocks.tsx';

export const NOT_FOUND_ROUTE_PATH = '*';

export function createRoutes(): RouteObject[] {
  return [
    {
      id: 'root',
      element: <Layout />,
      errorElement: <ErrorScreen standalone />,
      children: [{ id: 'pages', errorElement: <ErrorScreen />, children: pages.map(toRoute) }],
    },
  ];
}

function toRoute(entry: (typeof pages)[number]): RouteObject {
  const lazy = async () => {
    const page = (await entry.load()).default;
    const components = await loadBlockComponents(page.blocks);
    const handle: PageHandle = { page };
    return {
      Component: () => <PageView page={page} components={components} />,
      handle,
      ...(entry.path === articlePath ? { loader: loadArticle } : {}),
    };
  };
  const id = `page:${entry.name}`;
  if (entry.path === '/') return { id, index: true, lazy };
  return { id, path: entry.path === NOT_FOUND_ROUTE_PATH ? NOT_FOUND_ROUTE_PATH : entry.path.slice(1), lazy };
}

function PageView({ page, components }: { page: PageContent; components: ResolvedBlocks }) {
  return <RenderBlocks blocks={page.blocks} components={components} />;
}

export const ARTICLE_NOT_FOUND_STATUS = 404;

async function loadArticle({ params }: LoaderFunctionArgs) {
  const slug = params.slug ?? '';
  const load = Object.hasOwn(articles, slug) ? articles[slug] : undefined;
  if (!load) return data<ArticleLoaderData>({ article: null }, { status: ARTICLE_NOT_FOUND_STATUS });
  return { article: (await load()).default } satisfies ArticleLoaderData;
}
