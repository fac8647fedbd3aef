// The back office's security headers, written by @fastify/helmet on every answer (pages, the API,
// pictures, not-found and error answers): a Content-Security-Policy, no MIME sniffing, a referrer
// policy, no framing by other sites and a closed browsing context group. Each app states its own
// strict policy (`StrictPolicy`); helmet's other defaults are switched off, so an app sends exactly
// the headers its policy names and nothing it did not choose. Cache-Control is no header helmet
// knows: it is set here, `no-store` unless a route chose its own, so nothing a back-office answer
// holds is kept by a cache.
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export type StrictPolicy = {
  /** The Content-Security-Policy's directives, each with its sources (none for a bare directive). */
  readonly csp: Readonly<Record<string, readonly string[]>>;
  readonly referrerPolicy: 'no-referrer' | 'same-origin' | 'strict-origin-when-cross-origin';
  readonly frameOptions: 'deny' | 'sameorigin';
};

/** Helmet's options for `policy`, with every header the policy does not name switched off. */
export function helmetOptionsFor(policy: StrictPolicy): FastifyHelmetOptions {
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
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  };
}

/**
 * The headers helmet writes for `policy`, with `no-store`, as one object: for an answer Fastify gives
 * before any hook runs (a URL it cannot decode, a path parameter over its length limit), which
 * helmet's onRequest hook never sees, and which must still carry the app's policy.
 */
export function policyHeaders(policy: StrictPolicy): Record<string, string> {
  return {
    'content-security-policy': Object.entries(policy.csp)
      .map(([name, sources]) => [name, ...sources].join(' '))
      .join(';'),
    'x-content-type-options': 'nosniff',
    'referrer-policy': policy.referrerPolicy,
    'x-frame-options': policy.frameOptions.toUpperCase(),
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

export type SecurityHeadersOptions = { policy: StrictPolicy };

const securityHeaders: FastifyPluginAsync<SecurityHeadersOptions> = async (app, { policy }) => {
  // Written in onRequest, before any other hook can answer: a route that sets its own, stricter
  // Content-Security-Policy (pictures do) replaces it when its answer is sent.
  await app.register(fastifyHelmet, helmetOptionsFor(policy));
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
};

// Not encapsulated: the headers cover every route of the app and its not-found and error answers.
export const securityHeadersPlugin = fp(securityHeaders, { name: 'back-office-security-headers', fastify: '5.x' });
