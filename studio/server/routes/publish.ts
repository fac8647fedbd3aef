// /api/publish and /api/undo: the drafts the publish screen showed go live in one step, or the last
// publish is undone (publish.ts does the work, one at a time). A publish names those drafts (`files`:
// each path with the fingerprint of the text shown); nothing else goes out. The answer is the publish
// record, or why nothing changed: 409 when there is nothing to publish or undo, a draft was saved
// since the screen showed it, or the files changed meanwhile; 422 when the content has mistakes;
// 500 when the build failed (the live site is untouched). When the studio requires review, someone
// who may not publish without it (an editor) is refused both, 403: they ask for review instead; and
// an admin's publish is refused (403) a draft holding anyone else's change, which goes out by its review.
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher, PublishRefusal, PublishResult } from '../publish.ts';
import { REVIEW_MESSAGES, type PublishRights } from '../reviews.ts';
import { seenDrafts } from '../request-shapes.ts';
import type { Workspace } from '../workspace.ts';

export type PublishRoutesOptions = { publisher: Publisher; rights: PublishRights; workspace: Workspace };

const noDetails = z.object({});
const publishBody = z.object({ files: seenDrafts });

export const STATUS_OF_REFUSAL: Readonly<Record<PublishRefusal, 403 | 409 | 422 | 500>> = {
  nothing: 409,
  invalid: 422,
  conflict: 409,
  'build-failed': 500,
  'undo-impossible': 409,
  'changed-since': 409,
  'needs-review': 403,
};

/**
 * How long a publishing request may wait for its answer without a byte on the connection: a full
 * build on a busy server takes minutes, and a connection dropped at the idle limit before the answer
 * makes the browser send the publish again and lose the answer.
 */
export const PUBLISH_ANSWER_WAIT_MS = 15 * 60 * 1000;

/** Keeps this request's connection open until its publish answers (the next request on it has the usual limit again). */
export function waitForPublish(request: FastifyRequest): void {
  // A request made in a test with `inject` has a stand-in socket without timers.
  const socket = request.raw.socket as Partial<typeof request.raw.socket> | undefined;
  if (typeof socket?.setTimeout === 'function') socket.setTimeout(PUBLISH_ANSWER_WAIT_MS);
}

export const publishRoutes: StudioRoutes<PublishRoutesOptions> = async (app, { publisher, rights, workspace }) => {
  app.post('/publish', { schema: { body: publishBody } }, async (request, reply) => {
    if (!rights.mayPublish(request.studioSession)) return reply.code(403).send({ message: REVIEW_MESSAGES.publishRefused });
    waitForPublish(request);
    // A name that is no content file is refused here, with what it is.
    const seen = request.body.files.map((file) => ({ path: workspace.contentFile(file.path).path, fingerprint: file.fingerprint }));
    return sendPublish(reply, await publisher.publish(editorOf(request), { seen, ownDraftsOnly: rights.reviewRequired }));
  });
  app.post('/undo', { schema: { body: noDetails } }, async (request, reply) => {
    if (!rights.mayPublish(request.studioSession)) return reply.code(403).send({ message: REVIEW_MESSAGES.publishRefused });
    waitForPublish(request);
    return sendPublish(reply, await publisher.undoLast(editorOf(request)));
  });
};

/** A publish's answer: the record, or why nothing changed with its status (a restore answers the same way). */
export function sendPublish(reply: FastifyReply, result: PublishResult) {
  if (result.ok) return reply.send(result);
  return reply.code(STATUS_OF_REFUSAL[result.reason]).send(result);
}
