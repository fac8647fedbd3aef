import { createHash, randomUUID } from 'node:crypto';
import { settledWithin } from '../../back-office/concurrency.ts';
import rateLimit from '@fastify/rate-limit';
import { rateLimitStoreOption } from '../rate-limits/rate-limit-store-option.ts';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RoiParameters } from '../../lead/roi/engine.ts';
import { FORM_ERROR_KEY, VALIDATION_MESSAGES } from '../../lead/rules.ts';
import type { FieldErrors, LeadFormId } from '../../lead/rules.ts';
import type { Config } from '../config.ts';
import { isStoreUnavailable } from '../../back-office/database/store-unavailable.ts';
import { chooseBackHref, renderMessagePage, renderValidationErrorPage } from '../leads/error-page.ts';
import { takeInLead } from '../leads/intake.ts';
import { maskEmail, maskPhone } from '../../lead/mask.ts';
import { isAllowedOrigin } from '../leads/origin.ts';
import { loadRoiParameters } from '../leads/roi-parameters.ts';
import { CallbackWordingBook, loadCallbackWording } from '../leads/callback-wordings.ts';

// POST /api/leads: JSON from the forms' fetch, or
// application/x-www-form-urlencoded from a form posted without JavaScript. Answers:
//   201 {"id"} (JSON) / 303 → /thankyou (form post)   stored, or spam stored flagged; the same
//       Idempotency-Key with the same body answers the first id again and stores nothing
//   409 the same Idempotency-Key is still being processed · 422 it was used with another body
//   400 {"error":"validation","fields":{…}} (JSON) / an HTML page listing each message (form post)
//   403 cross-site post · 413 over 16 KiB · 415 other content types · 429 + Retry-After
// The lead and its delivery record are committed before the answer.

export const LEAD_BODY_LIMIT_BYTES = 16 * 1024;
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const THANK_YOU_PATH = '/thankyou';
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const IDEMPOTENCY_HEADER = 'idempotency-key';

export const LEAD_ERRORS = {
  forbiddenOrigin: { error: 'forbidden_origin' },
  payloadTooLarge: { error: 'payload_too_large' },
  unsupportedMediaType: { error: 'unsupported_media_type' },
  rateLimited: { error: 'rate_limited' },
  internal: { error: 'internal' },
  storeUnavailable: { error: 'store_unavailable', message: 'Your details were not saved yet. Please try again in a moment.' },
  // The IETF Idempotency-Key draft's two refusals: nothing is stored, and the client is told why.
  keyInFlight: {
    error: 'idempotency_key_in_flight',
    message: 'A request with this Idempotency-Key is still being processed. Wait for its answer, then try again.',
  },
  keyReused: {
    error: 'idempotency_key_reused',
    message: 'This Idempotency-Key was already used for a different submission. Send each new submission with a new key.',
  },
} as const;
// A store busy past its own wait is usually free again within seconds.
const STORE_UNAVAILABLE_RETRY_AFTER_S = 2;
// A request with the same key still in flight is usually answered within a second.
const KEY_IN_FLIGHT_RETRY_AFTER_S = 1;

export type LeadRoutesOptions = {
  config: Config;
  /** Defaults to the build's DIST_DIR/roi-parameters.json, read at start and again whenever DIST_DIR holds a new build. */
  roiParameters?: RoiParameters;
};

export const leadRoutes: FastifyPluginAsync<LeadRoutesOptions> = async (app, options) => {
  const { config } = options;
  let roiParameters = options.roiParameters ?? (await loadRoiParameters(config.distDir));
  // Every "call me back now" wording a build of this process showed: a page opened before a publish
  // is answered with the words it showed.
  const callbackWordings = new CallbackWordingBook();
  callbackWordings.remember(await loadCallbackWording(config.distDir));
  // A new build (a studio publish) may carry new ROI numbers: leads are recomputed with the numbers
  // of the page the visitor now gets. It may carry a new call-back wording too.
  const unsubscribe = app.liveBuild.subscribe(async () => {
    try {
      if (options.roiParameters === undefined) roiParameters = await loadRoiParameters(config.distDir);
    } catch (error) {
      app.log.error({ err: error }, 'the new build has no usable ROI parameters; still using the previous ones');
    }
    try {
      callbackWordings.remember(await loadCallbackWording(config.distDir));
    } catch (error) {
      app.log.error({ err: error }, 'the new build has no usable call-back wording; still using the previous ones');
    }
  });
  app.addHook('onClose', async () => unsubscribe());
  const { store, outbox } = app.leadRelay;
  // Idempotency keys (hashed) of the requests this process is storing right now.
  const keysInFlight = new Set<string>();

  // Only the two accepted body types are parsed here; anything else is a 415 before it is read.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    // Object.fromEntries defines own properties, so a `__proto__` field cannot reach a prototype.
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  await app.register(rateLimit, {
    max: config.leadRateLimitPerMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    // Counted across every server on PostgreSQL; in this process's memory with SQLite.
    ...rateLimitStoreOption(app, 'leads'),
    errorResponseBuilder: (_request, context) => Object.assign(new Error('rate limited'), { statusCode: context.statusCode }),
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 429) {
      if (!isFormPost(request)) return reply.code(429).send(LEAD_ERRORS.rateLimited);
      // The forms' rate-limit wording, with the wait @fastify/rate-limit put in Retry-After.
      const message = `Please wait ${String(reply.getHeader('retry-after'))} seconds before submitting again.`;
      const backHref = chooseBackHref(undefined, request.headers.referer, request.headers.host);
      return sendHtml(reply, 429, renderMessagePage('Too many submissions', message, backHref));
    }
    if (status === 413) return reply.code(413).send(LEAD_ERRORS.payloadTooLarge);
    if (status === 415) return reply.code(415).send(LEAD_ERRORS.unsupportedMediaType);
    if (status === 400) {
      // Unreadable JSON, an empty body, a forbidden `__proto__` key: one message for the whole form.
      return answerInvalid(request, reply, undefined, { [FORM_ERROR_KEY]: VALIDATION_MESSAGES.invalidInput });
    }
    if (isStoreUnavailable(error)) {
      request.log.warn(
        { err: error, outcome: 'store_unavailable', retryAfterS: STORE_UNAVAILABLE_RETRY_AFTER_S },
        'lead not stored: the lead store is busy or unreachable; answered 503 with Retry-After so the browser sends it again',
      );
      reply.header('retry-after', String(STORE_UNAVAILABLE_RETRY_AFTER_S));
      if (!isFormPost(request)) return reply.code(503).send(LEAD_ERRORS.storeUnavailable);
      const backHref = chooseBackHref(undefined, request.headers.referer, request.headers.host);
      return sendHtml(reply, 503, renderMessagePage('Please try again', LEAD_ERRORS.storeUnavailable.message, backHref));
    }
    request.log.error({ err: error }, 'lead request failed');
    return reply.code(500).send(LEAD_ERRORS.internal);
  });

  app.post('/leads', { bodyLimit: LEAD_BODY_LIMIT_BYTES, onRequest: refuseCrossSite }, async (request, reply) => {
    const receivedAt = Date.now();
    // What the CRM receives comes from the request alone, never from the analytics: their visit is a
    // guess from address and browser (colleagues behind one office address share it) and their
    // campaign words may be bucketed, and the lead is stored without waiting for any of them.
    const intake = takeInLead(request.body, {
      receivedAt,
      roiParameters,
      callbackWordings: callbackWordings.wordings,
      userAgentHeader: request.headers['user-agent'],
      refererHeader: request.headers.referer,
    });
    if (intake.kind === 'invalid') {
      request.log.info({ outcome: 'invalid', formId: intake.formId, fields: Object.keys(intake.fields) }, 'lead rejected');
      return answerInvalid(request, reply, intake.formId, intake.fields);
    }

    const id = randomUUID();
    const idempotencyKey = readIdempotencyKey(request);
    const idempotency =
      idempotencyKey === undefined ? undefined : { keyHash: sha256(idempotencyKey), bodyHash: sha256(JSON.stringify(request.body)) };
    if (idempotency !== undefined && keysInFlight.has(idempotency.keyHash)) {
      request.log.info({ outcome: 'key_in_flight' }, 'lead refused: its Idempotency-Key is still being processed');
      return reply.code(409).header('retry-after', String(KEY_IN_FLIGHT_RETRY_AFTER_S)).send(LEAD_ERRORS.keyInFlight);
    }
    if (idempotency !== undefined) keysInFlight.add(idempotency.keyHash);
    let result;
    try {
      result = await store.insertLead({
        id,
        receivedAt,
        source: intake.source,
        email: intake.email,
        payload: { ...intake.payload, lead_id: id },
        spamReason: intake.spamReason,
        idempotency,
        initialState: intake.spamReason !== undefined ? 'spam' : outbox === undefined ? 'held' : 'pending',
      });
    } finally {
      if (idempotency !== undefined) keysInFlight.delete(idempotency.keyHash);
    }
    if (result.kind === 'key-reused') {
      request.log.warn(
        { firstLeadId: result.id, source: intake.source, outcome: 'key_reused' },
        'lead refused: Idempotency-Key reused with a different body',
      );
      return reply.code(422).send(LEAD_ERRORS.keyReused);
    }
    if (result.kind === 'created') {
      // Counted before the outbox is woken, so "delivered" never arrives first; the answer to the
      // browser waits for neither. Spam is counted too, as not accepted: "Not spam" may accept it later.
      const spam = intake.spamReason !== undefined;
      // A slow or stuck analytics store delays the wake-up by at most COUNT_BEFORE_SEND_WAIT_MS.
      const counted = countLead(request, { leadId: result.id, at: receivedAt, form: intake.formId, payload: intake.payload, spam });
      if (!spam && outbox !== undefined) void settledWithin(counted, COUNT_BEFORE_SEND_WAIT_MS).then(() => outbox.nudge());
      // The assigner gives the lead an owner in its own loop, after this answer: it never slows taking
      // a lead or makes it fail (its errors are logged there), and its sweep places what a nudge missed.
      if (!spam && app.hasDecorator('sales')) app.sales.assigner.nudge();
    }
    request.log.info(
      {
        leadId: result.id,
        source: intake.source,
        email: maskEmail(intake.email),
        phone: maskPhone(intake.phone),
        outcome: describeOutcome(result.kind, intake.spamReason !== undefined, outbox !== undefined),
        spamReason: intake.spamReason,
      },
      result.kind === 'duplicate' ? 'lead repeated with the same Idempotency-Key: first answer returned' : 'lead stored',
    );
    if (isFormPost(request)) return reply.code(303).header('location', THANK_YOU_PATH).send();
    return reply.code(201).send({ id: result.id });
  });

  async function refuseCrossSite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const allowed = isAllowedOrigin({
      origin: request.headers.origin,
      secFetchSite: firstHeader(request.headers['sec-fetch-site']),
      host: request.headers.host,
      siteUrl: config.siteUrl,
    });
    if (allowed) return;
    request.log.warn({ origin: request.headers.origin, outcome: 'forbidden_origin' }, 'cross-site lead post refused');
    await reply.code(403).send(LEAD_ERRORS.forbiddenOrigin);
  }
};

/** How long the outbox's wake-up waits for the analytics to count a lead: their trouble never holds a delivery up. */
const COUNT_BEFORE_SEND_WAIT_MS = 250;

/** Counts a stored lead in the analytics (when they run and its sender is counted), under the words it carried. */
async function countLead(
  request: FastifyRequest,
  lead: { leadId: string; at: number; form: LeadFormId | undefined; payload: Readonly<Record<string, unknown>>; spam: boolean },
): Promise<void> {
  const analytics = request.server.hasDecorator('analytics') ? request.server.analytics : undefined;
  const { form } = lead;
  if (analytics === undefined || form === undefined) return;
  try {
    await analytics.countLead(request, { ...lead, form });
  } catch (error) {
    request.log.warn({ err: error, leadId: lead.leadId }, 'could not count the lead in the analytics');
  }
}

function describeOutcome(kind: 'created' | 'duplicate', isSpam: boolean, isForwarding: boolean): string {
  if (kind === 'duplicate') return 'duplicate';
  if (isSpam) return 'spam';
  return isForwarding ? 'stored' : 'held';
}

function answerInvalid(request: FastifyRequest, reply: FastifyReply, formId: LeadFormId | undefined, fields: FieldErrors): FastifyReply {
  if (!isFormPost(request)) return reply.code(400).send({ error: 'validation', fields });
  const backHref = chooseBackHref(formId, request.headers.referer, request.headers.host);
  return sendHtml(reply, 400, renderValidationErrorPage(formId, fields, backHref));
}

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

function isFormPost(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM_CONTENT_TYPE);
}

function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const key = firstHeader(request.headers[IDEMPOTENCY_HEADER])?.trim();
  return key === undefined || key === '' ? undefined : key;
}

// Keys and bodies are stored as hashes: any length fits, and the client's key is never kept.
function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
