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
  'going-live': 'Putting the new pages on the live site',
  saving: 'Saving the version',
  sending: "Sending it to the team's copy of the site",
};

/**
 * Finished runs kept for each person's screen still to ask about them; older ones are forgotten.
 * Counted per person, so nobody's publishes can push another person's answer out.
 */
const KEPT_FINISHED_RUNS_EACH = 20;
/** Runs one person may have started and not finished at once (each waits for the one before). */
export const MAX_UNFINISHED_RUNS_EACH = 2;
/** Runs waiting or under way at once, everyone's together: the queue stays short. */
export const MAX_UNFINISHED_RUNS = 8;

export const RUN_LIMIT_MESSAGES = {
  each: `You have ${MAX_UNFINISHED_RUNS_EACH} publishes, undos or restores waiting or under way already: wait for them to finish, then try again.`,
  all: 'Several publishes are waiting or under way already: wait a minute for them to finish, then try again.',
} as const;

/** A run refused because too many are waiting; its message says so plainly. */
export class RunLimitError extends Error {
  override name = 'RunLimitError';
}

/** Who asks about runs: a person sees their own runs; `seesAll` (an admin) sees everyone's. */
export type RunViewer = { user: string; seesAll: boolean };

/** Another person's run under way, as everyone may see it: that it runs, and whose it is; no id, no answer. */
export type RunElsewhere = Pick<PublishRunView, 'action' | 'user' | 'startedAt'>;

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
    const unfinished = [...runs.values()].filter((kept) => !kept.answer);
    if (unfinished.filter((kept) => kept.user === what.user).length >= MAX_UNFINISHED_RUNS_EACH)
      throw new RunLimitError(RUN_LIMIT_MESSAGES.each);
    if (unfinished.length >= MAX_UNFINISHED_RUNS) throw new RunLimitError(RUN_LIMIT_MESSAGES.all);
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
    const finished = [...runs.values()].filter((kept) => kept.answer && kept.user === run.user);
    for (const old of finished.slice(0, Math.max(0, finished.length - KEPT_FINISHED_RUNS_EACH))) runs.delete(old.id);
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
    /**
     * The run `id` as it stands, or undefined when the studio does not know it (any more) or it is
     * another person's (its answer is theirs to read).
     */
    get: (id: string, viewer: RunViewer): PublishRunView | undefined => {
      const run = runs.get(id);
      return run && (viewer.seesAll || run.user === viewer.user) ? view(run) : undefined;
    },
    /** The runs not finished yet, oldest first: the viewer's to follow, and only that the others run. */
    running: (viewer: RunViewer): { running: PublishRunView[]; elsewhere: RunElsewhere[] } => {
      const unfinished = [...runs.values()].filter((run) => !run.answer);
      const mine = (run: Run) => viewer.seesAll || run.user === viewer.user;
      return {
        running: unfinished.filter(mine).map(view),
        elsewhere: unfinished.filter((run) => !mine(run)).map(({ action, user, startedAt }) => ({ action, user, startedAt })),
      };
    },
  };
}
