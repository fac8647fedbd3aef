// /api/publish-status: the recent publishes with how far each got beyond this checkout ("Pushed to
// origin/main", "Waiting for the live site…", "Live since 10:42"), which the publish screen asks for
// again while a deploy is awaited, and the publishes still running (a screen opened or reloaded
// during one follows it). It reads nothing from the request.
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher } from '../publish.ts';
import type { PublishRuns } from '../publish-runs.ts';

export type PublishStatusRoutesOptions = { publisher: Publisher; runs: PublishRuns };

export const publishStatusRoutes: StudioRoutes<PublishStatusRoutesOptions> = async (app, { publisher, runs }) => {
  app.get('/publish-status', async () => ({ history: publisher.history(10), running: runs.running() }));
};
