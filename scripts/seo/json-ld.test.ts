import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FaqListBlock, PricingTableBlock } from '../../generated/content-types.ts';
import { loadContent } from '../../content-model/load/load-content.ts';
import { buildJsonLd, buildSiteJsonLd, markdownToText, renderJsonLdScript, type JsonLdContext } from './json-ld.ts';
import { listSeoPages } from './seo-pages.ts';

const SITE_URL = 'https://premieraiconsulting.com';
const content = loadContent({ root: path.resolve(import.meta.dirname, '../..') });
const pages = listSeoPages(content);
const context: JsonLdContext = { site: content.site, siteUrl: SITE_URL, pagesByPath: new Map(pages.map((p) => [p.path, p])) };

type Node = Record<string, unknown> & { '@type': string };
function graphOf(path: string): Node[] {
  const page = context.pagesByPath.get(path);
  if (!page) throw new Error(`no page ${path}`);
  return buildJsonLd(page, context)['@graph'] as unknown as Node[];
}
const nodeOf = (graph: Node[], type: string) => graph.find((node) => node['@type'] === type);

describe('JSON-LD for every public route', () => {
  it.each(pages.map((p) => p.path))('%s has Organization, WebSite and the page, all linked by @id', (path) => {
    const graph = graphOf(path);
    const organization = nodeOf(graph, 'Organization')!;
    expect(organization).toMatchObject({ '@id': `${SITE_URL}/#organization`, name: content.site.company.name, url: `${SITE_URL}/` });
    expect(organization.logo).toMatchObject({ url: `${SITE_URL}/og/logo.png` });
    expect(nodeOf(graph, 'WebSite')).toMatchObject({ '@id': `${SITE_URL}/#website`, publisher: { '@id': `${SITE_URL}/#organization` } });
    const page = graph.find((node) => node['@id'] === `${SITE_URL}${path === '/' ? '/' : path}`)!;
    expect(['WebPage', 'FAQPage']).toContain(page['@type']);
    expect(page.isPartOf).toEqual({ '@id': `${SITE_URL}/#website` });
  });

  it('the home page has no breadcrumbs; inner pages go Home › page, articles Home › Blog › article', () => {
    expect(nodeOf(graphOf('/'), 'BreadcrumbList')).toBeUndefined();
    const names = (path: string) =>
      (nodeOf(graphOf(path), 'BreadcrumbList')!.itemListElement as { name: string; item: string; position: number }[]).map((i) => [
        i.position,
        i.name,
        i.item,
      ]);
    expect(names('/about')).toEqual([
      [1, 'Home', `${SITE_URL}/`],
      [2, 'About Us', `${SITE_URL}/about`],
    ]);
    const article = pages.find((p) => p.post)!;
    expect(names(article.path)).toEqual([
      [1, 'Home', `${SITE_URL}/`],
      [2, 'Blog', `${SITE_URL}/blog`],
      [3, article.post!.meta.title, `${SITE_URL}${article.path}`],
    ]);
  });

  it('the FAQs page is an FAQPage with every question from the faq-list block', () => {
    const faqPage = nodeOf(graphOf('/faqs'), 'FAQPage')!;
    const block = context.pagesByPath.get('/faqs')!.page.blocks.find((b): b is FaqListBlock => b.type === 'faq-list')!;
    const items = block.categories.flatMap((c) => c.items);
    const questions = faqPage.mainEntity as { '@type': string; name: string; acceptedAnswer: { '@type': string; text: string } }[];
    expect(questions.map((q) => q.name)).toEqual(items.map((i) => i.question));
    for (const question of questions) {
      expect(question['@type']).toBe('Question');
      expect(question.acceptedAnswer['@type']).toBe('Answer');
      expect(question.acceptedAnswer.text.length).toBeGreaterThan(20);
      expect(question.acceptedAnswer.text).not.toMatch(/\*\*|\]\(/);
    }
  });

  it('each article is a BlogPosting with its headline, dates, author, images and publisher', () => {
    for (const page of pages.filter((p) => p.post)) {
      const { meta } = page.post!;
      expect(nodeOf(graphOf(page.path), 'BlogPosting')).toMatchObject({
        headline: meta.title,
        description: meta.excerpt,
        datePublished: meta.date,
        author: { '@type': 'Person', name: meta.author },
        publisher: { '@id': `${SITE_URL}/#organization` },
        mainEntityOfPage: { '@id': `${SITE_URL}${page.path}` },
        image: [`${SITE_URL}/og${page.path}.png`, `${SITE_URL}${meta.image}`],
      });
      expect(meta.title.length).toBeLessThanOrEqual(110);
    }
  });

  it('the voice plans are a Service with one Offer per plan, priced in USD per month', () => {
    const service = nodeOf(graphOf('/voice-ai'), 'Service')!;
    const block = context.pagesByPath.get('/voice-ai')!.page.blocks.find((b): b is PricingTableBlock => b.type === 'pricing-table')!;
    expect(service.provider).toEqual({ '@id': `${SITE_URL}/#organization` });
    const offers = service.offers as { name: string; price: number; priceCurrency: string; priceSpecification: Record<string, unknown> }[];
    expect(offers.map((o) => [o.name, o.price, o.priceCurrency])).toEqual(block.plans.map((p) => [p.name, p.priceUsd, 'USD']));
    for (const offer of offers)
      expect(offer.priceSpecification).toMatchObject({ '@type': 'UnitPriceSpecification', priceCurrency: 'USD', unitCode: 'MON' });
    const enterprise = offers.find((o) => o.name === 'Enterprise')!;
    expect(enterprise.priceSpecification).toMatchObject({ minPrice: 1749 });
  });

  it('pages without a pricing table have no Service', () => {
    expect(nodeOf(graphOf('/about'), 'Service')).toBeUndefined();
  });
});

describe('renderJsonLdScript', () => {
  it('is a data block that cannot close its own <script> element', () => {
    const graph = buildSiteJsonLd(context);
    (graph['@graph'][0] as { description: string }).description = '</script><script>alert(1)</script>';
    const html = renderJsonLdScript(graph, `${SITE_URL}/`);
    expect(html.startsWith(`<script type="application/ld+json" data-canonical="${SITE_URL}/">`)).toBe(true);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(html.replace(/^<script[^>]*>|<\/script>$/g, ''))['@graph'][0].description).toBe('</script><script>alert(1)</script>');
  });
});

describe('markdownToText', () => {
  it.each([
    ['For an estimate, try our [ROI calculator](/calculator).', 'For an estimate, try our ROI calculator.'],
    ['- **Discovery session:** complimentary\n- Retainer', 'Discovery session: complimentary\nRetainer'],
    ['1. First\n2. Second', 'First\nSecond'],
    ['Use *emphasis* and `code` and _this_.', 'Use emphasis and code and this.'],
    ['## Heading\n\n> quoted', 'Heading\n\nquoted'],
    ['snake_case_name stays', 'snake_case_name stays'],
  ])('%j → %j', (markdown, text) => {
    expect(markdownToText(markdown)).toBe(text);
  });
});
