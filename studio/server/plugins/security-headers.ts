// Security headers on every answer the studio gives (the app, the API, pictures, 404s and errors):
// a Content-Security-Policy that runs only the studio's own scripts and lets only the studio frame
// it, no MIME sniffing, no referrer sent elsewhere, and nothing kept by a cache unless a route says
// otherwise. Registered first in buildStudioApp, so no answer goes out without them.
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // emotion inserts its rules in <style> elements at run time, in the app and in the preview.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

const securityHeaders: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    // A route may set a stricter policy of its own (pictures do).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', STUDIO_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
};

// Not encapsulated: the hook covers every route and the not-found and error answers.
export const securityHeadersPlugin = fp(securityHeaders, { name: 'studio-security-headers', fastify: '5.x' });
