// Cross-site form posts are refused. A request may come from the canonical origin
// (SITE_URL) or from the host it was sent to (the Host header), whatever the scheme, so the check
// also holds behind a TLS-terminating proxy. No Origin header: allowed, since browsers send Origin
// with every cross-origin POST (form or fetch), so only same-origin browsers of old and non-browser
// clients (curl, a server-side integration) omit it; `Sec-Fetch-Site: cross-site` is refused even
// then. `Origin: null` (sandboxed frames, some redirects) is refused.

export type OriginRequest = {
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
  readonly host: string | undefined;
  /** SITE_URL without a trailing slash. */
  readonly siteUrl: string | undefined;
};

export function isAllowedOrigin({ origin, secFetchSite, host, siteUrl }: OriginRequest): boolean {
  if (secFetchSite?.toLowerCase() === 'cross-site') return false;
  if (origin === undefined) return true;
  const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return false;
  if (siteUrl !== undefined && URL.canParse(siteUrl) && new URL(siteUrl).origin === parsed.origin) return true;
  return host !== undefined && host.toLowerCase() === parsed.host;
}
