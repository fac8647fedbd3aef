// Following a publish, an undo or a restore: the studio starts it and answers at once with the run;
// the screen reads the run again every half second, showing each step, until it has its answer. A
// reading that fails (a dropped connection, the studio restarting) is tried again for a while before
// the screen says so: the publish goes on on the server all the same.
import { api, ApiError, type PublishAnswer, type PublishRunView } from '../api.ts';

export const RUN_POLL_MS = 500;
/** Readings that may fail in a row (ten seconds) before the screen stops following. */
const FAILED_READINGS_ALLOWED = 20;

/** What a publish request that was refused or not answered comes to on the screen. */
export function answerOfError(error: unknown, fallback: string): PublishAnswer {
  if (error instanceof ApiError && isPublishAnswer(error.body)) return error.body;
  return { ok: false, reason: 'error', message: error instanceof Error ? error.message : fallback };
}

function isPublishAnswer(value: unknown): value is PublishAnswer {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** Starts a run with `start` and follows it to its answer, telling `onProgress` each reading. */
export async function startAndFollow(
  start: () => Promise<{ run: PublishRunView }>,
  onProgress: (run: PublishRunView) => void,
  fallback: string,
): Promise<PublishAnswer> {
  let run: PublishRunView;
  try {
    run = (await start()).run;
  } catch (error) {
    return answerOfError(error, fallback);
  }
  return followRun(run, onProgress);
}

/** Reads `run` again until it is done; its answer, or why the screen could not learn it. Stops early when `signal` aborts. */
export async function followRun(
  first: PublishRunView,
  onProgress: (run: PublishRunView) => void,
  signal?: AbortSignal,
): Promise<PublishAnswer> {
  let run = first;
  let failed = 0;
  for (;;) {
    onProgress(run);
    if (run.answer) return run.answer;
    await new Promise((resolve) => setTimeout(resolve, RUN_POLL_MS));
    if (signal?.aborted) return { ok: false, reason: 'left', message: '' };
    try {
      run = (await api.publishRun(run.id)).run;
      failed = 0;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { ok: false, reason: 'unknown', message: error.message };
      if (++failed >= FAILED_READINGS_ALLOWED)
        return {
          ok: false,
          reason: 'error',
          message: `${error instanceof Error ? error.message : 'The studio does not answer.'} The publish may still have finished: the recent publishes below say what went live once the studio answers again.`,
        };
    }
  }
}
