// A publish, an undo or a restore through the studio's API, as the publish screen makes it: the
// request is answered at once (202, with the run), and the run is read again until it is done.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Changes, PublishRunView } from '../api-types.ts';

/** A run never takes this long with the quick test build: the test fails rather than hangs. */
const RUN_LIMIT_MS = 15_000;

/** Reads the run `started` answered until it is done; the run as it ended. */
export async function followRunToEnd(
  app: FastifyInstance,
  headers: Record<string, string>,
  started: LightMyRequestResponse,
): Promise<PublishRunView> {
  if (started.statusCode !== 202) throw new Error(`The publish was not started (${started.statusCode}): ${started.body}`);
  let { run } = started.json() as { run: PublishRunView };
  const deadline = Date.now() + RUN_LIMIT_MS;
  while (!run.done) {
    if (Date.now() > deadline) throw new Error(`The publish did not finish within ${RUN_LIMIT_MS / 1000} s: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    run = ((await app.inject({ url: `/api/publish-runs/${run.id}`, headers })).json() as { run: PublishRunView }).run;
  }
  return run;
}

/** The drafts the publish screen shows `headers`' person now, as a publish sends them (each with its fingerprint). */
export async function shownDrafts(app: FastifyInstance, headers: Record<string, string>): Promise<{ path: string; fingerprint: string }[]> {
  const changes = (await app.inject({ url: '/api/changes', headers })).json() as Changes;
  return changes.files.map(({ path, fingerprint }) => ({ path, fingerprint }));
}

/**
 * POSTs `url` (a publish, an undo, a restore) and follows the run to its end. A publish without a
 * `payload` sends the drafts the publish screen shows now, as the screen does.
 */
export async function publishThroughApi(
  app: FastifyInstance,
  headers: Record<string, string>,
  url = '/api/publish',
  payload?: object,
): Promise<PublishRunView> {
  const body = payload ?? (url === '/api/publish' ? { files: await shownDrafts(app, headers) } : {});
  return followRunToEnd(app, headers, await app.inject({ method: 'POST', url, headers, payload: body }));
}
