import rateLimit from '@fastify/rate-limit';
import { rateLimitStoreOption } from '../rate-limits/rate-limit-store-option.ts';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { BOOKING_PROVIDER_NAMES, type BookingProvider } from '../../lead/booking.ts';
import type { Config } from '../config.ts';
import { isStoreUnavailable } from '../../back-office/database/store-unavailable.ts';
import { createBookingService, type CountMeeting } from '../bookings/booking-service.ts';
import { readCalendlyPayload, readCalPayload, type ReadPayload } from '../bookings/payloads.ts';
import { checkCalendlySignature, checkCalSignature, type SignatureCheck } from '../bookings/signatures.ts';

// Registered with prefix `/api`. The booking providers' webhooks and what the page may ask about
// its visitor's meeting:
//   POST /api/bookings/cal        Cal.com (X-Cal-Signature-256, CAL_WEBHOOK_SECRET)
//   POST /api/bookings/calendly   Calendly (Calendly-Webhook-Signature, CALENDLY_WEBHOOK_SIGNING_KEY)
//     200 {"received":true}   stored, a repeat of a stored delivery, an event that is not about a
//                              meeting or about a meeting whose person was erased (logged and
//                              ignored): the same delivery always gets this answer
//     400 {"error":"invalid_booking","field","message"}   a meeting without what we need
//     401 missing, wrong or (Calendly) stale signature · 404 the provider is not set up here
//     413 over 64 KiB · 415 not JSON · 429 + Retry-After · 503 + Retry-After: the store is busy
//   GET /api/bookings/lead/:leadId  BookingConfirmation of the lead's meeting; 404 while none; 429
//                                   past its own per-address limit, apart from the webhooks'
// The webhooks are server-to-server: the signature is their only authority. No cookie or session is
// read (a visitor's or a salesperson's cookie changes nothing), and there is no cross-site check,
// since the provider's server sends no Origin.

/** A provider's largest documented payload is a few KiB; this leaves room for long answers to booking questions. */
export const BOOKING_BODY_LIMIT_BYTES = 64 * 1024;
/**
 * Webhook deliveries per sender address and minute. A provider sends a burst from few addresses
 * when a team books at once, well under this, while a flood from one address is cut off like any
 * other public post.
 */
export const BOOKING_RATE_LIMIT_PER_MINUTE = 120;
/**
 * The page's questions about its visitor's meeting, per address and minute, counted apart from the
 * webhooks: the page asks every few seconds for a minute at most after a booking, so this lets
 * several visitors behind one office address book in the same minute, and neither they nor the
 * provider's deliveries can use up the other's allowance.
 */
export const BOOKING_CONFIRMATION_RATE_LIMIT_PER_MINUTE = 120;
const RATE_LIMIT_WINDOW_MS = 60_000;
// A store busy past its own wait is usually free again within seconds; providers retry on any 5xx.
const STORE_UNAVAILABLE_RETRY_AFTER_S = 5;

export const BOOKING_ERRORS = {
  signature: {
    error: 'invalid_signature',
    message: 'The signature of this delivery is missing, wrong or too old, so nothing was recorded.',
  },
  rateLimited: { error: 'rate_limited', message: 'Too many requests from this address: wait a minute and send it again.' },
  payloadTooLarge: { error: 'payload_too_large', message: 'The delivery is larger than 64 KiB, so nothing was recorded.' },
  unsupportedMediaType: { error: 'unsupported_media_type', message: 'Send the delivery as JSON (Content-Type: application/json).' },
  unreadable: { error: 'invalid_booking', field: 'body', message: 'The delivery is not readable JSON, so nothing was recorded.' },
  storeUnavailable: { error: 'store_unavailable', message: 'The booking was not recorded yet: send it again in a moment.' },
  internal: { error: 'internal', message: 'The booking could not be recorded: send it again later.' },
  noMeeting: { error: 'not_found', message: 'No meeting has been booked for this request yet.' },
} as const;

/**
 * Not set up: 404 rather than 503. A 503 says "try later", and a provider would keep retrying for a
 * day a delivery nothing here can ever check; a 404 says this address takes nothing, which is true
 * until the secret is set, and shows as a wrong or unset address in the provider's delivery log.
 * Nothing unsigned is ever accepted in its place.
 */
function notSetUp(provider: BookingProvider) {
  return {
    error: 'not_set_up',
    message: `This site does not take bookings from ${BOOKING_PROVIDER_NAMES[provider]}: its webhook secret is not set up on the server.`,
  };
}

const RECEIVED = { received: true } as const;
/** Lead ids are UUIDs; any other text is answered like an id with no meeting. */
const LEAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type BookingRoutesOptions = {
  config: Config;
  /** The analytics' meeting count; failures are logged, never answered to the provider. */
  countMeeting?: CountMeeting;
  /** The clock the Calendly timestamp window is checked against (tests). */
  now?: () => number;
};

export const bookingRoutes: FastifyPluginAsync<BookingRoutesOptions> = async (app, options) => {
  const { config } = options;
  const now = options.now ?? Date.now;
  // A meeting on a lead is the funnel's last step: counted by the analytics store on the lead's day
  // under its own keys, once while the lead has a meeting that is not cancelled.
  const countMeeting: CountMeeting | undefined =
    options.countMeeting ??
    (app.hasDecorator('analytics') ? (leadId, at, booked) => app.analytics.store.recordMeeting(leadId, at, booked) : undefined);
  const service = createBookingService({ store: app.leadRelay.store, log: app.log, countMeeting });

  // The raw bytes, unparsed: the signature is over exactly what was sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BOOKING_BODY_LIMIT_BYTES }, (_request, body, done) => {
    done(null, body);
  });

  await app.register(rateLimit, {
    max: BOOKING_RATE_LIMIT_PER_MINUTE,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    // Counted across every server on PostgreSQL (the confirmation route apart, under its own name).
    ...rateLimitStoreOption(app, 'bookings'),
    errorResponseBuilder: (_request, context) => Object.assign(new Error('rate limited'), { statusCode: context.statusCode }),
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.code(429).send(BOOKING_ERRORS.rateLimited);
    if (status === 413) return reply.code(413).send(BOOKING_ERRORS.payloadTooLarge);
    if (status === 415) return reply.code(415).send(BOOKING_ERRORS.unsupportedMediaType);
    if (status === 400) return reply.code(400).send(BOOKING_ERRORS.unreadable);
    if (isStoreUnavailable(error)) {
      request.log.warn({ err: error, outcome: 'store_unavailable' }, 'booking not stored: the lead store is busy or unreachable');
      return reply.code(503).header('retry-after', String(STORE_UNAVAILABLE_RETRY_AFTER_S)).send(BOOKING_ERRORS.storeUnavailable);
    }
    request.log.error({ err: error }, 'booking request failed');
    return reply.code(500).send(BOOKING_ERRORS.internal);
  });

  const webhook = (
    provider: BookingProvider,
    secret: string | undefined,
    check: (body: Buffer, request: FastifyRequest, secret: string) => SignatureCheck,
    read: (body: unknown) => ReadPayload,
  ) =>
    async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
      if (secret === undefined) {
        request.log.warn({ provider, outcome: 'not_set_up' }, 'booking webhook refused: its secret is not set');
        return reply.code(404).send(notSetUp(provider));
      }
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signed = check(body, request, secret);
      if (!signed.ok) {
        request.log.warn({ provider, outcome: 'invalid_signature', problem: signed.problem }, 'booking webhook refused: bad signature');
        return reply.code(401).send(BOOKING_ERRORS.signature);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return reply.code(400).send(BOOKING_ERRORS.unreadable);
      }
      const payload = read(parsed);
      if (payload.kind === 'ignored') {
        request.log.info({ provider, event: payload.event, outcome: 'ignored' }, `booking webhook ignored: ${payload.why}`);
        return reply.code(200).send(RECEIVED);
      }
      if (payload.kind === 'invalid') {
        request.log.warn({ provider, field: payload.field, outcome: 'invalid' }, 'booking webhook refused: the meeting lacks what we need');
        return reply.code(400).send({ error: 'invalid_booking', field: payload.field, message: payload.message });
      }
      const result = await service.take(payload.notice, body, now());
      if (result.kind === 'repeat') {
        request.log.info({ provider, outcome: 'repeat' }, 'booking webhook repeated: already recorded, nothing changed');
      } else if (result.kind === 'erased') {
        request.log.info({ provider, outcome: 'erased' }, 'booking webhook ignored: the person of this meeting was erased');
      } else {
        request.log.info(
          {
            provider,
            outcome: result.booking.leadId === undefined ? 'unmatched' : 'linked',
            change: payload.notice.change,
            bookingId: result.booking.id,
            leadId: result.booking.leadId,
          },
          'booking recorded',
        );
      }
      return reply.code(200).send(RECEIVED);
    };

  const postOptions = { bodyLimit: BOOKING_BODY_LIMIT_BYTES } as const;
  app.post(
    '/bookings/cal',
    postOptions,
    webhook(
      'cal',
      config.calWebhookSecret,
      (body, request, secret) => checkCalSignature(body, request.headers['x-cal-signature-256'], secret),
      readCalPayload,
    ),
  );
  app.post(
    '/bookings/calendly',
    postOptions,
    webhook(
      'calendly',
      config.calendlyWebhookSigningKey,
      (body, request, secret) => checkCalendlySignature(body, request.headers['calendly-webhook-signature'], secret, now()),
      readCalendlyPayload,
    ),
  );

  const confirmationOptions = {
    config: { rateLimit: { max: BOOKING_CONFIRMATION_RATE_LIMIT_PER_MINUTE, timeWindow: RATE_LIMIT_WINDOW_MS } },
  } as const;
  app.get<{ Params: { leadId: string } }>('/bookings/lead/:leadId', confirmationOptions, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { leadId } = request.params;
    const confirmation = LEAD_ID.test(leadId) ? await service.confirmation(leadId.toLowerCase()) : undefined;
    if (confirmation === undefined) return reply.code(404).send(BOOKING_ERRORS.noMeeting);
    return reply.code(200).send(confirmation);
  });
};
