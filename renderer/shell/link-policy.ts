// Which link clicks the page shell turns into client-side navigation. Everything else stays with the
// browser: other sites, new tabs, downloads, files, anchors on the same page and links marked for a
// full page load.

export type LinkFacts = {
  /** The link's href attribute as written. */
  readonly href: string;
  readonly target: string;
  readonly download: boolean;
  readonly fullLoad: boolean;
};

export type ClickFacts = {
  readonly button: number;
  readonly modifierKey: boolean;
  readonly defaultPrevented: boolean;
};

/** A click the browser would use to open a link somewhere else (new tab, window, download). */
export function isPlainClick(click: ClickFacts): boolean {
  return click.button === 0 && !click.modifierKey && !click.defaultPrevented;
}

/** The address to show without a page load, or null when the browser should follow the link itself. */
export function clientNavigationTarget(link: LinkFacts, current: URL): URL | null {
  if ((link.target !== '' && link.target !== '_self') || link.download || link.fullLoad) return null;
  let url: URL;
  try {
    url = new URL(link.href, current);
  } catch {
    return null;
  }
  if (url.origin !== current.origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  // An anchor on the page that is shown: the browser scrolls to it and keeps the history.
  if (url.pathname === current.pathname && url.search === current.search && url.hash !== '') return null;
  // A file (feed, sitemap, image, PDF) is not a page of the site.
  if (/\.[a-z0-9]+$/i.test(url.pathname) && !url.pathname.endsWith('.html')) return null;
  return url;
}
