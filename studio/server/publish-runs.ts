// Publishes, undos, restores and approved review requests as runs the screen follows. A publish takes
// as long as its build (seconds, a minute for a full build on a slow machine), longer than a browser,
// a proxy or the studio's own limit keeps a quiet connection open: so the request is answered at once
// with the run's id, and the screen asks how far it got (each step in plain words) until the run has
// its answer. A screen opened or reloaded meanwhile finds the runs still going. Runs are kept in
// memory: a restarted studio knows none (what was published is in the history).
import { randomUUID } from 'node:crypto';
import type { ContentIssue } from '../../content-model/content-issue.ts';
import type { PublishAnswer, PublishRunView, PublishStepKey } from '../api-types.ts';
import type { PublishResult, StepReporter } from './publish.ts';

export type { StepReporter };

/** What each step is called on the screen. */
export const PUBLISH_STEP_LABELS: Record<PublishStepKey, string> = {
  waiting: 'Waiting for the publish before it to finish',
  checking: 'Checking the content',
  building: 'Building the site',
  'going-live': 'Switching the live site to the new build',
  saving: 'Saving the version',
  sending: "Sending it to the team's repository",
};

/** Finished runs kept for a screen still to ask about them; older ones are forgotten. */
const KEPT_FINISHED_RUNS = 20;

type Run = {
  id: string;
  action: PublishRunView['action'];
  user: string;
  startedAt: string;
  steps: PublishStepKey[];
  reached: number;
  answer?: PublishAnswer;
  finishedAt?: string;
};

export type PublishRuns = ReturnType<typeof createPublishRuns>;

export function createPublishRuns(options: { now?: () => Date; log?: (error: unknown) => void } = {}) {
  const now = options.now ?? (() => new Date());
  const runs = new Map<string, Run>();

  /**
   * Starts `task` and answers at once. `planned`: the steps it is expected to take, in order; a step
   * it reports that was not planned is shown where it happens, and a step it skips is not shown done.
   */
  function start(
    what: { action: PublishRunView['action']; user: string; planned: readonly PublishStepKey[] },
    task: (report: StepReporter) => Promise<PublishResult>,
  ): PublishRunView {
    const run: Run = {
      id: randomUUID(),
      action: what.action,
      user: what.user,
      startedAt: now().toISOString(),
      steps: [...what.planned],
      reached: -1,
    };
    runs.set(run.id, run);
    const report: StepReporter = (step) => {
      if (run.answer) return;
      const index = run.steps.indexOf(step, run.reached + 1);
      if (index >= 0) {
        // Steps planned but passed over (an undo that needs no build) were not done: they go.
        run.steps.splice(run.reached + 1, index - run.reached - 1);
        run.reached = run.reached + 1;
      } else {
        run.steps.splice(run.reached + 1, 0, step);
        run.reached = run.reached + 1;
      }
    };
    void task(report).then(
      (answer) => finish(run, answer),
      (error: unknown) => {
        options.log?.(error);
        finish(run, {
          ok: false,
          reason: 'failed',
          message:
            'The publish stopped with an error the studio did not expect. Your drafts are kept; the history shows whether anything was published. Try again.',
        });
      },
    );
    return view(run);
  }

  function finish(run: Run, answer: PublishResult | { ok: false; reason: 'failed'; message: string }): void {
    // A step not reached was not done.
    run.steps = run.steps.slice(0, run.reached + 1);
    if (answer.ok) run.answer = answer;
    else {
      const { issues, ...refusal } = answer as { ok: false; reason: string; message: string; issues?: readonly ContentIssue[] };
      run.answer = { ...refusal, ...(issues ? { issues: [...issues] } : {}) };
    }
    run.finishedAt = now().toISOString();
    const finished = [...runs.values()].filter((kept) => kept.answer);
    for (const old of finished.slice(0, Math.max(0, finished.length - KEPT_FINISHED_RUNS))) runs.delete(old.id);
  }

  function view(run: Run): PublishRunView {
    return {
      id: run.id,
      action: run.action,
      user: run.user,
      startedAt: run.startedAt,
      done: run.answer !== undefined,
      steps: run.steps.map((key, index) => ({
        key,
        label: PUBLISH_STEP_LABELS[key],
        state: run.answer
          ? run.answer.ok || index < run.reached
            ? 'done'
            : 'stopped'
          : index < run.reached
            ? 'done'
            : index === run.reached
              ? 'now'
              : 'next',
      })),
      ...(run.answer ? { answer: run.answer } : {}),
    };
  }

  return {
    start,
    /** The run `id` as it stands, or undefined when the studio does not know it (any more). */
    get: (id: string): PublishRunView | undefined => {
      const run = runs.get(id);
      return run ? view(run) : undefined;
    },
    /** The runs not finished yet, oldest first. */
    running: (): PublishRunView[] => [...runs.values()].filter((run) => !run.answer).map(view),
  };
}
