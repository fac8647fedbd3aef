// /api/publish, /api/undo and /api/publish-runs/<id>: every draft goes live in one step, or the last
// publish is undone (publish.ts does the work, one at a time). A build takes longer than a quiet
// connection may stay open, so both answer at once, 202 with the run (publish-runs.ts): its steps,
// the one under way. The screen reads the run again until it is done; its answer is then the publish
// record, or why nothing changed (`reason`: nothing to publish or undo, files changed meanwhile,
// mistakes in the content, a failed build that left the live site untouched). Neither reads anything
// from its body but that it is a JSON object. When the studio requires review, someone who may not
// publish without it (an editor) is refused both, 403: they ask for review instead.
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { PublishRunView } from '../../api-types.ts';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher, PublishResult } from '../publish.ts';
import type { PublishRuns, StepReporter } from '../publish-runs.ts';
import { REVIEW_MESSAGES, type PublishRights } from '../reviews.ts';

export type PublishRoutesOptions = { publisher: Publisher; runs: PublishRuns; rights: PublishRights };

const noDetails = z.object({});
const runParams = z.object({ id: z.uuid({ error: 'A publish is named by the id the studio gave it when it started.' }) });

/** Said for a run the studio does not know: never started, or started before the studio was restarted. */
export const UNKNOWN_RUN_MESSAGE =
  'The studio has no record of this publish: it may have been restarted since. The recent publishes below show what went live.';

/** The status of a refusal, for a publish answered when it is done (an approved review request). */
export const STATUS_OF_REFUSAL = { nothing: 409, invalid: 422, conflict: 409, 'build-failed': 500, 'undo-impossible': 409 } as const;

export const publishRoutes: StudioRoutes<PublishRoutesOptions> = async (app, { publisher, runs, rights }) => {
  app.post('/publish', { schema: { body: noDetails } }, async (request, reply) => {
    if (!rights.mayPublish(request.studioSession)) return reply.code(403).send({ message: REVIEW_MESSAGES.publishRefused });
    const user = editorOf(request);
    return startRun(reply, runs, { action: 'publish', user, planned: publisher.plannedSteps() }, (report) =>
      publisher.publish(user, {}, report),
    );
  });
  app.post('/undo', { schema: { body: noDetails } }, async (request, reply) => {
    if (!rights.mayPublish(request.studioSession)) return reply.code(403).send({ message: REVIEW_MESSAGES.publishRefused });
    const user = editorOf(request);
    return startRun(reply, runs, { action: 'undo', user, planned: publisher.plannedSteps() }, (report) => publisher.undoLast(user, report));
  });
  app.get('/publish-runs/:id', { schema: { params: runParams } }, async (request, reply) => {
    const run = runs.get(request.params.id);
    if (!run) return reply.code(404).send({ message: UNKNOWN_RUN_MESSAGE });
    return { run };
  });
};

/** Starts a publish (or an undo, or a restore) and answers at once: 202 with the run to follow. */
export function startRun(
  reply: FastifyReply,
  runs: PublishRuns,
  what: Parameters<PublishRuns['start']>[0],
  task: (report: StepReporter) => Promise<PublishResult>,
) {
  const run: PublishRunView = runs.start(what, task);
  return reply.code(202).send({ run });
}
