// The back office's console at /console on the site's own server: its browser app (app-files.ts) and
// its JSON API under /console/api. Everything under /console is one encapsulated scope, so its
// hooks (the access check, its headers, its answers to errors) cover every console route and no
// other. The site's security headers still apply, with the console's stricter policy on top.
import { notificationRoutes } from './routes/notifications.ts';
import fastifyCookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createTeamSignIn } from '../accounts/sign-in.ts';
import { isStoreUnavailable } from '../store/lead-store.ts';
import { createAccessCheck, type ConsoleRouteAccess } from './access.ts';
import { apiError, ConsoleProblem } from './api-errors.ts';
import { consoleAppFiles } from './app-files.ts';
import { CONSOLE_PREFIX } from './console-url.ts';
import type { ConsoleContext } from './context.ts';
import { installRequestChecks } from './request-checks.ts';
import { accountRoutes } from './routes/accounts.ts';
import { auditRoutes } from './routes/audit.ts';
import { erasureRoutes } from './routes/erasures.ts';
import { healthRoutes } from './routes/health.ts';
import { leadRoutes } from './routes/leads.ts';
import { sessionRoutes } from './routes/session.ts';
import { createSessionCookie } from './session-cookie.ts';

export type ConsolePluginOptions = { config: Config; now?: () => number };

/**
 * The console's own policy: its scripts and styles are its own files, nothing inline; it talks only
 * to this server, is framed by nobody, and posts forms nowhere else.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const CONSOLE_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  // The console is for the team: search engines neither list it nor follow its links.
  'x-robots-tag': 'noindex, nofollow',
  // Addresses in the console name leads; they are never sent to another site.
  'referrer-policy': 'no-referrer',
} as const;

const API_NOT_FOUND = 'There is nothing at this address in the console API.';

const apiNotFound: FastifyPluginAsync = async (app) => {
  const answer = async (_request: unknown, reply: Parameters<typeof apiError>[0]) => apiError(reply, 404, 'not-found', API_NOT_FOUND);
  // Answered in onRequest, before any body is read.
  for (const url of ['/', '/*']) {
    app.route({ method: app.supportedMethods, url, config: { consoleAccess: 'public' }, onRequest: answer, handler: answer });
  }
};

function installErrorAnswers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof ConsoleProblem)
      return apiError(reply, error.status, error.error, error.message, error.fields ? { fields: error.fields } : {});
    if (isStoreUnavailable(error))
      return apiError(reply, 503, 'unavailable', 'The lead store is briefly unavailable: try again in a moment.', { retryAfterSeconds: 2 });
    const status = 'statusCode' in error ? error.statusCode : undefined;
    if (status === 413) return apiError(reply, 413, 'validation', 'The request is too large.');
    if (status === 415) return apiError(reply, 415, 'validation', 'The console takes changes as JSON (Content-Type: application/json).');
    if (status !== undefined && status >= 400 && status < 500)
      return apiError(reply, 400, 'validation', 'The request is not valid JSON, or not what this address takes.');
    request.log.error({ err: error }, 'console request failed');
    return apiError(
      reply,
      500,
      'unavailable',
      'Something went wrong on the server. Try again; if it keeps happening, the server log says why.',
    );
  });
}

const consoleScope: FastifyPluginAsync<ConsolePluginOptions & { routes: ConsoleRouteAccess[] }> = async (
  app,
  { config, now = Date.now, routes },
) => {
  const store = app.leadRelay.store;
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, access: route.config?.consoleAccess });
  });
  // Parses the Cookie header in onRequest, before the access check reads the session.
  await app.register(fastifyCookie);
  installRequestChecks(app);
  installErrorAnswers(app);

  const cookie = createSessionCookie({ store, secure: config.siteUrl?.startsWith('https://') ?? false, now });
  app.addHook('onRequest', createAccessCheck({ sessionOf: cookie.sessionOf, siteUrl: config.siteUrl }));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(CONSOLE_HEADERS);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  const context: ConsoleContext = {
    store,
    config,
    now,
    cookie,
    signIn: createTeamSignIn({ store, app: 'console', now }),
    async audit(request, action, detail) {
      const actor = request.consoleSession?.record.account.email ?? '';
      await store.appendAudit({ at: now(), actor, action, detail });
    },
  };

  await app.register(consoleAppFiles, { distDir: config.distDir });
  await app.register(
    async (api) => {
      await api.register(sessionRoutes, { context });
      await api.register(leadRoutes, { context });
      await api.register(erasureRoutes, { context });
      await api.register(auditRoutes, { context });
      await api.register(healthRoutes, { context });
      await api.register(accountRoutes, { context });
      await api.register(notificationRoutes, { context, notifier: app.notifier });
      await api.register(apiNotFound);
    },
    { prefix: '/api' },
  );
};

const consolePluginBody: FastifyPluginAsync<ConsolePluginOptions> = async (app, options) => {
  const routes: ConsoleRouteAccess[] = [];
  app.decorate('consoleRoutes', routes);
  await app.register(consoleScope, { ...options, routes, prefix: CONSOLE_PREFIX });
};

// Not encapsulated itself, so `app.consoleRoutes` is the root's; the console's hooks live in the
// scope it registers under /console.
export const consolePlugin = fp(consolePluginBody, { name: 'console', fastify: '5.x', dependencies: ['lead-relay'] });
