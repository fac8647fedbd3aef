import { BUILD_INFO_PATH } from '../../content-model/load/build-files.ts';
import type { SiteBuild } from './site-build.ts';

// Decides what a request for the static site gets, as a value; the route plugin only carries it out.

export const CACHE_CONTROL = {
  // Pages and not-found pages: always revalidate (ETag / Last-Modified make that a cheap 304).
  document: 'no-cache',
  // Content-hashed names never change meaning.
  hashedAsset: 'public, max-age=31536000, immutable',
  file: 'public, max-age=3600, must-revalidate',
  // What the build was made from: asked for to see whether a deploy has arrived, so never stale.
  buildInfo: 'no-cache',
} as const;

export const HASHED_ASSETS_PREFIX = '/assets/';
export const ALLOWED_METHODS = ['GET', 'HEAD'] as const;

export type SiteResolution =
  | { kind: 'document'; statusCode: 200 | 404; file: string }
  | { kind: 'file'; file: string; cacheControl: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'method-not-allowed' }
  | { kind: 'asset-not-found' };

/** `url` is the raw request target (`/about/?utm_source=x`), still percent-encoded. */
export function resolveSiteRequest(build: SiteBuild, method: string, url: string): SiteResolution {
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart);
  const pathname = decodePathname(rawPath);
  const found = pathname === undefined ? undefined : findResource(build, pathname, query);

  if (found === undefined) return resolveNotFound(build, pathname ?? '');
  if (!isAllowedMethod(method)) return { kind: 'method-not-allowed' };
  return found;
}

function findResource(build: SiteBuild, pathname: string, query: string): SiteResolution | undefined {
  const page = build.pages.get(pathname);
  if (page !== undefined) return { kind: 'document', statusCode: 200, file: page };

  // `/about/` and `/about/index.html` are spellings of `/about`: one canonical URL per page.
  const withoutSlash = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : undefined;
  const route =
    (withoutSlash !== undefined && build.pages.has(withoutSlash) ? withoutSlash : undefined) ?? build.pageFileRoutes.get(pathname);
  if (route !== undefined) return { kind: 'redirect', location: encodeURI(route) + query };

  if (build.files.has(pathname)) {
    const cacheControl = pathname.startsWith(HASHED_ASSETS_PREFIX)
      ? CACHE_CONTROL.hashedAsset
      : pathname === BUILD_INFO_PATH
        ? CACHE_CONTROL.buildInfo
        : CACHE_CONTROL.file;
    return { kind: 'file', file: pathname.slice(1), cacheControl };
  }
  return undefined;
}

function resolveNotFound(build: SiteBuild, pathname: string): SiteResolution {
  // A missing script or stylesheet gets a short plain answer, not a whole HTML page.
  if (pathname.startsWith(HASHED_ASSETS_PREFIX)) return { kind: 'asset-not-found' };
  const byPrefix = build.notFoundByPrefix.find(([prefix]) => pathname.startsWith(prefix));
  return { kind: 'document', statusCode: 404, file: byPrefix?.[1] ?? build.notFound };
}

function isAllowedMethod(method: string): boolean {
  return (ALLOWED_METHODS as readonly string[]).includes(method);
}

// Encoded slashes, backslashes and NUL have no legitimate use in our URLs; refusing them keeps
// one spelling per file. Anything else is decoded and must then match a listed path exactly.
const FORBIDDEN_ENCODINGS = /%(?:2f|5c|00)|\\/i;

function decodePathname(rawPath: string): string | undefined {
  if (FORBIDDEN_ENCODINGS.test(rawPath)) return undefined;
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
}
