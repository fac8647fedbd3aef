// /api/publish and /api/undo: every draft goes live in one step, or the last publish is undone
// (publish.ts does the work, one at a time). The answer is the publish record, or why nothing
// changed: 409 when there is nothing to publish or undo or the files changed meanwhile, 422 when the
// content has mistakes, 500 when the build failed (the live site is untouched). Neither reads
// anything from its body but that it is a JSON object. When the studio requires review, someone who
// may not publish without it (an editor) is refused both, 403: they ask for review instead.
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher, PublishResult } from '../publish.ts';
import { REVIEW_MESSAGES, type PublishRights } from '../reviews.ts';

export type PublishRoutesOptions = { publisher: Publisher; rights: PublishRights };

const noDetails = z.object({});

export const STATUS_OF_REFUSAL = { nothing: 409, invalid: 422, conflict: 409, 'build-failed': 500, 'undo-impossible': 409 } as const;

export const publishRoutes: StudioRoutes<PublishRoutesOptions> = async (app, { publisher, rights }) => {
  app.post('/publish', { schema: { body: noDetails } }, async (request, reply) => {
    if (!rights.mayPublish(request.studioSession)) return reply.code(403).send({ message: REVIEW_MESSAGES.publishRefused });
    return sendPublish(reply, await publisher.publish(editorOf(request)));
  });
  app.post('/undo', { schema: { body: noDetails } }, async (request, reply) => {
    if (!rights.mayPublish(request.studioSession)) return reply.code(403).send({ message: REVIEW_MESSAGES.publishRefused });
    return sendPublish(reply, await publisher.undoLast(editorOf(request)));
  });
};

/** A publish's answer: the record, or why nothing changed with its status (a restore answers the same way). */
export function sendPublish(reply: FastifyReply, result: PublishResult) {
  if (result.ok) return reply.send(result);
  return reply.code(STATUS_OF_REFUSAL[result.reason]).send(result);
}
