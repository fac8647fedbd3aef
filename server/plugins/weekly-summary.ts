import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createWeeklySummary } from '../notify/weekly-summary.ts';

// The weekly summary by e-mail (see notify/weekly-summary.ts): a source of the notifier's e-mails,
// attached before the notifier starts. It reads the analytics store, the sales queue's speed figures
// and the site's business hours, so it comes after the sales plugin.

export type WeeklySummaryPluginOptions = { config: Config; now?: () => number };

const weeklySummary: FastifyPluginAsync<WeeklySummaryPluginOptions> = async (app, { config, now }) => {
  app.notifier.attach(
    createWeeklySummary({
      store: app.leadRelay.store,
      analytics: app.analytics.store,
      siteHours: app.sales.siteHours,
      context: { siteUrl: config.siteUrl ?? `http://${config.host}:${config.port}` },
      log: app.log.child({ component: 'weekly-summary' }),
      now,
    }),
  );
};

export const weeklySummaryPlugin = fp(weeklySummary, {
  name: 'weekly-summary',
  fastify: '5.x',
  dependencies: ['notifications', 'sales', 'analytics-setup'],
});
