// Every refusal and failure the studio answers is JSON `{ message }` in plain words the browser app
// shows as it is (a workspace conflict adds `reason`): a request of the wrong shape or too large, an
// upload of the wrong kind, a change with nobody signed in, a path that is not there. Anything
// unexpected is logged and answered 500 without its details, saying that the drafts are kept.
import type { FastifyError, FastifyPluginAsync, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { policyHeaders } from '../../../back-office/front-door/security-headers.ts';
import { MEDIA_TYPES } from '../access.ts';
import { ImageError, MAX_UPLOAD_TEXT } from '../images.ts';
import { JSON_BODY_LIMIT } from '../json-body.ts';
import { WorkspaceError } from '../workspace.ts';
import { BodyShapeError } from './body-parsers.ts';
import { RequestShapeError } from './request-checks.ts';
import { STUDIO_POLICY } from './security-headers.ts';
import { NoSessionError } from './sessions.ts';

export const NOT_FOUND = { message: 'Not found' } as const;

const errorAnswers: FastifyPluginAsync = async (app) => {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof WorkspaceError)
      return reply.code(error.status).send({ message: error.message, ...(error.reason ? { reason: error.reason } : {}) });
    if (error instanceof ImageError) return reply.code(error.status).send({ message: error.message });
    if (error instanceof BodyShapeError || error instanceof RequestShapeError) return reply.code(400).send({ message: error.message });
    if (error instanceof NoSessionError) return reply.code(401).send({ message: error.message });
    const status = 'statusCode' in error ? error.statusCode : undefined;
    if (status === 413) {
      const picture = MEDIA_TYPES.image.includes(String(request.headers['content-type']).split(';')[0]!.trim().toLowerCase());
      return reply.code(413).send({
        message: picture
          ? `That picture is too large: it can be at most ${MAX_UPLOAD_TEXT}.`
          : `That change is too large: the studio takes at most ${JSON_BODY_LIMIT / 1024 / 1024} MB at once.`,
      });
    }
    if (status === 415)
      return reply.code(415).send({ message: 'This kind of upload is not accepted: send JSON, or a PNG, JPEG or WebP picture.' });
    if (status !== undefined && status >= 400 && status < 500)
      return reply.code(status).send({ message: 'The request was not understood.' });
    request.log.error({ err: error }, 'studio request failed');
    return reply.code(500).send({ message: 'Something went wrong in the studio. Nothing was lost: your drafts are kept. Try again.' });
  });

  // A plain answer that does not repeat the path it was asked for.
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send(NOT_FOUND));
};

/**
 * Fastify's `frameworkErrors`: a URL it cannot decode (400) or a path parameter over its length limit
 * (414), refused before routing and so before any hook, helmet's included. Answered in the studio's
 * own words, with its security headers, and without repeating the address (Fastify's own answer
 * echoes it and names its internal error code).
 */
export function answerFrameworkError(error: FastifyError, reply: FastifyReply): FastifyReply {
  const status = error.statusCode ?? 400;
  const message =
    status === 400
      ? 'This address holds a broken percent-escape (such as %ZZ): it names nothing in the studio.'
      : status === 414
        ? 'This address is too long: it names nothing in the studio.'
        : 'The request was not understood.';
  return reply.code(status).headers(policyHeaders(STUDIO_POLICY)).send({ message });
}

// Not encapsulated: the handlers answer for every route, and for requests no route takes.
export const errorAnswersPlugin = fp(errorAnswers, { name: 'studio-error-answers', fastify: '5.x' });
