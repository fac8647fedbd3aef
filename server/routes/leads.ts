import { createHash, randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RoiParameters } from '../../blocks/roi/engine.ts';
import { FORM_ERROR_KEY, VALIDATION_MESSAGES } from '../../blocks/forms/schemas.ts';
import type { FieldErrors, LeadFormId } from '../../blocks/forms/schemas.ts';
import type { Config } from '../config.ts';
import { chooseBackHref, renderMessagePage, renderValidationErrorPage } from '../leads/error-page.ts';
import { takeInLead } from '../leads/intake.ts';
import { maskEmail, maskPhone } from '../leads/mask.ts';
import { isAllowedOrigin } from '../leads/origin.ts';
import { loadRoiParameters } from '../leads/roi-parameters.ts';

// POST /api/leads (ARCHITECTURE.md 'Runtime contract'): JSON from the forms' fetch, or
// application/x-www-form-urlencoded from a form posted without JavaScript. Answers:
//   201 {"id"} (JSON) / 303 → /thankyou (form post)   stored, or spam stored flagged
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
} as const;

export type LeadRoutesOptions = {
  config: Config;
  /** Defaults to content/roi.yaml, read once at start. */
  roiParameters?: RoiParameters;
};

export const leadRoutes: FastifyPluginAsync<LeadRoutesOptions> = async (app, options) => {
  const { config } = options;
  const roiParameters = options.roiParameters ?? (await loadRoiParameters());
  const { store, outbox } = app.leadRelay;

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
    errorResponseBuilder: (_request, context) => Object.assign(new Error('rate limited'), { statusCode: context.statusCode }),
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 429) {
      if (!isFormPost(request)) return reply.code(429).send(LEAD_ERRORS.rateLimited);
      // Spec §8's rate-limit wording, with the wait @fastify/rate-limit put in Retry-After.
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
    request.log.error({ err: error }, 'lead request failed');
    return reply.code(500).send(LEAD_ERRORS.internal);
  });

  app.post('/leads', { bodyLimit: LEAD_BODY_LIMIT_BYTES, onRequest: refuseCrossSite }, async (request, reply) => {
    const receivedAt = Date.now();
    const intake = takeInLead(request.body, {
      receivedAt,
      roiParameters,
      userAgentHeader: request.headers['user-agent'],
      refererHeader: request.headers.referer,
    });
    if (intake.kind === 'invalid') {
      request.log.info({ outcome: 'invalid', formId: intake.formId, fields: Object.keys(intake.fields) }, 'lead rejected');
      return answerInvalid(request, reply, intake.formId, intake.fields);
    }

    const id = randomUUID();
    const idempotencyKey = readIdempotencyKey(request);
    const result = await store.insertLead({
      id,
      receivedAt,
      source: intake.source,
      email: intake.email,
      payload: { ...intake.payload, lead_id: id },
      spamReason: intake.spamReason,
      idempotencyKeyHash: idempotencyKey === undefined ? undefined : hashIdempotencyKey(idempotencyKey),
      initialState: intake.spamReason !== undefined ? 'spam' : outbox === undefined ? 'held' : 'pending',
    });
    if (result.kind === 'created' && intake.spamReason === undefined) outbox?.nudge();
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

// Stored as a hash: any length fits, and the client's value is never kept.
function hashIdempotencyKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
