import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { openRateLimitStore } from '../store/database.ts';
import { createSharedLimiter, type SharedLimiter, type SharedLimiterTuning } from '../rate-limits/shared-limiter.ts';

// `app.sharedLimits`: the per-address limits every server on one PostgreSQL database counts together
// (leads, beacons, the booking routes), or undefined with SQLite, where the one process counts in its
// own memory. Registered before every route and plugin that limits, so it is closed after them: the
// requests they hold are answered before its statement in flight is waited for and its pool ends.

declare module 'fastify' {
  interface FastifyInstance {
    sharedLimits: SharedLimiter | undefined;
  }
}

export type SharedLimitsOptions = { config: Config; tuning?: SharedLimiterTuning };

const sharedLimits: FastifyPluginAsync<SharedLimitsOptions> = async (app, { config, tuning }) => {
  const store = openRateLimitStore(config.leadStore);
  const limiter = store && createSharedLimiter({ store, log: app.log.child({ component: 'rate-limits' }), tuning });
  app.addHook('onClose', async () => {
    await limiter?.stop();
    await store?.close();
  });
  app.decorate('sharedLimits', limiter);
  // Opened while the other plugins start, not waited for: a database that does not answer is the lead
  // store's to report (it stops the start), and meanwhile the limiter decides alone and says so.
  void store?.connect().catch(() => {});
};

export const sharedLimitsPlugin = fp(sharedLimits, { name: 'shared-limits', fastify: '5.x' });
