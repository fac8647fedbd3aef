import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { rateLimitStoreOption } from '../rate-limits/rate-limit-store-option.ts';
import fp from 'fastify-plugin';
import type { AnalyticsService, LeadToCount } from '../analytics/analytics-service.ts';
import type { AnalyticsStore } from '../analytics/analytics-store.ts';
import { createEventQueue, type EventQueueTuning } from '../analytics/event-queue.ts';
import { eventsRoute, type EventsRateLimit, type TakenBeacon } from '../analytics/events-route.ts';
import { startEventsListener, type EventsListenerSettings } from '../analytics/events-listener.ts';
import { leadKeysOf } from '../analytics/lead-keys.ts';
import { createSitePages } from '../analytics/site-pages.ts';
import type { LiveBuild } from '../site/live-build.ts';
import { createValueCap } from '../analytics/value-cap.ts';
import type { VitalsSample } from '../analytics/vital-buckets.ts';
import { createSharedVitalsCap, createVitalsCap } from '../analytics/vitals-cap.ts';
import { createSharedValueCap } from '../analytics/shared-value-cap.ts';
import { createSaltKeeper, saltDay } from '../analytics/visit-hash.ts';
import { isRobot, optedOut } from '../analytics/who-is-counted.ts';

// Cookieless analytics: `app.analytics` (the store, and the visit a request belongs to) and
// POST /api/events (analytics/events-route.ts), where the site's pages send their beacons and their
// field speed (counted for the same visitors as the events, a bounded number a day each; stored
// without the visit). The request never waits for the store to count: events go to a bounded queue
// written in batches, and the route, its parsers and its rate limit live in their own context, so
// nothing of it runs on the lead routes. With EVENTS_PORT set, a listener on a thread of its own
// takes the beacons on that port too (events-listener.ts) and hands this plugin what it took, so a
// load balancer that sends /api/events there keeps the beacons' HTTP work off the thread that takes
// leads; the route stays on the server's own port for a server without one.

export { EVENT_ERRORS, EVENTS_RATE_LIMIT, type EventsRateLimit } from '../analytics/events-route.ts';

/** After the store failed to give the day's salt, visits go uncounted this long before it is asked again. */
export const SALT_RETRY_MS = 1_000;

export type AnalyticsTuning = {
  readonly queue?: EventQueueTuning;
  readonly rateLimit?: Partial<EventsRateLimit>;
  /** How long the site's known pages are trusted before DIST_DIR is looked at again. */
  readonly sitePagesCheckMs?: number;
};

export type AnalyticsPluginOptions = {
  /** Opened and closed by whoever registers the plugin; the plugin only writes to it. */
  store: AnalyticsStore;
  /** The site's own host name (SITE_URL's): part of every visit hash, and never a referrer. */
  siteHost: string;
  /** SITE_URL, whose origin an event may come from besides the request's own host. */
  siteUrl?: string;
  /** The build whose pages are the only paths an event may name. */
  liveBuild: LiveBuild;
  now?: () => number;
  tuning?: AnalyticsTuning;
  /** Where the beacon listener of its own listens (EVENTS_PORT); none when unset. */
  eventsListener?: EventsListenerSettings;
};

const analytics: FastifyPluginAsync<AnalyticsPluginOptions> = async (
  app,
  { store, siteHost, siteUrl, liveBuild, now = Date.now, tuning = {}, eventsListener },
) => {
  const log = app.log.child({ component: 'analytics' });
  const salts = createSaltKeeper({ store, now });
  // Several servers on PostgreSQL bound the day's values and each browser's field speed together; one
  // server (SQLite) bounds them in its own memory.
  const limiter = app.hasDecorator('sharedLimits') ? app.sharedLimits : undefined;
  const sharedValueCap = limiter && createSharedValueCap({ keepValues: (values) => limiter.keepValues(values), log, now });
  const sharedVitalsCap = limiter && createSharedVitalsCap(limiter);
  const queue = createEventQueue({
    // The shared bound is applied as a batch is written, so the beacon never waits for it.
    record: sharedValueCap
      ? async (events) => store.recordEvents(await sharedValueCap.capAll(events))
      : (events) => store.recordEvents(events),
    log,
    now,
    tuning: tuning.queue,
  });
  const vitalsQueue = createEventQueue<VitalsSample>({
    record: (samples) => store.recordVitals(samples),
    log,
    now,
    tuning: tuning.queue,
    name: 'field speed',
  });
  const vitalsCap = createVitalsCap();
  const sitePages = createSitePages({ liveBuild, checkMs: tuning.sitePagesCheckMs });
  // Closed before the store (registered earlier, closed later): what the beacon listener took is
  // counted, then what is queued is written.
  let listener: Awaited<ReturnType<typeof startEventsListener>> | undefined;
  app.addHook('onClose', async () => {
    await listener?.close();
    await Promise.all([queue.stop(), vitalsQueue.stop()]);
  });

  const valueCap = createValueCap();
  // A store that is down is not asked again by every beacon of a busy page.
  let saltFailedAt = -Infinity;

  async function visitOf(request: FastifyRequest): Promise<string | undefined> {
    const userAgent = request.headers['user-agent'];
    if (userAgent === undefined || isRobot(userAgent) || optedOut(request.headers)) return undefined;
    return visitFor(request.ip, userAgent);
  }

  /** The visit hash of a counted visitor's address and browser today; undefined while the store gives no salt. */
  async function visitFor(address: string, userAgent: string): Promise<string | undefined> {
    if (now() - saltFailedAt < SALT_RETRY_MS) return undefined;
    try {
      // The address (the visitor's, through TRUST_PROXY) goes into the hash and nowhere else.
      return await salts.visit({ site: siteHost, address, userAgent });
    } catch (error) {
      saltFailedAt = now();
      log.error({ err: error }, 'no salt for the visit hash: the visit is not counted');
      return undefined;
    }
  }

  /** Queues a beacon the route took, from either listener, under its visit hash. */
  async function count(beacon: TakenBeacon): Promise<void> {
    const visit = await visitFor(beacon.address, beacon.userAgent);
    if (visit === undefined) return;
    const day = saltDay(beacon.at);
    // Field speed is stored under its page and day only: the visit just bounds how much one browser adds.
    if ('vitals' in beacon) {
      const sample = { at: beacon.at, path: beacon.vitals.path, vitals: beacon.vitals.vitals };
      // The shared count is not waited for: the sample is queued once it is allowed.
      if (sharedVitalsCap !== undefined) void sharedVitalsCap.take(visit).then((taken) => taken && vitalsQueue.push(sample));
      else if (vitalsCap.take(visit, day)) vitalsQueue.push(sample);
      // The shared bound on the day's values is applied as the queue writes a batch (record, above).
    } else queue.push({ ...(sharedValueCap ? beacon.event : valueCap.cap(beacon.event, day)), at: beacon.at, visit });
  }

  // The counts of leads under way in this process, so "delivered" can wait for its lead's (countedLead).
  const counting = new Map<string, Promise<void>>();

  async function countLead(request: FastifyRequest, lead: LeadToCount): Promise<void> {
    const work = countLeadNow(request, lead);
    counting.set(lead.leadId, work);
    try {
      await work;
    } finally {
      counting.delete(lead.leadId);
    }
  }

  function countedLead(leadId: string): Promise<void> {
    return (counting.get(leadId) ?? Promise.resolve()).catch(() => {});
  }

  async function countLeadNow(request: FastifyRequest, lead: LeadToCount): Promise<void> {
    const visit = await visitOf(request);
    if (visit === undefined) return;
    const { payload } = lead;
    if (!lead.spam) {
      const word = (field: string) => (typeof payload[field] === 'string' ? payload[field] : undefined);
      const campaign = { source: word('utm_source'), medium: word('utm_medium'), name: word('utm_campaign') };
      (sharedValueCap ?? valueCap).keepCampaign(campaign, saltDay(lead.at));
    }
    await store.recordLead({ leadId: lead.leadId, at: lead.at, form: lead.form, keys: leadKeysOf(payload), spam: lead.spam });
  }

  app.decorate('analytics', { store, visitOf, countLead, countedLead, queueStats: () => queue.stats() } satisfies AnalyticsService);

  const routeOptions = { siteHost, siteUrl, rateLimit: tuning.rateLimit };
  // On this port the limit counts across every server on PostgreSQL (in memory with SQLite). The
  // listener's thread on EVENTS_PORT counts in its own memory: it has no database of its own.
  await app.register(eventsRoute, {
    ...routeOptions,
    limitStore: rateLimitStoreOption(app, 'events'),
    now,
    sitePages: () => sitePages.current(),
    take: count,
    log,
  });
  if (eventsListener !== undefined) {
    const started = await startEventsListener({ ...eventsListener, ...routeOptions, liveBuild, take: count, log });
    listener = started;
    // The balancer sends this server's beacons to the listener: without it, the server is not ready.
    if (app.hasDecorator('readiness'))
      app.readiness.add('beacon-listener', async () => {
        if (!started.alive()) throw new Error('the beacon listener is not running');
      });
  }
};

export const analyticsPlugin = fp(analytics, { name: 'analytics', fastify: '5.x' });
