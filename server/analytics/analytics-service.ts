// What the rest of the server uses of analytics, as one Fastify decoration (`app.analytics`): the
// store the console's reports read, and the name of the visit a request belongs to, which the lead
// relay joins its "accepted" and "delivered" steps to. The analytics plugin decorates it; tests
// decorate it with fakes.
import type { FastifyRequest } from 'fastify';
import type { AnalyticsStore } from './analytics-store.ts';
import type { EventQueueStats } from './event-queue.ts';

export type AnalyticsService = {
  readonly store: AnalyticsStore;
  /**
   * The visit hash of the request's visitor today, or undefined when the visitor is not counted
   * (a robot or tool, `DNT: 1`, `Sec-GPC: 1`) or the salt could not be had.
   */
  visitOf(request: FastifyRequest): Promise<string | undefined>;
  /** The plugin's queue of events on their way to the store: waiting, written and dropped. */
  queueStats?(): EventQueueStats;
};

declare module 'fastify' {
  interface FastifyInstance {
    analytics: AnalyticsService;
  }
}
