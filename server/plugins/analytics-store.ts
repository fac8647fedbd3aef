import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { AnalyticsStore } from '../analytics/analytics-store.ts';
import { knownAnalyticsSchemaVersion, openAnalyticsStore } from '../analytics/open-analytics-store.ts';
import { schemaReadinessCheck } from './schema-readiness.ts';
import type { Config } from '../config.ts';
import type { ConnectionLimits } from '../../back-office/http/connection-limits.ts';
import { analyticsPlugin, type AnalyticsTuning } from './analytics.ts';

// Analytics as the server runs them: the store named by the settings (a SQLite file of its own, or
// the lead store's PostgreSQL database), opened and migrated at start, and the collection endpoint
// with `app.analytics` (the hourly forgetting of old salts and raw rows is a job of the jobs plugin). Registered before the lead
// relay, so the relay can count its "accepted" and "delivered" steps, and closed after it: on close
// the relay's outbox finishes first, then the event queue is written, then the store closes.

export type AnalyticsSetupOptions = {
  config: Config;
  /** A store opened by the caller (tests); it is then theirs to close. */
  store?: AnalyticsStore;
  tuning?: AnalyticsTuning;
  now?: () => number;
  /** The server's connection limits, which the beacon listener (EVENTS_PORT) keeps too. */
  connectionLimits?: ConnectionLimits;
};

const analyticsSetup: FastifyPluginAsync<AnalyticsSetupOptions> = async (app, { config, store: given, tuning, now, connectionLimits }) => {
  const store = given ?? (await openAnalyticsStore(config.analyticsStore, { onMigrationLockWait: (message) => app.log.warn(message) }));
  // Readiness only. A SQLite file is a store of its own, so its reachability counts apart from the
  // lead store's; on PostgreSQL it is the lead store's database, which the lead store's check covers.
  if (config.analyticsStore.kind === 'sqlite') app.readiness.add('analytics-store', () => store.schemaVersion());
  app.readiness.add(
    'analytics-schema',
    schemaReadinessCheck({
      database: 'analytics',
      known: knownAnalyticsSchemaVersion(config.analyticsStore),
      readVersion: () => store.schemaVersion(),
    }),
  );
  app.addHook('onClose', async () => {
    if (given === undefined) await store.close();
  });
  const eventsListener =
    config.eventsPort === undefined
      ? undefined
      : { host: config.host, port: config.eventsPort, trustProxy: config.trustProxy, logLevel: config.logLevel, connectionLimits };
  await app.register(analyticsPlugin, {
    store,
    siteHost: config.siteHost,
    siteUrl: config.siteUrl,
    liveBuild: app.liveBuild,
    now,
    tuning,
    eventsListener,
  });
};

export const analyticsSetupPlugin = fp(analyticsSetup, { name: 'analytics-setup', fastify: '5.x', dependencies: ['health'] });
