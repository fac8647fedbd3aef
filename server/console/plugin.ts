// The back office's console at /console on the site's own server: its browser app (app-files.ts) and
// its JSON API under /console/api. Everything under /console is one encapsulated scope, so its
// hooks (the access check, its headers, its answers to errors) cover every console route and no
// other. The site's security headers still apply, with the console's stricter policy on top.
import { notificationRoutes } from './routes/notifications.ts';
import fastifyCookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createTeamSignIn } from '../../back-office/sign-in/sign-in.ts';
import { collectRouteRights } from '../../back-office/front-door/access.ts';
import { isStoreUnavailable } from '../../back-office/database/store-unavailable.ts';
import { createAccessCheck, type ConsoleRouteAccess } from './access.ts';
import { apiError, ConsoleProblem } from './api-errors.ts';
import { consoleAppFiles } from './app-files.ts';
import { CONSOLE_PREFIX, consoleAreaOf } from './console-url.ts';
import type { ConsoleContext } from './context.ts';
import { installRequestChecks } from './request-checks.ts';
import { accountRoutes } from './routes/accounts.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { auditRoutes } from './routes/audit.ts';
import { bookingRoutes } from './routes/bookings.ts';
import { erasureRoutes } from './routes/erasures.ts';
import { healthRoutes } from './routes/health.ts';
import { leadRoutes } from './routes/leads.ts';
import { salesRoutes } from './routes/sales.ts';
import { sessionRoutes } from './routes/session.ts';
import { weeklySummaryRoutes } from './routes/weekly-summary.ts';
import { createSessionCookie } from '../../back-office/sessions/session-cookie.ts';
import { headersOf, type StrictPolicy } from '../../back-office/front-door/security-headers.ts';

export type ConsolePluginOptions = { config: Config; now?: () => number };

/**
 * The console's own policy: its scripts and styles are its own files, nothing inline; it talks only
 * to this server, is framed by nobody, and posts forms nowhere else. Addresses in the console name
 * leads; they are never sent to another site.
 */
export const CONSOLE_POLICY: StrictPolicy = {
  csp: {
    'default-src': ["'none'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'none'"],
  },
  referrerPolicy: 'no-referrer',
  frameOptions: 'deny',
};

/**
 * Helmet's headers for the console's policy, laid over the site's on every console answer (the
 * site's helmet already wrote its own in onRequest; these replace them as the answer is sent, and
 * the site's HSTS and Permissions-Policy stay). Also what an answer no console hook sees carries.
 */
export const CONSOLE_HEADERS = {
  ...headersOf(CONSOLE_POLICY),
  // The console is for the team: search engines neither list it nor follow its links.
  'x-robots-tag': 'noindex, nofollow',
} as const;

export const CONSOLE_CSP = CONSOLE_HEADERS['content-security-policy'];

const API_NOT_FOUND = 'There is nothing at this address in the console API.';
const PAGE_METHODS = 'GET, HEAD';

/** The console's headers, on an answer that no console hook will see. */
function withConsoleHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers(CONSOLE_HEADERS).header('cache-control', 'no-store');
}

/**
 * A method Fastify does not route (PROPFIND, MKCOL, …) on a console address: what the console
 * answers any method it does not take there, never the public site's not-found page. Answered in
 * onRequest, before any body is read.
 */
async function answerUnroutedMethod(request: FastifyRequest, reply: FastifyReply) {
  if (consoleAreaOf(request.url) === 'api') return apiError(reply, 404, 'not-found', API_NOT_FOUND);
  return reply.code(405).header('allow', PAGE_METHODS).type('text/plain; charset=utf-8').send('Method Not Allowed\n');
}

/**
 * Fastify's `frameworkErrors` for a console address (console-url.ts `consoleAreaOf`): a URL it
 * cannot decode (400) or a path parameter over its length limit (414), refused before routing and
 * so before any console hook. Answered with the console's headers, JSON under /console/api.
 * Returns false for any other address.
 */
export function answerConsoleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): boolean {
  const area = consoleAreaOf(request.url);
  if (area === undefined) return false;
  const status = error.statusCode ?? 500;
  const message =
    status === 400
      ? 'This address holds a broken percent-escape (such as %ZZ): it names nothing in the console.'
      : status === 414
        ? 'This address is too long: it names nothing in the console.'
        : 'Something went wrong on the server. Try again; if it keeps happening, the server log says why.';
  withConsoleHeaders(reply);
  if (area === 'api') apiError(reply, status, status < 500 ? 'validation' : 'unavailable', message);
  else reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
  return true;
}

const apiNotFound: FastifyPluginAsync = async (app) => {
  const answer = async (_request: unknown, reply: Parameters<typeof apiError>[0]) => apiError(reply, 404, 'not-found', API_NOT_FOUND);
  // Answered in onRequest, before any body is read.
  for (const url of ['/', '/*']) {
    app.route({ method: app.supportedMethods, url, config: { right: 'public' }, onRequest: answer, handler: answer });
  }
};

/** PostgreSQL's answers to a text it cannot store: 22021 (a byte sequence, such as U+0000) and 22P05 (a character). */
const UNSTORABLE_TEXT_CODES: ReadonlySet<unknown> = new Set(['22021', '22P05']);

function installErrorAnswers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof ConsoleProblem)
      return apiError(reply, error.status, error.error, error.message, error.fields ? { fields: error.fields } : {});
    if (isStoreUnavailable(error))
      return apiError(reply, 503, 'unavailable', 'The lead store is briefly unavailable: try again in a moment.', { retryAfterSeconds: 2 });
    // Every input is checked before it reaches the store; should a text the database cannot keep get
    // through all the same, it is the request's fault, answered as such and logged without a stack.
    const code = 'code' in error ? error.code : undefined;
    if (code !== undefined && UNSTORABLE_TEXT_CODES.has(code)) {
      request.log.warn({ code }, 'console request held text the lead store cannot keep');
      return apiError(
        reply,
        400,
        'validation',
        'The request holds a character the lead store cannot keep (such as U+0000): remove it and try again.',
      );
    }
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
  collectRouteRights(app, ({ method, url, right }) => routes.push({ method, url, access: right }));
  // Parses the Cookie header in onRequest, before the access check reads the session.
  await app.register(fastifyCookie);
  // Every method Fastify routes reaches a console route (the app's pages, the API's not-found
  // answer); any other ends in this scope's not-found handler, answered before the access check.
  app.setNotFoundHandler(answerUnroutedMethod);
  app.addHook('onRequest', async (request, reply) => (request.is404 ? answerUnroutedMethod(request, reply) : undefined));
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
    siteHours: app.sales.siteHours,
    salesNow: app.sales.now,
  };

  await app.register(consoleAppFiles, { distDir: config.distDir });
  await app.register(
    async (api) => {
      await api.register(sessionRoutes, { context });
      await api.register(leadRoutes, { context });
      await api.register(salesRoutes, { context });
      await api.register(bookingRoutes, { context });
      await api.register(erasureRoutes, { context });
      await api.register(auditRoutes, { context });
      await api.register(healthRoutes, { context });
      await api.register(analyticsRoutes, { context });
      await api.register(accountRoutes, { context });
      await api.register(notificationRoutes, { context, notifier: app.notifier });
      await api.register(weeklySummaryRoutes, { context, notifier: app.notifier });
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
export const consolePlugin = fp(consolePluginBody, { name: 'console', fastify: '5.x', dependencies: ['lead-relay', 'sales'] });
