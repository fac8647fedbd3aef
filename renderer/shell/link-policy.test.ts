import { describe, expect, it } from 'vitest';
import { clientNavigationTarget, isPlainClick, type LinkFacts } from './link-policy.ts';

const current = new URL('https://example.com/about?x=1');
const link = (href: string, facts: Partial<LinkFacts> = {}): LinkFacts => ({
  href,
  target: '',
  download: false,
  fullLoad: false,
  ...facts,
});
const target = (href: string, facts?: Partial<LinkFacts>) => clientNavigationTarget(link(href, facts), current)?.href ?? null;

describe('which links navigate inside the page', () => {
  it('takes pages of the site, relative or absolute, with their query and anchor', () => {
    expect(target('/services')).toBe('https://example.com/services');
    expect(target('services')).toBe('https://example.com/services');
    expect(target('https://example.com/blog/post?ref=a#intro')).toBe('https://example.com/blog/post?ref=a#intro');
    expect(target('/faqs#pricing')).toBe('https://example.com/faqs#pricing');
    expect(target('/legal/terms.html')).toBe('https://example.com/legal/terms.html');
  });

  it('takes the page that is shown without an anchor (shown again from the top)', () => {
    expect(target('/about?x=1')).toBe('https://example.com/about?x=1');
    expect(target('/about')).toBe('https://example.com/about');
  });

  it('leaves anchors on the shown page to the browser', () => {
    expect(target('#team')).toBeNull();
    expect(target('/about?x=1#team')).toBeNull();
  });

  it('leaves other sites, other schemes, files, new tabs, downloads and full-load links to the browser', () => {
    expect(target('https://other.example/about')).toBeNull();
    expect(target('http://example.com/about')).toBeNull();
    expect(target('mailto:hello@example.com')).toBeNull();
    expect(target('tel:+15550100')).toBeNull();
    expect(target('/feed.xml')).toBeNull();
    expect(target('/images/team.webp')).toBeNull();
    expect(target('/services', { target: '_blank' })).toBeNull();
    expect(target('/services', { target: '_self' })).toBe('https://example.com/services');
    expect(target('/price-list', { download: true })).toBeNull();
    expect(target('/calculator', { fullLoad: true })).toBeNull();
  });

  it('refuses an href that is not a URL', () => {
    expect(target('http://[::1')).toBeNull();
  });
});

describe('which clicks the page takes', () => {
  it('a plain primary click only', () => {
    expect(isPlainClick({ button: 0, modifierKey: false, defaultPrevented: false })).toBe(true);
    expect(isPlainClick({ button: 1, modifierKey: false, defaultPrevented: false })).toBe(false);
    expect(isPlainClick({ button: 0, modifierKey: true, defaultPrevented: false })).toBe(false);
    expect(isPlainClick({ button: 0, modifierKey: false, defaultPrevented: true })).toBe(false);
  });
});
