// Structured data (JSON-LD) for each prerendered route, from the same content the page shows.
// Every node is typed with schema-dts (the schema.org vocabulary as TypeScript), so a property or
// value type schema.org does not define fails `tsc`. One @graph per page:
//   all pages      Organization, WebSite, and the page itself (WebPage, or FAQPage with its questions)
//   inner pages    BreadcrumbList
//   articles       BlogPosting
//   pricing tables Service with one Offer per plan
import type {
  BlogPosting,
  BreadcrumbList,
  Graph,
  ListItem,
  Offer,
  Organization,
  Question,
  Service,
  Thing,
  WebPage,
  WebSite,
} from 'schema-dts';
import type { FaqListBlock, PricingTableBlock, SiteContent } from '../../generated/content-types.ts';
import { BLOG_PATH, canonicalUrl, ogImagePath } from '../../renderer/head-tags.ts';
import { LOGO_IMAGE_SIZE, OG_IMAGE_SIZE } from '../../brand-pictures/og-image.ts';
import { linkLabelFor, type SeoPage } from './seo-pages.ts';

export type JsonLdContext = {
  site: SiteContent;
  siteUrl: string;
  /** Every public route by path, to name breadcrumb steps. */
  pagesByPath: ReadonlyMap<string, SeoPage>;
};

export const LOGO_PATH = '/og/logo.png';
/** Schema default of a pricing plan's `period` (blocks/pricing-table). */
const DEFAULT_PLAN_PERIOD = '/month';
// UN/CEFACT codes schema.org uses for unitCode.
const PERIOD_UNIT_CODES: Record<string, string> = { '/month': 'MON', '/year': 'ANN', '/week': 'WEE', '/day': 'DAY' };

const ids = (siteUrl: string) => ({ organization: `${siteUrl}/#organization`, website: `${siteUrl}/#website` });

export function buildJsonLd(seoPage: SeoPage, context: JsonLdContext): Graph {
  const { site, siteUrl } = context;
  const url = canonicalUrl(siteUrl, seoPage.path);
  const language = site.seo.locale.replace('_', '-');
  const id = ids(siteUrl);
  const faqs = seoPage.page.blocks.filter((b): b is FaqListBlock => b.type === 'faq-list');
  const pricing = seoPage.page.blocks.filter((b): b is PricingTableBlock => b.type === 'pricing-table');
  const breadcrumb = seoPage.path === '/' ? undefined : buildBreadcrumbs(seoPage, context);

  const webPage: WebPage = {
    '@type': faqs.length > 0 ? 'FAQPage' : 'WebPage',
    '@id': url,
    url,
    name: seoPage.title,
    description: seoPage.description,
    inLanguage: language,
    isPartOf: { '@id': id.website },
    primaryImageOfPage: {
      '@type': 'ImageObject',
      url: `${siteUrl}${ogImagePath(seoPage.path)}`,
      width: `${OG_IMAGE_SIZE.width}`,
      height: `${OG_IMAGE_SIZE.height}`,
    },
    ...(breadcrumb ? { breadcrumb: { '@id': breadcrumb['@id'] as string } } : {}),
    ...(faqs.length > 0 ? { mainEntity: faqs.flatMap(buildQuestions) } : {}),
  };

  const nodes: Thing[] = [buildOrganization(site, siteUrl), buildWebSite(site, siteUrl, language), webPage];
  if (breadcrumb) nodes.push(breadcrumb);
  if (seoPage.post) nodes.push(buildBlogPosting(seoPage, url, context, language));
  pricing.forEach((block, index) => nodes.push(buildService(seoPage, block, url, id.organization, pricing.length > 1 ? index : undefined)));
  return { '@context': 'https://schema.org', '@graph': nodes };
}

/** Organization and WebSite alone, for the not-found screens. */
export function buildSiteJsonLd({ site, siteUrl }: Pick<JsonLdContext, 'site' | 'siteUrl'>): Graph {
  return {
    '@context': 'https://schema.org',
    '@graph': [buildOrganization(site, siteUrl), buildWebSite(site, siteUrl, site.seo.locale.replace('_', '-'))],
  };
}

/** The <script> for the page head. `data-canonical` lets the browser drop a page's data after navigating to another page. */
export function renderJsonLdScript(graph: Graph, canonical?: string): string {
  const attribute = canonical === undefined ? '' : ` data-canonical="${canonical.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  return `<script type="application/ld+json"${attribute}>${serializeForScript(graph)}</script>`;
}

export function buildOrganization(site: SiteContent, siteUrl: string): Organization {
  const { company, contact, footer } = site;
  const sameAs = (footer.social ?? []).map((link) => link.href);
  return {
    '@type': 'Organization',
    '@id': ids(siteUrl).organization,
    name: company.name,
    alternateName: company.shortName,
    description: company.tagline,
    url: `${siteUrl}/`,
    logo: { '@type': 'ImageObject', url: `${siteUrl}${LOGO_PATH}`, width: `${LOGO_IMAGE_SIZE.width}`, height: `${LOGO_IMAGE_SIZE.height}` },
    ...(company.founded ? { foundingDate: String(company.founded) } : {}),
    email: contact.email,
    telephone: contact.phoneHref,
    address: contact.address,
    contactPoint: { '@type': 'ContactPoint', contactType: 'sales', email: contact.email, telephone: contact.phoneHref },
    ...(sameAs.length > 0 ? { sameAs } : {}),
  };
}

function buildWebSite(site: SiteContent, siteUrl: string, language: string): WebSite {
  return {
    '@type': 'WebSite',
    '@id': ids(siteUrl).website,
    url: `${siteUrl}/`,
    name: site.company.name,
    description: site.company.tagline,
    inLanguage: language,
    publisher: { '@id': ids(siteUrl).organization },
  };
}

/** Home › each parent that is a page › this page. */
export function buildBreadcrumbs(seoPage: SeoPage, { site, siteUrl, pagesByPath }: JsonLdContext): BreadcrumbList {
  const segments = seoPage.path.split('/').filter(Boolean);
  const steps = [{ path: '/', name: linkLabelFor('/', site) ?? site.company.name }];
  segments.forEach((_, index) => {
    const path = `/${segments.slice(0, index + 1).join('/')}`;
    const page = pagesByPath.get(path);
    if (!page) return;
    steps.push({ path, name: path === seoPage.path ? page.name : (linkLabelFor(path, site) ?? page.name) });
  });
  const url = canonicalUrl(siteUrl, seoPage.path);
  return {
    '@type': 'BreadcrumbList',
    '@id': `${url}#breadcrumb`,
    itemListElement: steps.map((step, index): ListItem => ({
      '@type': 'ListItem',
      position: index + 1,
      name: step.name,
      item: canonicalUrl(siteUrl, step.path),
    })),
  };
}

function buildQuestions(block: FaqListBlock): Question[] {
  return block.categories.flatMap((category) =>
    category.items.map((item): Question => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: markdownToText(item.answer) },
    })),
  );
}

function buildBlogPosting(seoPage: SeoPage, url: string, { site, siteUrl }: JsonLdContext, language: string): BlogPosting {
  const { meta } = seoPage.post!;
  const minutes = Number(meta.readTime.match(/\d+/)?.[0]);
  return {
    '@type': 'BlogPosting',
    '@id': `${url}#article`,
    headline: meta.title,
    description: meta.excerpt,
    url,
    mainEntityOfPage: { '@id': url },
    image: [`${siteUrl}${ogImagePath(seoPage.path)}`, `${siteUrl}${meta.image}`],
    datePublished: meta.date,
    dateModified: meta.date,
    author: { '@type': 'Person', name: meta.author },
    publisher: { '@id': ids(siteUrl).organization },
    articleSection: meta.category,
    inLanguage: language,
    isPartOf: {
      '@type': 'Blog',
      '@id': `${canonicalUrl(siteUrl, BLOG_PATH)}#blog`,
      name: site.company.name,
      url: canonicalUrl(siteUrl, BLOG_PATH),
    },
    ...(Number.isFinite(minutes) && minutes > 0 ? { timeRequired: `PT${minutes}M` } : {}),
  };
}

function buildService(seoPage: SeoPage, block: PricingTableBlock, url: string, organizationId: string, index: number | undefined): Service {
  const anchor = block.id ? `${url}#${block.id}` : url;
  return {
    '@type': 'Service',
    '@id': `${url}#service${index === undefined ? '' : `-${index + 1}`}`,
    name: seoPage.name,
    serviceType: seoPage.name,
    description: seoPage.description,
    url: anchor,
    provider: { '@id': organizationId },
    offers: block.plans.map((plan): Offer => {
      const period = plan.period ?? DEFAULT_PLAN_PERIOD;
      const unitCode = PERIOD_UNIT_CODES[period];
      const startsAt = plan.pricePrefix !== undefined;
      return {
        '@type': 'Offer',
        name: plan.name,
        description: plan.description,
        url: anchor,
        price: plan.priceUsd,
        priceCurrency: 'USD',
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          // "from $1,749": the plan's lowest price, confirmed in a quote.
          ...(startsAt ? { minPrice: plan.priceUsd } : { price: plan.priceUsd }),
          priceCurrency: 'USD',
          ...(unitCode
            ? { unitCode, referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode } }
            : { unitText: period.replace(/^\//, '') }),
        },
      };
    }),
  };
}

/** Plain text of a short Markdown answer: links keep their text, emphasis and list markers go. */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, '\n')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\n]+)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?)/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** JSON inside <script>: nothing in it can close the element or start markup. */
function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
