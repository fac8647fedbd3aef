// /api/publish, /api/undo and /api/publish-runs/<id>: the drafts the publish screen showed go live in
// one step, or the last publish is undone (publish.ts does the work, one at a time). A publish names
// those drafts (`files`: each path with the fingerprint of the text shown); nothing else goes out.
// What can be told at once is answered at once: 409 when there is nothing to publish or a draft was
// saved since the screen showed it; 403 when the studio requires review and the person may not
// publish without it (an editor: they ask for review instead), when a draft holds anyone else's
// change (it goes out by its review), when a waiting scheduled publish carries a draft (409: it goes
// live at its time, once), or when it changes where the booking page points and the
// person may not (booking-page.ts). Otherwise a build takes longer than a quiet connection may stay
// open, so the answer is 202 with the run (publish-runs.ts): its steps, the one under way. The screen
// reads the run again until it is done; its answer is then the publish record, or why nothing changed
// (`reason`: nothing to publish or undo, a draft saved while waiting for an earlier publish, files
// changed meanwhile, mistakes in the content, a failed build that left the live site untouched).
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PublishRunView } from '../../api-types.ts';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import { takeSeenDrafts, type Publisher, type PublishResult } from '../publish.ts';
import { RunLimitError, type PublishRuns, type RunViewer } from '../publish-runs.ts';
import type { StepReporter } from '../publish.ts';
import type { PublishRights } from '../reviews.ts';
import { seenDrafts } from '../request-shapes.ts';
import type { Draft, Workspace } from '../workspace.ts';
import { bookingPageRefused, changesBookingPage } from '../booking-page.ts';
import type { Scheduler } from '../schedule.ts';

/** `scheduler`: a draft a waiting scheduled publish carries is refused, to go live at its time only. */
export type PublishRoutesOptions = {
  publisher: Publisher;
  runs: PublishRuns;
  rights: PublishRights;
  workspace: Workspace;
  scheduler?: Scheduler;
};

const noDetails = z.object({});
const publishBody = z.object({ files: seenDrafts });
const runParams = z.object({ id: z.uuid({ error: 'A publish is named by the id the studio gave it when it started.' }) });

/** Said for a run the studio does not know: never started, or started before the studio was restarted. */
export const UNKNOWN_RUN_MESSAGE =
  'The studio has no record of this publish: it may have been restarted since. The recent publishes below show what went live.';

/** The status of each refusal answered before any run starts (later ones are the run's answer). */
const STATUS_OF_REFUSAL = { nothing: 409, 'changed-since': 409, 'needs-review': 403, 'booking-page': 403 } as const;

export const publishRoutes: StudioRoutes<PublishRoutesOptions> = async (app, { publisher, runs, rights, workspace, scheduler }) => {
  app.post('/publish', { config: { right: 'studio:publish' }, schema: { body: publishBody } }, async (request, reply) => {
    const user = editorOf(request);
    // A name that is no content file is refused here, with what it is.
    const seen = request.body.files.map((file) => ({ path: workspace.contentFile(file.path).path, fingerprint: file.fingerprint }));
    // A draft already scheduled goes live at its time, once: publishing it now too is refused.
    const scheduled = scheduler?.refusalFor(
      seen.map((file) => file.path),
      'published now',
    );
    if (scheduled) return reply.code(409).send({ ok: false, reason: 'scheduled', message: scheduled });
    const ownDraftsOnly = rights.reviewRequired;
    // A draft changed since the screen showed it, or held for its review, is refused before anything
    // starts; the run looks again once its turn comes (a save while an earlier publish ran).
    const taken = takeSeenDrafts(workspace, seen, user, ownDraftsOnly);
    if (!taken.ok) return reply.code(STATUS_OF_REFUSAL[taken.reason]).send(taken);
    // A change of where the booking page points, by someone who may not make it (the publish checks again).
    if (!rights.mayChangeBookingPage(request.studioSession) && draftsChangeBookingPage(workspace, taken.drafts))
      return reply
        .code(STATUS_OF_REFUSAL['booking-page'])
        .send({ ok: false, reason: 'booking-page', message: bookingPageRefused('publish') });
    return startRun(reply, runs, { action: 'publish', user, planned: publisher.plannedSteps() }, (report) =>
      publisher.publish(user, { seen, ownDraftsOnly }, report),
    );
  });
  app.post('/undo', { config: { right: 'studio:publish' }, schema: { body: noDetails } }, async (request, reply) => {
    const user = editorOf(request);
    return startRun(reply, runs, { action: 'undo', user, planned: publisher.plannedSteps() }, (report) => publisher.undoLast(user, report));
  });
  app.get('/publish-runs/:id', { config: { right: 'studio:edit' }, schema: { params: runParams } }, async (request, reply) => {
    // Another person's run is not shown: its answer is theirs (an admin sees every run).
    const run = runs.get(request.params.id, runViewerOf(request, rights));
    if (!run) return reply.code(404).send({ message: UNKNOWN_RUN_MESSAGE });
    return { run };
  });
};

/** Whether making `drafts` live would change where the booking page points. */
export function draftsChangeBookingPage(workspace: Workspace, drafts: readonly Pick<Draft, 'path' | 'text'>[]): boolean {
  return drafts.some((draft) =>
    changesBookingPage({
      path: draft.path,
      before: workspace.readDisk(workspace.contentFile(draft.path))?.text ?? null,
      after: draft.text,
    }),
  );
}

/** Starts a publish (or an undo, or a restore) and answers at once: 202 with the run to follow. */
export function startRun(
  reply: FastifyReply,
  runs: PublishRuns,
  what: Parameters<PublishRuns['start']>[0],
  task: (report: StepReporter) => Promise<PublishResult>,
) {
  let run: PublishRunView;
  try {
    run = runs.start(what, task);
  } catch (error) {
    // Too many runs waiting: refused before anything starts, saying why.
    if (error instanceof RunLimitError) return reply.code(429).send({ message: error.message });
    throw error;
  }
  return reply.code(202).send({ run });
}

/** Whose runs a request may follow: the person's own; an admin's (or the one person's without accounts), every run. */
export function runViewerOf(request: FastifyRequest, rights: PublishRights): RunViewer {
  return { user: editorOf(request), seesAll: rights.mayCancelAny(request.studioSession) };
}
