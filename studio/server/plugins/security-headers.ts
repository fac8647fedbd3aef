// Security headers on every answer the studio gives (the app, the API, pictures, 404s and errors),
// written by the back office's one security-headers plugin: a Content-Security-Policy that runs only
// the studio's own scripts and lets only the studio frame it, no MIME sniffing, no referrer sent
// elsewhere, and nothing kept by a cache unless a route says otherwise. Registered first in
// buildStudioApp, so no answer goes out without them.
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { securityHeadersPlugin as backOfficeSecurityHeaders, type StrictPolicy } from '../../../back-office/front-door/security-headers.ts';

export const STUDIO_POLICY: StrictPolicy = {
  csp: {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    // emotion inserts its rules in <style> elements at run time, in the app and in the preview.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'frame-src': ["'self'"],
    'frame-ancestors': ["'self'"],
    'form-action': ["'self'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
  },
  referrerPolicy: 'same-origin',
  frameOptions: 'sameorigin',
};

const securityHeaders: FastifyPluginAsync = async (app) => {
  await app.register(backOfficeSecurityHeaders, { policy: STUDIO_POLICY });
};

// Not encapsulated: the headers cover every route and the not-found and error answers.
export const securityHeadersPlugin = fp(securityHeaders, { name: 'studio-security-headers', fastify: '5.x' });
