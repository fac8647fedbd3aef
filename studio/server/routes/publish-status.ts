// /api/publish-status: the recent publishes with how far each got beyond this checkout ("Pushed to
// origin/main", "Waiting for the live site…", "Live since 10:42"), which the publish screen asks for
// again while a deploy is awaited, and the publishes still running (a screen opened or reloaded
// during one follows it). A person follows their own runs (an admin everyone's); of another person's
// run they learn only that it is under way and whose it is.
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher } from '../publish.ts';
import type { PublishRuns } from '../publish-runs.ts';
import type { PublishRights } from '../reviews.ts';
import { runViewerOf } from './publish.ts';

export type PublishStatusRoutesOptions = { publisher: Publisher; runs: PublishRuns; rights: PublishRights };

export const publishStatusRoutes: StudioRoutes<PublishStatusRoutesOptions> = async (app, { publisher, runs, rights }) => {
  app.get('/publish-status', { config: { right: 'studio:edit' } }, async (request) => ({
    history: publisher.history(10),
    ...runs.running(runViewerOf(request, rights)),
  }));
};
