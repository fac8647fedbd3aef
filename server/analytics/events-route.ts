// POST /api/events, the one route the site's pages send their beacons and field speed to, as a
// Fastify plugin of its own context: the server registers it on its own port, and the beacon
// listener (events-listener-thread.ts) on EVENTS_PORT, each with its way of counting what passes.
// Answers, the same on both:
//   204 taken (or not counted: a robot, DNT: 1, Sec-GPC: 1)
//   400 {"error":"validation","message"} · 403 from another site's page · 413 over 1 KiB · 415 not text/plain or JSON · 429 + Retry-After
// Every answer is `Cache-Control: no-store` and sets no cookie.
//
// A beacon is the busiest request the server takes, so the route does no work a 204 does not need:
// the rate limit answers first, on arrival, before the body is read or parsed (a flood from one
// address costs a map lookup per request); no answer writes a log line of its own (a site at
// thousands of beacons a second would write thousands of lines, and a flood would write one per
// refusal); instead the answers are counted and one line a minute says how many of each there were.
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyError, FastifyPluginAsync } from 'fastify';
import type {} from '../../back-office/logging/request-log.ts';
import { EVENTS_ENDPOINT } from '../../lead/beacon-event.ts';
import { isAllowedOrigin } from '../leads/origin.ts';
import { MAX_EVENT_BYTES, readEvent, type CountedEvent, type VitalsReading } from './event-shape.ts';
import { eventsRateLimitOptions, type EventsRateLimit } from './events-rate-limit.ts';
import { isRobot, optedOut } from './who-is-counted.ts';

export { EVENTS_RATE_LIMIT, type EventsRateLimit } from './events-rate-limit.ts';

export const EVENT_ERRORS = {
  payloadTooLarge: { error: 'payload_too_large' },
  unsupportedMediaType: { error: 'unsupported_media_type' },
  rateLimited: { error: 'rate_limited' },
  forbiddenOrigin: { error: 'forbidden_origin' },
  internal: { error: 'internal' },
} as const;

/** `navigator.sendBeacon` sends a string as text/plain (no CORS preflight); `fetch` may send JSON. */
const EVENT_CONTENT_TYPES = ['text/plain', 'application/json'];

/** How often the count of the route's answers is logged (when there were any). */
export const ANSWER_LOG_INTERVAL_MS = 60_000;

/**
 * A beacon that passed every check, from a visitor who is counted: what the page said, when it
 * arrived, and what the visit hash is made of. The address goes into the hash and nowhere else.
 */
export type TakenBeacon = {
  readonly at: number;
  readonly address: string;
  readonly userAgent: string;
} & ({ readonly event: CountedEvent } | { readonly vitals: VitalsReading });

export type EventsRouteOptions = {
  /** The site's own host name (SITE_URL's): never a referrer. */
  siteHost: string;
  /** SITE_URL, whose origin an event may come from besides the request's own host. */
  siteUrl?: string;
  /** The paths of the site's pages right now: the only paths an event may name. */
  sitePages(): ReadonlySet<string> | Promise<ReadonlySet<string>>;
  /** Counts a beacon; the answer waits for what it returns. */
  take(beacon: TakenBeacon): void | Promise<void>;
  rateLimit?: Partial<EventsRateLimit>;
  /** Where the limit counts (`@fastify/rate-limit`'s store): shared by every server, or this process's memory when none. */
  limitStore?: Pick<RateLimitPluginOptions, 'store'>;
  /** Where the count of answers goes once a minute. */
  log: FastifyBaseLogger;
  now?: () => number;
  answerLogIntervalMs?: number;
};

export const eventsRoute: FastifyPluginAsync<EventsRouteOptions> = async (
  events,
  {
    siteHost,
    siteUrl,
    sitePages,
    take,
    rateLimit: limits,
    limitStore = {},
    log,
    now = Date.now,
    answerLogIntervalMs = ANSWER_LOG_INTERVAL_MS,
  },
) => {
  events.removeAllContentTypeParsers();
  // Both types are read as text: readEvent parses the JSON itself, with its own size and shape rules.
  events.addContentTypeParser(EVENT_CONTENT_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // On arrival (onRequest), before the body is read: a refused request costs the lookup and the answer.
  await events.register(rateLimit, {
    ...eventsRateLimitOptions(limits),
    ...limitStore,
    errorResponseBuilder: (_request, context) => Object.assign(new Error('rate limited'), { statusCode: context.statusCode }),
  });

  const answers = new Map<number, number>();
  const logAnswers = () => {
    if (answers.size === 0) return;
    const counts = Object.fromEntries([...answers].sort(([a], [b]) => a - b));
    answers.clear();
    const refused = Object.entries(counts).reduce((sum, [status, count]) => sum + (Number(status) >= 400 ? count : 0), 0);
    log.info({ endpoint: EVENTS_ENDPOINT, answers: counts, refused }, 'beacon answers since the last count');
  };
  const answerTimer = setInterval(logAnswers, answerLogIntervalMs);
  answerTimer.unref();
  events.addHook('onClose', async () => {
    clearInterval(answerTimer);
    logAnswers();
  });
  events.addHook('onResponse', async (_request, reply) => {
    answers.set(reply.statusCode, (answers.get(reply.statusCode) ?? 0) + 1);
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
  events.post(EVENTS_ENDPOINT, { bodyLimit: MAX_EVENT_BYTES, config: { answersCounted: true } }, async (request, reply) => {
    const pages = await sitePages();
    const read = readEvent(request.body as string, { isSitePath: (path) => pages.has(path), siteHost });
    if (!read.ok) return reply.code(400).send({ error: 'validation', message: read.problem });
    const userAgent = request.headers['user-agent'];
    if (userAgent !== undefined && !isRobot(userAgent) && !optedOut(request.headers)) {
      const arrived = { at: now(), address: request.ip, userAgent };
      await take('vitals' in read ? { ...arrived, vitals: read.vitals } : { ...arrived, event: read.event });
    }
    return reply.code(204).send();
  });
};
