import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { healthPlugin } from './plugins/health.ts';
import { leadRelayPlugin } from './plugins/lead-relay.ts';
import type { LeadRelayTuning } from './plugins/lead-relay.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { apiRoutes } from './routes/api.ts';
import { leadRoutes } from './routes/leads.ts';
import { siteRoutes } from './routes/site.ts';

export type BuildAppOptions = {
  /** Outbox tuning for tests (poll interval, CRM timeout); production uses the defaults. */
  relayTuning?: LeadRelayTuning;
};

/** A hop count becomes Fastify's own rule for one (its types leave out the number form). */
function fastifyTrustProxy(trustProxy: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trustProxy === false) return false;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return [...trustProxy];
}

/**
 * The whole HTTP application, built from a parsed Config. It never listens: main.ts does, and
 * tests call `inject`. Loading happens on `ready()`, which rejects with a SiteBuildError when
 * DIST_DIR holds no usable build.
 */
export function buildApp(config: Config, options: BuildAppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: { level: config.logLevel },
    // Rejects requests that arrive while closing instead of queueing them behind the shutdown.
    return503OnClosing: true,
    // Behind a TLS proxy every request comes from the proxy; TRUST_PROXY says whose
    // X-Forwarded-For to believe, so the rate limit and logs see the visitor's address.
    trustProxy: fastifyTrustProxy(config.trustProxy),
  });

  // Capabilities first: decorators and hooks (health checks; later security headers, the lead
  // store and its outbox worker, each closing what it opens in onClose) must exist before the
  // routes that use them. Security headers come first so every response carries them.
  app.register(securityHeadersPlugin, { config });
  app.register(healthPlugin);
  app.register(leadRelayPlugin, { config, tuning: options.relayTuning });

  // Routes: the specific prefixes before the site's catch-all.
  app.register(leadRoutes, { prefix: '/api', config });
  app.register(apiRoutes, { prefix: '/api' });
  app.register(siteRoutes, { distDir: config.distDir });

  return app;
}
