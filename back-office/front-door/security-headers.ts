// The security headers of every app on this floor (the site, the console, the studio), written by
// @fastify/helmet on every answer (pages, the API, pictures, not-found and error answers): a
// Content-Security-Policy, no MIME sniffing, a referrer policy, no framing by other sites, a closed
// browsing context group and, where the app says so, HSTS. Each app states its own strict policy
// (`StrictPolicy`); helmet's other defaults are switched off, so an app sends exactly the headers its
// policy names and nothing it did not choose. Helmet joins the policy's directives with ';'.
// Cache-Control is no header helmet knows: it is set here, `no-store` unless a route chose its own
// (or the app keeps its own caching, as the site does), so nothing a back-office answer holds is
// kept by a cache.
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export type StrictPolicy = {
  /** The Content-Security-Policy's directives, each with its sources (none for a bare directive). */
  readonly csp: Readonly<Record<string, readonly string[]>>;
  readonly referrerPolicy: 'no-referrer' | 'same-origin' | 'strict-origin-when-cross-origin';
  readonly frameOptions: 'deny' | 'sameorigin';
  /** Strict-Transport-Security, for an app served over https only; none when absent. */
  readonly hsts?: { readonly maxAgeSeconds: number; readonly includeSubDomains: boolean };
};

/** Helmet's options for `policy`, with every header the policy does not name switched off. */
export function helmetOptionsFor(policy: StrictPolicy): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: Object.fromEntries(Object.entries(policy.csp).map(([name, sources]) => [name, [...sources]])),
    },
    referrerPolicy: { policy: policy.referrerPolicy },
    xFrameOptions: { action: policy.frameOptions },
    xContentTypeOptions: true,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: policy.hsts
      ? { maxAge: policy.hsts.maxAgeSeconds, includeSubDomains: policy.hsts.includeSubDomains, preload: false }
      : false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  };
}

/**
 * The headers helmet writes for `policy`, by name (lower case), as they go out. For what no hook
 * sees (an answer written on the raw response or straight to the socket before routing) and for a
 * narrower scope that lays its own policy over the app's (the console's), so those carry exactly
 * helmet's values rather than a second spelling of them.
 */
export function headersOf(policy: StrictPolicy): PolicyHeaders {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
      return recorder;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptionsFor(policy))({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers as PolicyHeaders;
}

/**
 * The headers helmet writes for `policy`, with `no-store`, as one object: for an answer Fastify gives
 * before any hook runs (a URL it cannot decode, a path parameter over its length limit), which
 * helmet's onRequest hook never sees, and which must still carry the app's policy.
 */
export function policyHeaders(policy: StrictPolicy): Record<string, string> {
  return { ...headersOf(policy), 'cache-control': 'no-store' };
}

/** The headers a `StrictPolicy` gives, by their lower-case names. */
export type PolicyHeaders = {
  readonly 'content-security-policy': string;
  readonly 'x-content-type-options': string;
  readonly 'referrer-policy': string;
  readonly 'x-frame-options': string;
  readonly 'cross-origin-opener-policy': string;
  readonly 'strict-transport-security'?: string;
};

export type SecurityHeadersOptions = {
  policy: StrictPolicy;
  /** `no-store` (the default): every answer without its own Cache-Control gets `no-store`; `routes`: each route sets its own. */
  cacheControl?: 'no-store' | 'routes';
};

const securityHeaders: FastifyPluginAsync<SecurityHeadersOptions> = async (app, { policy, cacheControl = 'no-store' }) => {
  // Written in onRequest, before any other hook can answer: a route that sets its own, stricter
  // Content-Security-Policy (pictures do) replaces it when its answer is sent.
  // @fastify/helmet names helmet's option types through its CommonJS typings, the same shapes.
  await app.register(fastifyHelmet, helmetOptionsFor(policy) as FastifyHelmetOptions);
  if (cacheControl === 'no-store')
    app.addHook('onSend', async (_request, reply, payload) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });
};

// Not encapsulated: the headers cover every route of the app and its not-found and error answers.
export const securityHeadersPlugin = fp(securityHeaders, { name: 'back-office-security-headers', fastify: '5.x' });
