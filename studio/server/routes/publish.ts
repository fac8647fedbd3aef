// /api/publish and /api/undo: every draft goes live in one step, or the last publish is undone
// (publish.ts does the work, one at a time). The answer is the publish record, or why nothing
// changed: 409 when there is nothing to publish or undo or the files changed meanwhile, 422 when the
// content has mistakes, 500 when the build failed (the live site is untouched). Neither reads
// anything from its body but that it is a JSON object.
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher, PublishResult } from '../publish.ts';

export type PublishRoutesOptions = { publisher: Publisher };

const noDetails = z.object({});

const STATUS_OF_REFUSAL = { nothing: 409, invalid: 422, conflict: 409, 'build-failed': 500, 'undo-impossible': 409 } as const;

export const publishRoutes: StudioRoutes<PublishRoutesOptions> = async (app, { publisher }) => {
  app.post('/publish', { schema: { body: noDetails } }, async (request, reply) =>
    sendPublish(reply, await publisher.publish(editorOf(request))),
  );
  app.post('/undo', { schema: { body: noDetails } }, async (request, reply) =>
    sendPublish(reply, await publisher.undoLast(editorOf(request))),
  );
};

/** A publish's answer: the record, or why nothing changed with its status (a restore answers the same way). */
export function sendPublish(reply: FastifyReply, result: PublishResult) {
  if (result.ok) return reply.send(result);
  return reply.code(STATUS_OF_REFUSAL[result.reason]).send(result);
}
