// /api/history, /api/history/version and /api/history/restore: every published version of the
// content (newest first, 20 at a time; one file's versions with `path`), one file as a version left
// it beside the file today (a line diff, and its data for the preview), and a restore of that version
// as a new publish. A version is named by its commit (checked to be a commit id and reachable from
// HEAD) or, without git, by its publish's id; a path is checked by the workspace. history.ts does the
// work; a restore that can be made starts like a publish, answered at once with the run to follow
// (routes/publish.ts), and is refused like one to an editor whose changes need a review, and to a
// person who may not change where the booking page points when the version would (booking-page.ts).
import { z } from 'zod';
import type { HistoryPage, PageVersion } from '../../api-types.ts';
import type { History } from '../history.ts';
import { editorOf } from '../plugins/sessions.ts';
import { REVIEW_MESSAGES, type PublishRights } from '../reviews.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import { contentPath, diskVersion } from '../request-shapes.ts';
import type { Publisher } from '../publish.ts';
import type { PublishRuns } from '../publish-runs.ts';
import { draftsChangeBookingPage, startRun } from './publish.ts';
import { bookingPageRefused } from '../booking-page.ts';
import type { Workspace } from '../workspace.ts';

export type HistoryRoutesOptions = {
  history: History;
  publisher: Publisher;
  runs: PublishRuns;
  rights: PublishRights;
  workspace: Workspace;
};

const OFFSET_MESSAGE = 'The offset must be a whole number of 0 or more.';

const listQuery = z.object({
  path: contentPath.optional(),
  /** The newest version when the list was first read, so later pages are not shifted by a new publish. */
  head: z.string().optional(),
  offset: z
    .string()
    .regex(/^\d{1,6}$/, { error: OFFSET_MESSAGE })
    .transform((digits) => Number(digits))
    .optional(),
});
const versionQuery = z.object({ version: z.string(), path: contentPath });
/** `liveVersion`: the live file's version the person compared with (null: it did not exist). */
const restoreBody = z.object({ version: z.string(), path: contentPath, liveVersion: diskVersion.optional() });

export const historyRoutes: StudioRoutes<HistoryRoutesOptions> = async (app, { history, publisher, runs, rights, workspace }) => {
  app.get('/history', { config: { right: 'studio:edit' }, schema: { querystring: listQuery } }, async (request): Promise<HistoryPage> =>
    history.list(request.query),
  );

  app.get(
    '/history/version',
    { config: { right: 'studio:edit' }, schema: { querystring: versionQuery } },
    async (request): Promise<PageVersion> => history.version(request.query.version, request.query.path),
  );

  // A restore makes a version live at once: where changes need a review, only who may publish does it.
  app.post(
    '/history/restore',
    { config: { right: 'studio:publish', refused: REVIEW_MESSAGES.restoreRefused }, schema: { body: restoreBody } },
    async (request, reply) => {
      const user = editorOf(request);
      // Refused at once when there is nothing to restore or the page changed since it was compared.
      const restore = await history.restoreRequest(request.body);
      // A version with another booking page, restored by someone who may not change it (the publish checks again).
      if (!rights.mayChangeBookingPage(request.studioSession) && draftsChangeBookingPage(workspace, restore.changes ?? []))
        return reply.code(403).send({ ok: false, reason: 'booking-page', message: bookingPageRefused('restore') });
      return startRun(reply, runs, { action: 'restore', user, planned: publisher.plannedSteps() }, (report) =>
        publisher.publish(user, restore, report),
      );
    },
  );
};
