// /api/schedule: publishing at a set time (schedule.ts). GET answers the site's time zone, the time
// there now and every scheduled publish (waiting ones first, then what ran, with why a failure
// failed); POST schedules the drafts the publish screen showed (`files`, as a publish names them),
// with their texts as they are now, for `at`, a date and time in the site's time zone, for whoever
// may publish (an editor whose changes need review asks for review instead, 403; where review is
// required, a draft holding someone else's change is refused, 403, as for a publish now, and so is a
// change of where the booking page points by someone who may not make it, checked again when it runs);
// /api/schedule/cancel cancels one (who scheduled it, or an admin); /api/schedule/dismiss marks a
// failure as read by the person who scheduled it.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ScheduleAnswer, ScheduledView } from '../../api-types.ts';
import type { Session } from '../auth/sessions.ts';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { PublishRights } from '../reviews.ts';
import { ScheduleError, type ScheduledPublish, type Scheduler } from '../schedule.ts';
import { seenDrafts } from '../request-shapes.ts';
import type { Workspace } from '../workspace.ts';
import { bookingPageRefused } from '../booking-page.ts';
import { draftsChangeBookingPage } from './publish.ts';

export type ScheduleRoutesOptions = { scheduler: Scheduler; rights: PublishRights; workspace: Workspace };

/** A date and time as a date-and-time field sends it: 2026-12-01T09:00 (seconds optional). */
export const localTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, { error: 'The time must be a date and time such as 2026-12-01T09:00.' });
/** `files`: the drafts the publish screen showed, as a publish names them; only these are scheduled. */
const scheduleBody = z.object({ at: localTime, files: seenDrafts });
const entryBody = z.object({ id: z.uuid({ error: 'The scheduled publish is not named.' }) });

export function scheduledView(
  scheduler: Scheduler,
  entry: ScheduledPublish,
  session: Session | undefined,
  rights: PublishRights,
): ScheduledView {
  return {
    id: entry.id,
    at: entry.at,
    when: scheduler.describe(entry.at),
    scheduledBy: entry.scheduledBy,
    status: entry.status,
    files: entry.files.map((file) => ({ path: file.path, title: file.title })),
    ...(entry.message ? { message: entry.message } : {}),
    ...(entry.reviewId ? { reviewId: entry.reviewId } : {}),
    ...(entry.cancelledBy ? { cancelledBy: entry.cancelledBy } : {}),
    seen: entry.seen ?? false,
    mayCancel: entry.status === 'waiting' && (entry.scheduledBy === session?.user || rights.mayCancelAny(session)),
  };
}

export const scheduleRoutes: StudioRoutes<ScheduleRoutesOptions> = async (app, { scheduler, rights, workspace }) => {
  async function answering<T>(reply: FastifyReply, work: () => Promise<T>) {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ScheduleError) return reply.code(error.status).send({ message: error.message });
      throw error;
    }
  }

  app.get('/schedule', { config: { right: 'studio:edit' } }, async (request): Promise<ScheduleAnswer> => {
    const session = request.studioSession;
    return {
      timeZone: scheduler.timeZone,
      now: scheduler.nowText(),
      mayPublish: rights.mayPublish(session),
      scheduled: scheduler.list().map((entry) => scheduledView(scheduler, entry, session, rights)),
    };
  });

  app.post('/schedule', { config: { right: 'studio:publish' }, schema: { body: scheduleBody } }, async (request, reply) =>
    answering(reply, async () => {
      const session = request.studioSession;
      const seen = request.body.files.map((file) => ({ path: workspace.contentFile(file.path).path, fingerprint: file.fingerprint }));
      // The drafts as they are now are what would be scheduled: a change of the booking page by
      // someone who may not make it is refused here, and again when it runs.
      if (
        !rights.mayChangeBookingPage(session) &&
        draftsChangeBookingPage(
          workspace,
          workspace.listDrafts().filter((draft) => seen.some((shown) => shown.path === draft.path)),
        )
      )
        throw new ScheduleError(bookingPageRefused('schedule'), 403);
      const entry = await scheduler.schedule(editorOf(request), request.body.at, { seen, ownDraftsOnly: rights.reviewRequired });
      return { scheduled: scheduledView(scheduler, entry, session, rights) };
    }),
  );

  app.post('/schedule/cancel', { config: { right: 'studio:edit' }, schema: { body: entryBody } }, async (request, reply) =>
    answering(reply, async () => {
      const session = request.studioSession;
      const entry = await scheduler.cancel(request.body.id, editorOf(request), rights.mayCancelAny(session));
      return { scheduled: scheduledView(scheduler, entry, session, rights) };
    }),
  );

  app.post('/schedule/dismiss', { config: { right: 'studio:edit' }, schema: { body: entryBody } }, async (request, reply) =>
    answering(reply, async () => {
      await scheduler.dismiss(request.body.id, editorOf(request));
      return { dismissed: true };
    }),
  );
};
