import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { externalOrigin, readCspManifest, type CspManifest } from '../../content-model/load/build-files.ts';
import { headersOf, securityHeadersPlugin, type PolicyHeaders, type StrictPolicy } from '../../back-office/front-door/security-headers.ts';

// Security headers on every response (pages, files, 404s, API, /healthz, Fastify's own errors),
// written by the back office's one security-headers module (@fastify/helmet) with the site's policy.
// Registered first in buildApp.
//
// The Content-Security-Policy comes from what the build actually emits: `npm run build` writes the
// build's CSP manifest (content-model/load/build-files.ts) with the SHA-256 of every inline script
// (the boot loader; router data and JSON-LD are data blocks, which CSP does not govern) and the
// origin of an external lead endpoint.
//
// The booking page (Cal.com or Calendly) may open inside our pages after a lead form is sent: only
// the routes that can show it (those with a lead form, and the thank-you page; the manifest lists
// them) name its origin in `frame-src`. Every other answer keeps framing to our own origin, so a
// page that has no business framing another site cannot be made to.

const HSTS_MAX_AGE_S = 63_072_000; // two years, the preload list's minimum

// Features the site never uses; every name is one Chromium recognises (unknown names log a console error).
export const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
  'browsing-topics',
] as const;

export type SecurityPolicyInput = {
  manifest: CspManifest;
  /** SITE_URL (run-time setting, else the build's): https turns on HSTS and upgrade-insecure-requests. */
  siteUrl: string | undefined;
  /** PUBLIC_LEAD_ENDPOINT as the server sees it, for a deployment that sets it only at run time. */
  leadEndpoint: string | undefined;
};

/** `input` on a route that may show the booking page inside it: `frame-src` names that page's origin. */
export type FramingPolicyInput = SecurityPolicyInput & { frameOrigin?: string | undefined };

/** The site's helmet policy: what the build emits, its lead endpoint, HSTS when served over https. */
export function sitePolicy({ manifest, siteUrl, leadEndpoint, frameOrigin }: FramingPolicyInput): StrictPolicy {
  const https = (siteUrl || manifest.siteUrl).startsWith('https://');
  const leadOrigins = [...new Set([manifest.leadEndpointOrigin, externalOrigin(leadEndpoint)].filter((o): o is string => Boolean(o)))];
  return {
    csp: {
      'default-src': ["'self'"],
      // No 'unsafe-inline' and no 'unsafe-eval': only our own files and the hashed inline scripts run.
      'script-src': ["'self'", ...manifest.scriptHashes],
      // Emotion writes <style> tags at run time (prerendered critical CSS, then styles of components
      // that mount later, and sonner's); a static site cannot give them a per-response nonce, so
      // inline styles are allowed. Styles cannot run code, and every script stays locked down.
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'self'", ...leadOrigins],
      'form-action': ["'self'", ...leadOrigins],
      // Without it, frames fall back to default-src: our own origin only.
      ...(frameOrigin ? { 'frame-src': ["'self'", frameOrigin] } : {}),
      'frame-ancestors': ["'none'"],
      'base-uri': ["'self'"],
      'object-src': ["'none'"],
      ...(https ? { 'upgrade-insecure-requests': [] } : {}),
    },
    referrerPolicy: 'strict-origin-when-cross-origin',
    // Older browsers that ignore frame-ancestors.
    frameOptions: 'deny',
    ...(https ? { hsts: { maxAgeSeconds: HSTS_MAX_AGE_S, includeSubDomains: true } } : {}),
  };
}

/** The Content-Security-Policy of the routes that may frame the booking page, and those routes; none without a booking frame. */
export function bookingFramingHeader(input: SecurityPolicyInput): { routes: ReadonlySet<string>; policy: string } | undefined {
  const frame = input.manifest.bookingFrame;
  if (!frame) return undefined;
  return {
    routes: new Set(frame.routes),
    policy: headersOf(sitePolicy({ ...input, frameOrigin: frame.origin }))['content-security-policy'],
  };
}

/** The decoded path of a request target, without its query; a target that does not decode matches no route. */
function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  const raw = queryStart === -1 ? url : url.slice(0, queryStart);
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

/** Permissions-Policy, a header helmet does not write. */
const PERMISSIONS_POLICY = DENIED_FEATURES.map((feature) => `${feature}=()`).join(', ');

/** The headers every response gets: helmet's for the site's policy, and Permissions-Policy. Pure, so tests can check the policy without a server. */
export function buildSecurityHeaders(input: SecurityPolicyInput): PolicyHeaders & { readonly 'permissions-policy': string } {
  return { ...headersOf(sitePolicy(input)), 'permissions-policy': PERMISSIONS_POLICY };
}

export type SecurityHeadersOptions = { config: Pick<Config, 'distDir' | 'siteUrl' | 'publicLeadEndpoint'> };

const securityHeaders: FastifyPluginAsync<SecurityHeadersOptions> = async (app, { config }) => {
  const manifest = await readCspManifest(config.distDir);
  const input = { manifest, siteUrl: config.siteUrl, leadEndpoint: config.publicLeadEndpoint };
  // Helmet writes the policy on every routed answer (and the not-found ones) in onRequest. The
  // site's pages and files choose their own caching, so no Cache-Control is imposed here.
  await app.register(securityHeadersPlugin, { policy: sitePolicy(input), cacheControl: 'routes' });
  const framing = bookingFramingHeader(input);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // Every answer at the route's own address (its page, a 304 revalidating it, HEAD), so a cached
    // page never takes the narrower policy back from a revalidation.
    if (framing?.routes.has(pathOf(request.url))) reply.header('content-security-policy', framing.policy);
    return payload;
  });

  // What helmet cannot reach, kept here in one place: answers that no hook sees. Fastify answers a
  // few requests itself before any hook runs (a malformed URL: 400, an overlong one: 414, a request
  // while closing: 503). Setting the same headers (helmet's values, `buildSecurityHeaders`) on the
  // raw response first, ahead of Fastify's own listener, covers those too.
  const headers = buildSecurityHeaders(input);
  app.server.prependListener('request', (_request, response) => {
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  });
  // Requests Node cannot even parse (a bad request line, headers over the size limit, a client too
  // slow to finish) never become a request: Fastify's own answer is written straight to the socket,
  // without these headers. Ours replaces it and carries them.
  app.server.removeAllListeners('clientError');
  app.server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    app.log.debug({ err: error }, 'client error answered before routing');
    if (socket.writable) socket.write(formatClientErrorResponse(error.code, headers));
    socket.destroy();
  });
};

const CLIENT_ERRORS: Readonly<Record<string, { status: number; message: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Client Timeout' },
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Exceeded maximum allowed HTTP header size' },
};
const CLIENT_ERROR_DEFAULT = { status: 400, message: 'Client Error' };

/** The whole HTTP response to a request Node could not parse, with the security headers and `Connection: close`. */
export function formatClientErrorResponse(code: string | undefined, headers: Readonly<Record<string, string>>): string {
  const { status, message } = (code !== undefined && CLIENT_ERRORS[code]) || CLIENT_ERROR_DEFAULT;
  const statusText = STATUS_CODES[status] ?? 'Error';
  const body = JSON.stringify({ error: statusText, message, statusCode: status });
  const lines = [
    `HTTP/1.1 ${status} ${statusText}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

// Not encapsulated: the hook covers every route registered after it, and the not-found handlers.
export const siteSecurityHeadersPlugin = fp(securityHeaders, { name: 'security-headers', fastify: '5.x' });
