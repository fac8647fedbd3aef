// Search and sharing, checked field by field on the served build: head tags, Open Graph images,
// JSON-LD, sitemap.xml, robots.txt and the RSS feed (XML parsed by the browser's DOMParser).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { readPublicSettings } from '../../renderer/build-settings.ts';
import { ROUTES, site, waitForHydration } from './support.ts';

/** The SITE_URL the build used (the same environment builds and tests). */
const SITE_URL = readPublicSettings(process.env).siteUrl;
const canonicalOf = (path: string) => `${SITE_URL}${path}`;
const ARTICLE = ROUTES.find((r) => r.path.startsWith('/blog/'))!.path;

type HeadFacts = {
  title: string;
  meta: Record<string, string>;
  links: { rel: string; href: string; type: string | null }[];
  jsonLd: unknown[];
};

/** Parses the served HTML in the browser, without running it. */
async function headOf(page: Page, request: APIRequestContext, path: string): Promise<HeadFacts> {
  const html = await (await request.get(path)).text();
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    const meta: Record<string, string> = {};
    for (const element of doc.head.querySelectorAll('meta[name], meta[property]'))
      meta[element.getAttribute('name') ?? element.getAttribute('property')!] = element.getAttribute('content') ?? '';
    return {
      title: doc.title,
      meta,
      links: [...doc.head.querySelectorAll('link')].map((l) => ({
        rel: l.getAttribute('rel')!,
        href: l.getAttribute('href')!,
        type: l.getAttribute('type'),
      })),
      jsonLd: [...doc.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent ?? '')),
    };
  }, html);
}

type Node = Record<string, unknown> & { '@type': string; '@id'?: string };
const graphOf = (facts: HeadFacts) => facts.jsonLd.flatMap((block) => (block as { '@graph': Node[] })['@graph']);
const nodesOfType = (graph: Node[], type: string) => graph.filter((n) => n['@type'] === type);

function pngSize(bytes: Buffer) {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test.describe('head tags, Open Graph image and JSON-LD of every route', () => {
  for (const route of ROUTES) {
    test(route.path, async ({ page, request }) => {
      await page.goto('about:blank');
      const head = await headOf(page, request, route.path);
      const canonical = canonicalOf(route.path);
      expect(head.links.find((l) => l.rel === 'canonical')?.href).toBe(canonical);
      expect(head.meta.description!.length).toBeGreaterThanOrEqual(50);
      expect(head.meta['og:title']).toBe(head.title);
      expect(head.meta['og:description']).toBe(head.meta.description);
      expect(head.meta['og:url']).toBe(canonical);
      expect(head.meta['og:type']).toBe(route.path === ARTICLE ? 'article' : 'website');
      expect(head.meta['twitter:card']).toBe('summary_large_image');
      expect(head.meta['twitter:image']).toBe(head.meta['og:image']);

      // Its own 1200×630 PNG, served by our server.
      const ogImage = head.meta['og:image']!;
      expect(ogImage).toBe(`${SITE_URL}/og${route.path === '/' ? '/index' : route.path}.png`);
      const image = await request.get(new URL(ogImage).pathname);
      expect(image.status()).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
      expect(pngSize(await image.body())).toEqual({ width: 1200, height: 630 });
      expect([head.meta['og:image:width'], head.meta['og:image:height'], head.meta['og:image:type']]).toEqual(['1200', '630', 'image/png']);

      const graph = graphOf(head);
      expect(head.jsonLd).toHaveLength(1);
      expect((head.jsonLd[0] as { '@context': string })['@context']).toBe('https://schema.org');
      const [organization] = nodesOfType(graph, 'Organization');
      expect(organization).toMatchObject({
        '@id': `${SITE_URL}/#organization`,
        name: 'Premier AI Consulting',
        url: `${SITE_URL}/`,
        email: site.contact.email,
      });
      expect(nodesOfType(graph, 'WebSite')[0]).toMatchObject({
        '@id': `${SITE_URL}/#website`,
        url: `${SITE_URL}/`,
        publisher: { '@id': `${SITE_URL}/#organization` },
      });
      const webPage = graph.find((n) => n['@id'] === canonical)!;
      expect(webPage).toMatchObject({ url: canonical, name: head.title, isPartOf: { '@id': `${SITE_URL}/#website` } });

      const breadcrumbs = nodesOfType(graph, 'BreadcrumbList');
      if (route.path === '/') {
        expect(breadcrumbs).toEqual([]);
      } else {
        const items = breadcrumbs[0]!.itemListElement as { '@type': string; position: number; name: string; item: string }[];
        expect(items[0]).toEqual({ '@type': 'ListItem', position: 1, name: 'Home', item: `${SITE_URL}/` });
        expect(items.at(-1)!.item).toBe(canonical);
        expect(items.map((i) => i.position)).toEqual(items.map((_, index) => index + 1));
        expect(webPage.breadcrumb).toEqual({ '@id': breadcrumbs[0]!['@id'] });
      }
    });
  }

  test('/faqs is an FAQPage whose questions are the ones on the page', async ({ page, request }) => {
    await page.goto('/faqs');
    const questions = (await page.locator('main h3, main button[aria-expanded], main summary').allTextContents()).map((t) => t.trim());
    const faqPage = nodesOfType(graphOf(await headOf(page, request, '/faqs')), 'FAQPage')[0]!;
    const entities = faqPage.mainEntity as { '@type': string; name: string; acceptedAnswer: { '@type': string; text: string } }[];
    expect(entities.length).toBeGreaterThanOrEqual(10);
    for (const entity of entities) {
      expect(entity['@type']).toBe('Question');
      expect(questions.some((q) => q.includes(entity.name))).toBe(true);
      expect(entity.acceptedAnswer).toMatchObject({ '@type': 'Answer' });
      expect(entity.acceptedAnswer.text.length).toBeGreaterThan(40);
    }
  });

  test('an article is a BlogPosting with headline, dates, author and images', async ({ page, request }) => {
    await page.goto(ARTICLE);
    const h1 = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    const posting = nodesOfType(graphOf(await headOf(page, request, ARTICLE)), 'BlogPosting')[0]!;
    expect(posting).toMatchObject({
      headline: h1,
      url: canonicalOf(ARTICLE),
      mainEntityOfPage: { '@id': canonicalOf(ARTICLE) },
      publisher: { '@id': `${SITE_URL}/#organization` },
    });
    expect(posting.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((posting.author as { '@type': string; name: string })['@type']).toBe('Person');
    expect(posting.image).toContain(`${SITE_URL}/og${ARTICLE}.png`);
  });

  test('/voice-ai describes the voice plans as a Service with an Offer per plan', async ({ page, request }) => {
    const service = nodesOfType(graphOf(await headOf(page, request, '/voice-ai')), 'Service')[0]!;
    expect(service.provider).toEqual({ '@id': `${SITE_URL}/#organization` });
    const offers = service.offers as { '@type': string; name: string; price: number; priceCurrency: string }[];
    expect(offers.map((o) => [o['@type'], o.name, o.price, o.priceCurrency])).toEqual([
      ['Offer', 'Starter', 299, 'USD'],
      ['Offer', 'SMB', 549, 'USD'],
      ['Offer', 'Growth', 999, 'USD'],
      ['Offer', 'Enterprise', 1749, 'USD'],
    ]);
  });

  test('the Organization logo and the favicon are served', async ({ request }) => {
    const logo = await request.get('/og/logo.png');
    expect(logo.status()).toBe(200);
    expect(pngSize(await logo.body())).toEqual({ width: 512, height: 512 });
    const favicon = await request.get('/favicon.svg');
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()['content-type']).toContain('image/svg+xml');
  });
});

/** Parses XML in the browser; fails on any parser error. */
async function parseXml(page: Page, xml: string) {
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml');
    const error = doc.querySelector('parsererror')?.textContent ?? null;
    const text = (element: Element, name: string) => element.getElementsByTagName(name)[0]?.textContent ?? null;
    return {
      error,
      root: doc.documentElement.nodeName,
      namespace: doc.documentElement.namespaceURI,
      urls: [...doc.getElementsByTagName('url')].map((u) => ({ loc: text(u, 'loc'), lastmod: text(u, 'lastmod') })),
      channel: doc.querySelector('channel')
        ? {
            title: text(doc.querySelector('channel')!, 'title'),
            link: text(doc.querySelector('channel')!, 'link'),
            description: text(doc.querySelector('channel')!, 'description'),
          }
        : null,
      items: [...doc.getElementsByTagName('item')].map((i) => ({
        title: text(i, 'title'),
        link: text(i, 'link'),
        guid: text(i, 'guid'),
        pubDate: text(i, 'pubDate'),
        description: text(i, 'description'),
      })),
    };
  }, xml);
}

test.describe('sitemap, robots and feed', () => {
  test('sitemap.xml lists every public route once, and neither /thankyou nor a 404 page', async ({ page, request }) => {
    const response = await request.get('/sitemap.xml');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/xml/);
    await page.goto('about:blank');
    const sitemap = await parseXml(page, await response.text());
    expect(sitemap.error).toBeNull();
    expect(sitemap.root).toBe('urlset');
    expect(sitemap.namespace).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = sitemap.urls.map((u) => u.loc);
    expect(new Set(locs).size).toBe(locs.length);
    const expected = ROUTES.filter((r) => r.path !== '/thankyou').map((r) => canonicalOf(r.path));
    for (const url of expected) expect(locs).toContain(url);
    expect(locs).not.toContain(canonicalOf('/thankyou'));
    for (const loc of locs) {
      expect(loc!.startsWith(SITE_URL)).toBe(true);
      const answer = await request.get(new URL(loc!).pathname);
      expect(answer.status(), `${loc} answers 200`).toBe(200);
      expect(await answer.text(), `${loc} is indexable`).not.toContain('name="robots" content="noindex');
    }
    for (const { lastmod } of sitemap.urls) if (lastmod) expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test('robots.txt allows crawling and points to the sitemap', async ({ request }) => {
    const response = await request.get('/robots.txt');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/plain/);
    const lines = (await response.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).not.toContain('Disallow: /');
    expect(lines).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`);
  });

  test('the RSS feed lists every article, newest first, and blog pages link to it', async ({ page, request }) => {
    const response = await request.get('/blog/rss.xml');
    expect(response.status()).toBe(200);
    await page.goto('about:blank');
    const feed = await parseXml(page, await response.text());
    expect(feed.error).toBeNull();
    expect(feed.root).toBe('rss');
    expect(feed.channel).toMatchObject({ link: canonicalOf('/blog') });
    expect(feed.channel!.title!.length).toBeGreaterThan(0);
    expect(feed.items).toHaveLength(6);
    const dates = feed.items.map((i) => Date.parse(i.pubDate!));
    expect(dates.every(Number.isFinite)).toBe(true);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    for (const item of feed.items) {
      expect(item.guid).toBe(item.link);
      expect((await request.get(new URL(item.link!).pathname)).status()).toBe(200);
      expect(item.description!.length).toBeGreaterThan(20);
    }

    for (const path of ['/blog', ARTICLE]) {
      const alternate = (await headOf(page, request, path)).links.find((l) => l.rel === 'alternate');
      expect(alternate, `${path} links the feed`).toMatchObject({ type: 'application/rss+xml', href: '/blog/rss.xml' });
    }
    expect((await headOf(page, request, '/about')).links.some((l) => l.rel === 'alternate')).toBe(false);
  });
});

test("client-side navigation brings the next page's head: title, canonical, Open Graph, feed link, JSON-LD", async ({ page }) => {
  await page.goto('/faqs');
  await waitForHydration(page);
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog', exact: true }).click();
  await expect(page).toHaveURL('/blog');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonicalOf('/blog'));
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', `${SITE_URL}/og/blog.png`);
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', '/blog/rss.xml');
  // The blog's own structured data replaces the FAQs page's, which would describe the wrong page now.
  await expect(page.locator('script[type="application/ld+json"][data-canonical]')).toHaveCount(1);
  await expect(page.locator('script[type="application/ld+json"][data-canonical]')).toHaveAttribute('data-canonical', canonicalOf('/blog'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About', exact: true }).click();
  await expect(page).toHaveURL('/about');
  await expect(page.locator('link[rel="alternate"]')).toHaveCount(0);
});
