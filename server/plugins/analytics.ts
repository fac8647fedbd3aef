import rateLimit from '@fastify/rate-limit';
import { rateLimitStoreOption } from '../rate-limits/rate-limit-store-option.ts';
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AnalyticsService, LeadToCount } from '../analytics/analytics-service.ts';
import type { AnalyticsStore } from '../analytics/analytics-store.ts';
import { createEventQueue, type EventQueueTuning } from '../analytics/event-queue.ts';
import { EVENTS_ENDPOINT } from '../../lead/beacon-event.ts';
import { MAX_EVENT_BYTES, readEvent } from '../analytics/event-shape.ts';
import { leadKeysOf } from '../analytics/lead-keys.ts';
import { createSitePages } from '../analytics/site-pages.ts';
import type { LiveBuild } from '../site/live-build.ts';
import { createValueCap } from '../analytics/value-cap.ts';
import type { VitalsSample } from '../analytics/vital-buckets.ts';
import { createSharedVitalsCap, createVitalsCap } from '../analytics/vitals-cap.ts';
import { createSharedValueCap } from '../analytics/shared-value-cap.ts';
import { createSaltKeeper, saltDay } from '../analytics/visit-hash.ts';
import { isAllowedOrigin } from '../leads/origin.ts';
import { isRobot, optedOut } from '../analytics/who-is-counted.ts';

// Cookieless analytics: `app.analytics` (the store, and the visit a request belongs to) and
// POST /api/events, where the site's pages send their beacons and their field speed (counted for the
// same visitors as the events, a bounded number a day each; stored without the visit). Answers:
//   204 counted (queued for the store), or not counted: a robot, DNT: 1, Sec-GPC: 1, no salt
//   400 {"error":"validation","message"} · 403 from another site's page · 413 over 1 KiB · 415 not text/plain or JSON · 429 + Retry-After
// Every answer is `Cache-Control: no-store` and sets no cookie. The request never waits for the
// store to count: events go to a bounded queue written in batches, and the route, its parsers and
// its rate limit live in their own context, so nothing here runs on the lead routes.

export type EventsRateLimit = { readonly max: number; readonly windowMs: number; readonly addresses: number };
export const EVENTS_RATE_LIMIT: EventsRateLimit = {
  /** Events one address may send per window: a person reading pages sends a handful. */
  max: 60,
  windowMs: 10_000,
  /** Addresses remembered at most; the least recently seen is forgotten first. */
  addresses: 10_000,
};

export const EVENT_ERRORS = {
  payloadTooLarge: { error: 'payload_too_large' },
  unsupportedMediaType: { error: 'unsupported_media_type' },
  rateLimited: { error: 'rate_limited' },
  forbiddenOrigin: { error: 'forbidden_origin' },
  internal: { error: 'internal' },
} as const;

/** After the store failed to give the day's salt, visits go uncounted this long before it is asked again. */
export const SALT_RETRY_MS = 1_000;

/** `navigator.sendBeacon` sends a string as text/plain (no CORS preflight); `fetch` may send JSON. */
const EVENT_CONTENT_TYPES = ['text/plain', 'application/json'];

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
};

const analytics: FastifyPluginAsync<AnalyticsPluginOptions> = async (
  app,
  { store, siteHost, siteUrl, liveBuild, now = Date.now, tuning = {} },
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
  // Closed before the store (registered earlier, closed later): what is queued is written first.
  app.addHook('onClose', async () => {
    await Promise.all([queue.stop(), vitalsQueue.stop()]);
  });

  const valueCap = createValueCap();
  // A store that is down is not asked again by every beacon of a busy page.
  let saltFailedAt = -Infinity;

  async function visitOf(request: FastifyRequest): Promise<string | undefined> {
    const userAgent = request.headers['user-agent'];
    if (userAgent === undefined || isRobot(userAgent) || optedOut(request.headers)) return undefined;
    if (now() - saltFailedAt < SALT_RETRY_MS) return undefined;
    try {
      // The address (the visitor's, through TRUST_PROXY) goes into the hash and nowhere else.
      return await salts.visit({ site: siteHost, address: request.ip, userAgent });
    } catch (error) {
      saltFailedAt = now();
      request.log.error({ err: error }, 'no salt for the visit hash: the visit is not counted');
      return undefined;
    }
  }

  async function countLead(request: FastifyRequest, lead: LeadToCount): Promise<void> {
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

  app.decorate('analytics', { store, visitOf, countLead, queueStats: () => queue.stats() } satisfies AnalyticsService);

  await app.register(async (events) => {
    events.removeAllContentTypeParsers();
    // Both types are read as text: readEvent parses the JSON itself, with its own size and shape rules.
    events.addContentTypeParser(EVENT_CONTENT_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));

    const limit = { ...EVENTS_RATE_LIMIT, ...tuning.rateLimit };
    await events.register(rateLimit, {
      max: limit.max,
      timeWindow: limit.windowMs,
      cache: limit.addresses,
      // Counted across every server on PostgreSQL; in this process's memory with SQLite.
      ...rateLimitStoreOption(app, 'events'),
      errorResponseBuilder: (_request, context) => Object.assign(new Error('rate limited'), { statusCode: context.statusCode }),
    });

    // Only this site's pages count: another site cannot have its visitors' browsers send events here
    // (to inflate the counts, or to claim a visitor's campaign before they arrive).
    events.addHook('onRequest', async (request, reply) => {
      const allowed = isAllowedOrigin({
        origin: request.headers.origin,
        secFetchSite: [request.headers['sec-fetch-site']].flat()[0],
        host: request.headers.host,
        siteUrl,
      });
      if (!allowed) return reply.code(403).send(EVENT_ERRORS.forbiddenOrigin);
    });

    events.addHook('onSend', async (_request, reply, payload) => {
      reply.header('cache-control', 'no-store');
      return payload;
    });

    events.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status === 429) return reply.code(429).send(EVENT_ERRORS.rateLimited);
      if (status === 413) return reply.code(413).send(EVENT_ERRORS.payloadTooLarge);
      if (status === 415) return reply.code(415).send(EVENT_ERRORS.unsupportedMediaType);
      if (status === 400) return reply.code(400).send({ error: 'validation', message: error.message });
      request.log.error({ err: error }, 'event request failed');
      return reply.code(500).send(EVENT_ERRORS.internal);
    });

    // Fastify stops reading a body over the limit (413), whatever Content-Length claimed.
    events.post(EVENTS_ENDPOINT, { bodyLimit: MAX_EVENT_BYTES }, async (request, reply) => {
      const pages = await sitePages.current();
      const read = readEvent(request.body as string, { isSitePath: (path) => pages.has(path), siteHost });
      if (!read.ok) return reply.code(400).send({ error: 'validation', message: read.problem });
      const at = now();
      const visit = await visitOf(request);
      // Field speed is stored under its page and day only: the visit just bounds how much one browser adds.
      if ('vitals' in read) {
        const sample = { at, path: read.vitals.path, vitals: read.vitals.vitals };
        // The shared count is not waited for: the sample is queued once it is allowed.
        if (visit !== undefined && sharedVitalsCap !== undefined)
          void sharedVitalsCap.take(visit).then((taken) => taken && vitalsQueue.push(sample));
        else if (visit !== undefined && vitalsCap.take(visit, saltDay(at))) vitalsQueue.push(sample);
      } else if (visit !== undefined) queue.push({ ...(sharedValueCap ? read.event : valueCap.cap(read.event, saltDay(at))), at, visit });
      return reply.code(204).send();
    });
  });
};

export const analyticsPlugin = fp(analytics, { name: 'analytics', fastify: '5.x' });
