// What the studio calls a page, and where it lists it: the way people on the team call it, not its
// search-engine title. A page is named by its label in the header navigation, else its label in the
// footer, else its first heading, else its title; the home page comes first, then the pages in the
// header's order, then the footer's, then the rest by name, and a template (an address with a
// `:slug`, which no visitor reaches as such) last, named as one.
import { linkedAddress } from '../../content-model/links.ts';
import { isRecord } from '../../content-model/values.ts';

export type SiteLinks = {
  /** Labels by address, in the order the site shows them: the header's first, then the footer's. */
  readonly labels: ReadonlyMap<string, string>;
  readonly order: readonly string[];
};

/** The site's header and footer links, read from site settings as they stand (nothing when they do not parse). */
export function siteLinks(site: unknown): SiteLinks {
  const labels = new Map<string, string>();
  const add = (link: unknown) => {
    if (!isRecord(link) || typeof link.href !== 'string' || typeof link.label !== 'string' || !link.label.trim()) return;
    const address = linkedAddress(link.href);
    if (address !== undefined && !labels.has(address)) labels.set(address, link.label.trim());
  };
  if (isRecord(site)) {
    if (Array.isArray(site.navigation)) site.navigation.forEach(add);
    const footer = site.footer;
    if (isRecord(footer) && Array.isArray(footer.groups)) {
      for (const group of footer.groups) if (isRecord(group) && Array.isArray(group.links)) group.links.forEach(add);
    }
  }
  return { labels, order: [...labels.keys()] };
}

const isTemplate = (address: string | undefined) => address !== undefined && address.includes(':');

/** The page's name in the studio. */
export function pageName(page: { address?: string; title: string; data: unknown }, links: SiteLinks): string {
  if (isTemplate(page.address)) return `${page.title} template (${page.address})`;
  const label = page.address === undefined ? undefined : links.labels.get(linkedAddress(page.address) ?? page.address);
  return label ?? firstHeading(page.data) ?? page.title;
}

/** Sorts pages as the site shows them (see the top of this file). */
export function comparePages(links: SiteLinks) {
  const rank = (page: { address?: string }) => {
    if (isTemplate(page.address)) return Number.MAX_SAFE_INTEGER;
    if (page.address === undefined) return Number.MAX_SAFE_INTEGER - 1;
    const address = linkedAddress(page.address) ?? page.address;
    if (address === '/') return -1;
    const index = links.order.indexOf(address);
    return index === -1 ? Number.MAX_SAFE_INTEGER - 1 : index;
  };
  return (a: { address?: string; name: string }, b: { address?: string; name: string }) =>
    rank(a) - rank(b) || a.name.localeCompare(b.name, 'en');
}

function firstHeading(data: unknown): string | undefined {
  if (!isRecord(data) || !Array.isArray(data.blocks)) return undefined;
  for (const block of data.blocks) {
    if (isRecord(block) && typeof block.heading === 'string' && block.heading.trim()) return block.heading.trim();
  }
  return undefined;
}
