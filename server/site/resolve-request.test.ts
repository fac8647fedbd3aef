import { describe, expect, it } from 'vitest';
import { CACHE_CONTROL, resolveSiteRequest } from './resolve-request.ts';
import type { SiteBuild } from './site-build.ts';

const build: SiteBuild = {
  clientDir: '/srv/dist/client',
  pages: new Map([
    ['/', 'index.html'],
    ['/about', 'about/index.html'],
    ['/blog', 'blog/index.html'],
    ['/blog/what-is-ai-consulting', 'blog/what-is-ai-consulting/index.html'],
    ['/café', 'café/index.html'],
  ]),
  pageFileRoutes: new Map([
    ['/index.html', '/'],
    ['/about/index.html', '/about'],
    ['/blog/index.html', '/blog'],
    ['/blog/what-is-ai-consulting/index.html', '/blog/what-is-ai-consulting'],
    ['/café/index.html', '/café'],
  ]),
  files: new Set(['/assets/entry-client-3f9a2c1b.js', '/robots.txt', '/images/team photo.png', '/build.json']),
  notFound: '404.html',
  notFoundByPrefix: [
    ['/blog/drafts/', 'blog/drafts/404.html'],
    ['/blog/', 'blog/404.html'],
  ],
};

const page = (file: string) => ({ kind: 'document', statusCode: 200, file });
const notFound = (file: string) => ({ kind: 'document', statusCode: 404, file });
const redirect = (location: string) => ({ kind: 'redirect', location });
const file = (path: string, cacheControl: string) => ({ kind: 'file', file: path, cacheControl });

describe('resolveSiteRequest', () => {
  it.each([
    ['/', page('index.html')],
    ['/?utm_source=news', page('index.html')],
    ['/about', page('about/index.html')],
    ['/blog/what-is-ai-consulting', page('blog/what-is-ai-consulting/index.html')],
    ['/caf%C3%A9', page('café/index.html')],
    ['/about/', redirect('/about')],
    ['/about/?utm_source=news&x=1', redirect('/about?utm_source=news&x=1')],
    ['/about/index.html', redirect('/about')],
    ['/index.html?a=b', redirect('/?a=b')],
    ['/caf%C3%A9/', redirect('/caf%C3%A9')],
    ['/assets/entry-client-3f9a2c1b.js', file('assets/entry-client-3f9a2c1b.js', CACHE_CONTROL.hashedAsset)],
    ['/robots.txt', file('robots.txt', CACHE_CONTROL.file)],
    ['/build.json', file('build.json', 'no-cache')],
    ['/build.json?t=1', file('build.json', 'no-cache')],
    ['/images/team%20photo.png', file('images/team photo.png', CACHE_CONTROL.file)],
    ['/nope', notFound('404.html')],
    ['/about//', notFound('404.html')],
    ['/blogger', notFound('404.html')],
    ['/blog/nope', notFound('blog/404.html')],
    ['/blog/drafts/x', notFound('blog/drafts/404.html')],
    ['/assets/missing.js', { kind: 'asset-not-found' }],
    ['/assets/entry-client-3f9a2c1b.js.br', { kind: 'asset-not-found' }],
  ])('GET %s', (url, expected) => {
    expect(resolveSiteRequest(build, 'GET', url)).toEqual(expected);
  });

  it.each([
    '/../routes.json',
    '/%2e%2e/routes.json',
    '/assets/..%2f..%2froutes.json',
    '/assets%2fentry-client-3f9a2c1b.js',
    '/robots.txt%00.html',
    '/..%5crobots.txt',
    '/\\robots.txt',
    '/%E0%A4%A',
    '//robots.txt',
    '/./robots.txt',
  ])('never maps %s to a file', (url) => {
    expect(resolveSiteRequest(build, 'GET', url)).toEqual(notFound('404.html'));
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('answers %s on existing resources with 405', (method) => {
    for (const url of ['/', '/about', '/about/', '/robots.txt']) {
      expect(resolveSiteRequest(build, method, url)).toEqual({ kind: 'method-not-allowed' });
    }
    expect(resolveSiteRequest(build, method, '/nope')).toEqual(notFound('404.html'));
  });

  it('treats HEAD like GET', () => {
    expect(resolveSiteRequest(build, 'HEAD', '/about')).toEqual(page('about/index.html'));
  });
});
