import { describe, expect, it } from 'vitest';
import { pageAddressProblem } from './addresses.ts';

const context = { articleSlugs: new Set(['what-is-ai-consulting', 'draft-article']) };

describe('pageAddressProblem', () => {
  it.each([
    ['/api', 'The address "/api" is used by the site\'s server (the lead form sends to it): choose another, such as "/api-services".'],
    [
      '/api/leads',
      'The address "/api/leads" is used by the site\'s server (the lead form sends to it): choose another, such as "/api-services/leads".',
    ],
    [
      '/console',
      'The address "/console" is used by the team\'s console (signed-in people only, kept out of search engines): choose another, such as "/team".',
    ],
    [
      '/console/leads',
      'The address "/console/leads" is used by the team\'s console (signed-in people only, kept out of search engines): choose another, such as "/team/leads".',
    ],
    [
      '/healthz',
      'The address "/healthz" is used by the site\'s server (it tells the hosting that the site is up): choose another, such as "/health".',
    ],
    ['/assets', 'The address "/assets" is used by the site\'s scripts and styles: choose another, such as "/resources".'],
    ['/assets/shell', 'The address "/assets/shell" is used by the site\'s scripts and styles: choose another, such as "/resources/shell".'],
    ['/images', 'The address "/images" is used by the site\'s pictures: choose another, such as "/gallery".'],
    ['/images/team', 'The address "/images/team" is used by the site\'s pictures: choose another, such as "/gallery/team".'],
    ['/og', 'The address "/og" is used by the pictures shown when a page is shared: choose another, such as "/overview".'],
    [
      '/og/about',
      'The address "/og/about" is used by the pictures shown when a page is shared: choose another, such as "/overview/about".',
    ],
    ['/blog/what-is-ai-consulting', 'The address "/blog/what-is-ai-consulting" is already the address of an article: choose another.'],
    ['/blog/draft-article', 'The address "/blog/draft-article" is already the address of an article: choose another.'],
    [
      '/:x',
      'The address "/:x" has a part starting with ":", which only the page that shows each article may have: write the address out, such as "/x".',
    ],
    [
      '/blog/:id',
      'The address "/blog/:id" has a part starting with ":", which only the page that shows each article may have: write the address out, such as "/blog/id".',
    ],
    [
      '/news/:slug',
      'The address "/news/:slug" has a part starting with ":", which only the page that shows each article may have: write the address out, such as "/news/slug".',
    ],
  ])('refuses %s in plain words', (address, message) => {
    expect(pageAddressProblem(address, context)).toBe(message);
  });

  it.each([
    '/',
    '*',
    '/blog/:slug',
    '/about',
    '/blog',
    '/api-services',
    '/apis',
    '/healthz-report',
    '/ogre',
    '/imagery',
    '/blog/another-topic',
    '/blog/what-is-ai-consulting/more',
  ])('accepts %s', (address) => {
    expect(pageAddressProblem(address, context)).toBeUndefined();
  });
});
