import { describe, expect, it } from 'vitest';
import { forEachLink, linkedAddress, replaceLinks } from './links.ts';

describe('linkedAddress', () => {
  it.each([
    ['/about', '/about'],
    ['/about/', '/about'],
    ['/about?ref=nav', '/about'],
    ['/about/#team', '/about'],
    ['/', '/'],
    ['/blog/what-is-ai-consulting', '/blog/what-is-ai-consulting'],
    ['https://example.com/about', undefined],
    ['//example.com/about', undefined],
    ['mailto:hello@example.com', undefined],
    ['booking', undefined],
    ['#top', undefined],
  ])('%s names %s', (href, address) => {
    expect(linkedAddress(href)).toBe(address);
  });
});

describe('replaceLinks', () => {
  it('moves every spelling of a link to the page, keeping its query and part, and nothing else', () => {
    const data = {
      navigation: [{ label: 'About', href: '/about/' }],
      blocks: [
        { type: 'cta', href: '/about?ref=cta' },
        { type: 'cta', href: '/about#team', label: '/about' },
        { type: 'cta', href: '/about-the-founders' },
        { type: 'cta', href: 'https://example.com/about' },
      ],
    };
    expect(replaceLinks(data, '/about', '/about-us')).toEqual({
      navigation: [{ label: 'About', href: '/about-us' }],
      blocks: [
        { type: 'cta', href: '/about-us?ref=cta' },
        { type: 'cta', href: '/about-us#team', label: '/about' },
        { type: 'cta', href: '/about-the-founders' },
        { type: 'cta', href: 'https://example.com/about' },
      ],
    });
  });
});

describe('forEachLink', () => {
  it('finds every href with the way to it', () => {
    const found: [string, readonly (string | number)[]][] = [];
    forEachLink({ footer: { groups: [{ links: [{ href: '/a' }] }] }, blocks: [{ href: '/b' }] }, (href, segments) =>
      found.push([href, segments]),
    );
    expect(found).toEqual([
      ['/a', ['footer', 'groups', 0, 'links', 0, 'href']],
      ['/b', ['blocks', 0, 'href']],
    ]);
  });
});
