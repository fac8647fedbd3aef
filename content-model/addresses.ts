// Which addresses a page may have. The content check and the studio's "change a page's address" both
// ask `pageAddressProblem`, so a page can never take an address something else already answers.

export const NOT_FOUND_PATH = '*';
export const ARTICLE_PATH = '/blog/:slug';
export const BLOG_PREFIX = '/blog/';

/**
 * Addresses the site's server answers or the build writes files to, each with everything under it:
 * a page there would never be shown, or would replace what is there. (The build's files with a dot in
 * their names, such as /robots.txt or /blog/rss.xml, cannot clash: page addresses have no dots.)
 */
export const RESERVED_ADDRESSES: readonly { address: string; usedBy: string; instead: string }[] = [
  { address: '/api', usedBy: "the site's server (the lead form sends to it)", instead: '/api-services' },
  { address: '/console', usedBy: "the team's console (signed-in people only, kept out of search engines)", instead: '/team' },
  { address: '/healthz', usedBy: "the site's server (it tells the hosting that the site is up)", instead: '/health' },
  { address: '/assets', usedBy: "the site's scripts and styles", instead: '/resources' },
  { address: '/images', usedBy: "the site's pictures", instead: '/gallery' },
  { address: '/og', usedBy: 'the pictures shown when a page is shared', instead: '/overview' },
];

/** Why a page cannot have `address`, in plain words; undefined when it can. */
export function pageAddressProblem(address: string, context: { articleSlugs: ReadonlySet<string> }): string | undefined {
  const reserved = RESERVED_ADDRESSES.find((r) => address === r.address || address.startsWith(`${r.address}/`));
  if (reserved) {
    const suggestion = reserved.instead + address.slice(reserved.address.length);
    return `The address "${address}" is used by ${reserved.usedBy}: choose another, such as "${suggestion}".`;
  }
  if (address.startsWith(BLOG_PREFIX) && context.articleSlugs.has(address.slice(BLOG_PREFIX.length))) {
    return `The address "${address}" is already the address of an article: choose another.`;
  }
  // A part starting with ":" stands for any word, which only the article page knows how to fill.
  if (address !== ARTICLE_PATH && address.split('/').some((part) => part.startsWith(':'))) {
    return `The address "${address}" has a part starting with ":", which only the page that shows each article may have: write the address out, such as "${address.replaceAll(':', '')}".`;
  }
  return undefined;
}
