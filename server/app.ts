import { STATUS_CODES } from 'node:http';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config.ts';
import { CONNECTION_LIMITS, type ConnectionLimits } from '../back-office/http/connection-limits.ts';
import { answerConsoleFrameworkError, consolePlugin } from './console/plugin.ts';
import { rewriteConsoleUrl } from './console/console-url.ts';
import { logStreamOption } from '../back-office/logging/log-format.ts';
import { RequestLog } from '../back-office/logging/request-log.ts';
import { maskUrl } from '../lead/mask.ts';
import { healthPlugin } from './plugins/health.ts';
import type { NotifierTuning } from './notify/notifier.ts';
import { analyticsSetupPlugin, type AnalyticsSetupOptions } from './plugins/analytics-store.ts';
import { leadRelayPlugin } from './plugins/lead-relay.ts';
import { jobsPlugin, type JobsTuning } from './plugins/jobs.ts';
import type { LeadRelayTuning } from './plugins/lead-relay.ts';
import { notificationsPlugin } from './plugins/notifications.ts';
import { salesPlugin, type SalesTuning } from './plugins/sales.ts';
import { weeklySummaryPlugin } from './plugins/weekly-summary.ts';
import { studioNoticesPlugin } from './plugins/studio-notices.ts';
import { siteSecurityHeadersPlugin } from './plugins/security-headers.ts';
import { sharedLimitsPlugin } from './plugins/shared-limits.ts';
import type { SharedLimiterTuning } from './rate-limits/shared-limiter.ts';
import { apiRoutes } from './routes/api.ts';
import { bookingRoutes, type BookingRoutesOptions } from './routes/bookings.ts';
import { LEAD_BODY_LIMIT_BYTES, leadRoutes } from './routes/leads.ts';
import { siteRoutes } from './routes/site.ts';
import { liveBuildPlugin } from './plugins/live-build.ts';
import { fastifyTrustProxy } from '../back-office/http/trust-proxy.ts';

export { CONNECTION_LIMITS, type ConnectionLimits } from '../back-office/http/connection-limits.ts';

export type BuildAppOptions = {
  /** Outbox tuning for tests (poll interval, CRM timeout); production uses the defaults. */
  relayTuning?: LeadRelayTuning;
  /** The background jobs for tests (fake clock, faster looks, no settle delay); production uses the defaults. */
  jobsTuning?: JobsTuning;
  /** Notifier tuning for tests (fake clock, fast polls, short retry waits); production uses the defaults. */
  notifyTuning?: NotifierTuning;
  /** The sales queue's loops for tests (fake clock, fixed business hours, loops driven by hand); production uses the defaults. */
  salesTuning?: SalesTuning;
  /** Shorter limits for tests; production uses CONNECTION_LIMITS. */
  connectionLimits?: ConnectionLimits;
  /**
   * Where the log goes, as JSON lines (tests read it back). Unset: standard output, as JSON, or as
   * readable lines when it is a terminal.
   */
  logStream?: { write(line: string): void };
  /** Analytics for tests: a store they opened (or a fake), the queue's pace, a clock. */
  analytics?: Omit<AnalyticsSetupOptions, 'config'>;
  /** The booking webhooks' meeting count and clock (tests). */
  bookings?: Omit<BookingRoutesOptions, 'config'>;
  /** The shared rate limits' pace (PostgreSQL; tests): batching, the wait for the database. */
  sharedLimits?: SharedLimiterTuning;
};

/**
 * The whole HTTP application, built from a parsed Config. It never listens: main.ts does, and
 * tests call `inject`. Loading happens on `ready()`, which rejects with a SiteBuildError when
 * DIST_DIR holds no usable build.
 */
export function buildApp(config: Config, options: BuildAppOptions = {}): FastifyInstance {
  const limits = options.connectionLimits ?? CONNECTION_LIMITS;
  const app = Fastify({
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    requestTimeout: limits.requestTimeoutMs,
    // No route takes a larger body than a lead; any other route never reads one at all.
    bodyLimit: LEAD_BODY_LIMIT_BYTES,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    logger: {
      level: config.logLevel,
      serializers: { req: serializeRequest },
      ...logStreamOption(options.logStream),
    },
    // One line per request once it is answered (not Fastify's two), with the URL masked as above.
    logController: new RequestLog({ describeUrl: maskUrl }),
    // Every spelling of a console path reaches the router as one canonical path, so the console
    // route that runs, and the access it declares, never depend on how the address was written.
    rewriteUrl: (request) => rewriteConsoleUrl(request.url ?? '/'),
    // A URL Fastify cannot decode (or a path parameter over its limit) is refused before routing;
    // on a console address the console answers it, with its own headers.
    frameworkErrors: (error, request, reply) => {
      if (answerConsoleFrameworkError(error, request, reply)) return;
      answerFrameworkError(error, reply);
    },
    // Rejects requests that arrive while closing instead of queueing them behind the shutdown.
    return503OnClosing: true,
    // Behind a TLS proxy every request comes from the proxy; TRUST_PROXY says whose
    // X-Forwarded-For to believe, so the rate limits count each visitor's address.
    trustProxy: fastifyTrustProxy(config.trustProxy),
  });

  // Capabilities first: decorators and hooks (health checks; later security headers, the lead
  // store and its outbox worker, each closing what it opens in onClose) must exist before the
  // routes that use them. Security headers come first so every response carries them.
  app.register(siteSecurityHeadersPlugin, { config });
  app.register(healthPlugin);
  app.register(liveBuildPlugin, { distDir: config.distDir });
  // Before everything that limits requests (analytics, the relay's routes, the bookings), closed after them.
  app.register(sharedLimitsPlugin, { config, tuning: options.sharedLimits });
  app.register(analyticsSetupPlugin, { config, connectionLimits: limits, ...options.analytics });
  app.register(leadRelayPlugin, { config, tuning: options.relayTuning });
  app.register(jobsPlugin, { config, tuning: options.jobsTuning });
  app.register(notificationsPlugin, { config, tuning: options.notifyTuning });
  app.register(salesPlugin, { config, tuning: options.salesTuning });
  app.register(weeklySummaryPlugin, { config, now: options.notifyTuning?.now });
  app.register(studioNoticesPlugin, { now: options.notifyTuning?.now });

  // Routes: the specific prefixes before the site's catch-all.
  app.register(consolePlugin, { config });
  app.register(leadRoutes, { prefix: '/api', config });
  app.register(bookingRoutes, { prefix: '/api', config, ...options.bookings });
  app.register(apiRoutes, { prefix: '/api' });
  app.register(siteRoutes);

  return app;
}

/** Fastify's own answer to an error met before routing, as it gives it without `frameworkErrors`. */
function answerFrameworkError(error: FastifyError, reply: FastifyReply): void {
  const statusCode = error.statusCode ?? 500;
  const body = { error: STATUS_CODES[statusCode], code: error.code, message: error.message, statusCode };
  reply.code(statusCode).type('application/json').send(JSON.stringify(body));
}

/**
 * A request as its log lines show it: method, host and URL, with any e-mail address or phone number
 * in the URL masked (an erasure preview, an account's address, a search). Never the client's address
 * or port: a log line's time joined with a page view's (or a beacon's) would tie that address to the
 * visit hash it was counted under, which the daily salt exists to make impossible.
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: maskUrl(request.url),
    host: request.host,
  };
}
