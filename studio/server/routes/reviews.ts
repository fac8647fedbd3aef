// /api/reviews: review before publish (reviews.ts). GET lists the requests a person may see (a
// reviewer: all; anyone else: their own) with what they may do, a page at a time and without any
// draft text (a request may hold millions of characters); /api/reviews/request opens one, with each
// file's diff and what the preview draws; POST asks for review of every draft;
// /api/reviews/send-back and /api/reviews/approve are a reviewer's (403 for anyone else); approving
// starts the publish as a run the screen follows (routes/publish.ts), and with `at` schedules it
// instead (schedule.ts). /api/reviews/feedback names the open request covering one file, whose
// comment the editor sees beside the draft. Every text a person wrote (a note, a comment) is
// answered as data, which the browser app shows as text.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ReviewFeedback, ReviewFileView, ReviewRequestDetail, ReviewRequestView, ReviewsAnswer } from '../../api-types.ts';
import { fileData } from '../file-data.ts';
import { diffHunks } from '../line-diff.ts';
import type { StudioNotices } from '../notices.ts';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher } from '../publish.ts';
import type { PublishRuns } from '../publish-runs.ts';
import { contentPath } from '../request-shapes.ts';
import {
  MAX_REVIEW_TEXT,
  REVIEW_MESSAGES,
  ReviewError,
  type PublishRights,
  type ReviewFile,
  type ReviewRequest,
  type Reviews,
} from '../reviews.ts';
import { ScheduleError, type Scheduler } from '../schedule.ts';
import type { Workspace } from '../workspace.ts';
import { startRun } from './publish.ts';
import { localTime, scheduledView } from './schedule.ts';

export type ReviewRoutesOptions = {
  reviews: Reviews;
  rights: PublishRights;
  scheduler: Scheduler;
  workspace: Workspace;
  publisher: Publisher;
  runs: PublishRuns;
  /** The team's e-mails: the admins hear of a request, the editor of its decision. */
  notices: StudioNotices;
};

const TEXT_MESSAGE = `At most ${MAX_REVIEW_TEXT} characters.`;
const requestId = z.uuid({ error: 'The review request is not named.' });
const askBody = z.object({ note: z.string().max(MAX_REVIEW_TEXT, { error: TEXT_MESSAGE }).optional() });
const sendBackBody = z.object({
  id: requestId,
  comment: z.string().trim().min(1, { error: 'Write a comment saying what to change.' }).max(MAX_REVIEW_TEXT, { error: TEXT_MESSAGE }),
});
const approveBody = z.object({ id: requestId, at: localTime.optional() });
const feedbackQuery = z.object({ path: contentPath });
const openQuery = z.object({ id: requestId });
const OFFSET_MESSAGE = 'The offset must be a whole number of 0 or more.';
const listQuery = z.object({
  offset: z
    .string()
    .regex(/^\d{1,6}$/, { error: OFFSET_MESSAGE })
    .transform((digits) => Number(digits))
    .optional(),
});

export const reviewRoutes: StudioRoutes<ReviewRoutesOptions> = async (
  app,
  { reviews, rights, scheduler, workspace, publisher, runs, notices },
) => {
  /** A refusal of this module as its answer; anything else goes on to the studio's error answers. */
  async function answering<T>(reply: FastifyReply, work: () => Promise<T> | T) {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ReviewError || error instanceof ScheduleError) return reply.code(error.status).send({ message: error.message });
      throw error;
    }
  }

  function fileView(file: ReviewFile, decided: boolean): ReviewFileView {
    const opened = workspace.contentFile(file.path);
    const live = workspace.readDisk(opened)?.text ?? null;
    return {
      path: file.path,
      title: file.title,
      kind: opened.kind,
      name: opened.name,
      change: file.change,
      ...(file.changedBy ? { changedBy: file.changedBy } : {}),
      // A decided request keeps no text: it is listed for what it was.
      hunks: decided ? [] : diffHunks(live ?? '', file.text ?? ''),
      // A file that cannot be read is shown as its lines only.
      data: fileData(opened.kind, file.text),
      // What approving changes: the live file now. A decided request has no change left to show.
      before: decided ? null : fileData(opened.kind, live),
    };
  }

  /** A request as the list shows it: what it is and which files, never their texts. */
  function view(request: ReviewRequest, scheduled: ReadonlyMap<string, string> = scheduledTimes(request)): ReviewRequestView {
    const when = request.scheduleId ? scheduled.get(request.scheduleId) : undefined;
    return {
      id: request.id,
      status: request.status === 'replaced' ? 'sent-back' : request.status,
      note: request.note,
      requestedBy: request.requestedBy,
      requestedAt: request.requestedAt,
      ...(request.comment ? { comment: request.comment } : {}),
      ...(request.decidedBy ? { decidedBy: request.decidedBy, decidedAt: request.decidedAt! } : {}),
      ...(when ? { scheduledFor: scheduler.describe(when) } : {}),
      files: request.files.map(({ path: file, title, change, changedBy }) => ({
        path: file,
        title,
        change,
        ...(changedBy ? { changedBy } : {}),
      })),
    };
  }

  /** When each scheduled publish of `requests` runs, read once for the whole answer. */
  function scheduledTimes(...requests: ReviewRequest[]): Map<string, string> {
    if (!requests.some((request) => request.scheduleId)) return new Map();
    return new Map(scheduler.list().map((entry) => [entry.id, entry.at]));
  }

  /** Who sees which requests: a reviewer all, anyone else their own. */
  function visibleTo(request: FastifyRequest) {
    const mayReview = rights.mayReview(request.studioSession);
    const user = editorOf(request);
    return (found: ReviewRequest) => mayReview || found.requestedBy === user;
  }

  app.get('/reviews', { config: { right: 'studio:edit' }, schema: { querystring: listQuery } }, async (request): Promise<ReviewsAnswer> => {
    const session = request.studioSession;
    const page = rights.reviewRequired
      ? reviews.page(visibleTo(request), request.query.offset ?? 0)
      : { requests: [], waiting: 0, nextOffset: null };
    const scheduled = scheduledTimes(...page.requests);
    return {
      required: rights.reviewRequired,
      mayPublish: rights.mayPublish(session),
      mayReview: rights.mayReview(session),
      requests: page.requests.map((found) => view(found, scheduled)),
      waiting: page.waiting,
      nextOffset: page.nextOffset,
    };
  });

  /** One request opened: each file's diff against the live file and the data the preview draws. */
  app.get('/reviews/request', { config: { right: 'studio:edit' }, schema: { querystring: openQuery } }, async (request, reply) =>
    answering(reply, (): { request: ReviewRequestDetail } => {
      if (!rights.reviewRequired) throw new ReviewError(REVIEW_MESSAGES.notFound, 404);
      const found = reviews.find(request.query.id, visibleTo(request));
      const decided = found.status === 'published' || found.status === 'replaced';
      return { request: { ...view(found), files: reviews.filesOf(found).map((file) => fileView(file, decided)) } };
    }),
  );

  app.post('/reviews', { config: { right: 'studio:edit' }, schema: { body: askBody } }, async (request, reply) =>
    answering(reply, async () => {
      if (!rights.reviewRequired) throw new ReviewError(REVIEW_MESSAGES.reviewOff, 409);
      const asked = reviews.ask(editorOf(request), request.body.note ?? '');
      await notices.reviewAsked(asked);
      return { request: view(asked) };
    }),
  );

  app.post('/reviews/send-back', { config: { right: 'studio:review' }, schema: { body: sendBackBody } }, async (request, reply) =>
    answering(reply, async () => {
      const sentBack = reviews.sendBack(request.body.id, editorOf(request), request.body.comment);
      await notices.reviewSentBack(sentBack);
      return { request: view(sentBack) };
    }),
  );

  /** Publishes the request's snapshot now (answered as a publish: 202 with the run), or with `at` schedules it (answered with the scheduled publish). */
  app.post('/reviews/approve', { config: { right: 'studio:review' }, schema: { body: approveBody } }, async (request, reply) =>
    answering(reply, async () => {
      const session = request.studioSession;
      const reviewer = editorOf(request);
      const { id, at } = request.body;
      // A page a waiting scheduled publish already carries goes live at that time, once: approving a
      // request that holds it again (an editor asked a second time) would publish it twice.
      const carried = scheduler.refusalFor(
        reviews.waiting(id).files.map((file) => file.path),
        at === undefined ? 'published now' : 'scheduled again',
      );
      if (carried) throw new ReviewError(carried, 409);
      if (at !== undefined) {
        const found = reviews.waiting(id);
        // The approved texts, kept with the scheduled publish: later edits to the drafts never ride along.
        const entry = await scheduler.schedule(reviewer, at, {
          files: reviews.filesOf(found),
          note: reviews.noteFor(found, reviewer),
          reviewId: id,
        });
        reviews.scheduled(id, reviewer, entry.id);
        await notices.reviewApproved(found, reviewer, { when: scheduler.describe(entry.at) });
        return { scheduled: scheduledView(scheduler, entry, session, rights) };
      }
      // Refused at once when the request is not waiting (any more) or is being published; otherwise
      // answered as a publish is: 202 with the run to follow. The editor hears of it once it is live.
      const found = reviews.waiting(id);
      return startRun(reply, runs, { action: 'publish', user: reviewer, planned: publisher.plannedSteps() }, async (report) => {
        const result = await reviews.approve(id, reviewer, report);
        if (result.ok) await notices.reviewApproved(found, reviewer, { published: true });
        return result;
      });
    }),
  );

  app.get(
    '/reviews/feedback',
    { config: { right: 'studio:edit' }, schema: { querystring: feedbackQuery } },
    async (request): Promise<ReviewFeedback> => {
      const file = workspace.contentFile(request.query.path);
      const found = rights.reviewRequired ? reviews.latestFor(file.path) : undefined;
      if (!found || (found.status !== 'waiting' && found.status !== 'sent-back')) return { feedback: null };
      return {
        feedback: {
          id: found.id,
          status: found.status,
          requestedBy: found.requestedBy,
          requestedAt: found.requestedAt,
          ...(found.comment ? { comment: found.comment } : {}),
          ...(found.decidedBy ? { decidedBy: found.decidedBy, decidedAt: found.decidedAt! } : {}),
        },
      };
    },
  );
};
