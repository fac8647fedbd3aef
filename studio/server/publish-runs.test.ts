// How a run tells its steps: a step passed over is not shown done, a step not planned is shown where
// it happens, an unexpected failure ends the run with a plain message, and finished runs are
// forgotten after a while (never the ones still running).
import { describe, expect, it, vi } from 'vitest';
import type { PublishRecord, PublishRunView } from '../api-types.ts';
import { createPublishRuns, MAX_UNFINISHED_RUNS, RUN_LIMIT_MESSAGES, RunLimitError, type StepReporter } from './publish-runs.ts';

const RECORD: PublishRecord = { id: 'p', action: 'publish', user: 'ana', at: '', files: [], ms: 1 };
const steps = (run: PublishRunView | undefined) => run?.steps.map((step) => `${step.key}: ${step.state}`);

/** A task the test moves on step by step. */
function controlledTask() {
  let report!: StepReporter;
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const task = (reporter: StepReporter) =>
    new Promise<{ ok: true; record: PublishRecord }>((resolve, reject) => {
      report = reporter;
      finish = () => resolve({ ok: true, record: RECORD });
      fail = reject;
    });
  return { task, report: (step: Parameters<StepReporter>[0]) => report(step), finish: () => finish(), fail: (error: Error) => fail(error) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const ANA = { user: 'ana', seesAll: false };

describe('a run’s steps', () => {
  it('drops a planned step the run passed over (an undo that needs no build), and adds one it did not plan', async () => {
    const runs = createPublishRuns();
    const undo = controlledTask();
    const started = runs.start({ action: 'undo', user: 'ana', planned: ['checking', 'building', 'going-live', 'saving'] }, undo.task);
    expect(steps(started)).toEqual(['checking: next', 'building: next', 'going-live: next', 'saving: next']);

    undo.report('waiting');
    expect(steps(runs.get(started.id, ANA))).toEqual([
      'waiting: now',
      'checking: next',
      'building: next',
      'going-live: next',
      'saving: next',
    ]);
    undo.report('checking');
    undo.report('going-live');
    expect(steps(runs.get(started.id, ANA))).toEqual(['waiting: done', 'checking: done', 'going-live: now', 'saving: next']);
    undo.report('saving');
    undo.finish();
    await settle();
    expect(runs.get(started.id, ANA)).toMatchObject({ done: true, answer: { ok: true } });
    expect(steps(runs.get(started.id, ANA))).toEqual(['waiting: done', 'checking: done', 'going-live: done', 'saving: done']);
  });

  it('ends a run that fails unexpectedly with a plain message, marks where it stopped, and logs the error', async () => {
    const log = vi.fn();
    const runs = createPublishRuns({ log });
    const publish = controlledTask();
    const started = runs.start({ action: 'publish', user: 'ana', planned: ['checking', 'building', 'going-live', 'saving'] }, publish.task);
    publish.report('checking');
    publish.report('building');
    publish.fail(new Error('git: index.lock exists'));
    await settle();

    const ended = runs.get(started.id, ANA)!;
    expect(ended.answer).toEqual({
      ok: false,
      reason: 'failed',
      message:
        'The publish stopped with an error the studio did not expect. Your drafts are kept; the history shows whether anything was published. Try again.',
    });
    expect(steps(ended)).toEqual(['checking: done', 'building: stopped']);
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ message: 'git: index.lock exists' }));
    expect(runs.running(ANA).running).toEqual([]);
  });

  it('keeps each person’s last 20 finished runs and every run still going, however many runs another person makes', async () => {
    const runs = createPublishRuns();
    const going = controlledTask();
    const open = runs.start({ action: 'publish', user: 'ana', planned: ['checking'] }, going.task);
    const anasEarlier = runs.start({ action: 'publish', user: 'ana', planned: [] }, async () => ({ ok: true, record: RECORD }));
    await settle();
    const finished = [];
    for (let i = 0; i < 25; i++) {
      finished.push(runs.start({ action: 'undo', user: 'li', planned: [] }, async () => ({ ok: true, record: RECORD })));
      await settle();
    }
    const LI = { user: 'li', seesAll: false };

    expect(finished.filter((run) => runs.get(run.id, LI) !== undefined)).toHaveLength(20);
    expect(runs.get(finished[0]!.id, LI)).toBeUndefined();
    expect(runs.get(finished[24]!.id, LI)).toMatchObject({ done: true });
    expect(runs.get(anasEarlier.id, ANA)).toMatchObject({ done: true, answer: { ok: true } });
    expect(runs.running(ANA).running.map((run) => run.id)).toEqual([open.id]);
  });
});

describe('whose runs a person sees', () => {
  it('shows a run and its answer to its starter and an admin only; others learn only that it runs and whose it is', async () => {
    const runs = createPublishRuns();
    const going = controlledTask();
    const started = runs.start({ action: 'publish', user: 'ana', planned: ['checking'] }, going.task);
    const li = { user: 'li', seesAll: false };
    const admin = { user: 'sam', seesAll: true };

    expect(runs.get(started.id, li)).toBeUndefined();
    expect(runs.running(li)).toEqual({ running: [], elsewhere: [{ action: 'publish', user: 'ana', startedAt: started.startedAt }] });
    expect(runs.running(admin).running.map((run) => run.id)).toEqual([started.id]);
    going.finish();
    await settle();
    expect(runs.get(started.id, li)).toBeUndefined();
    expect(runs.get(started.id, admin)).toMatchObject({ answer: { ok: true } });
  });

  it('refuses a run past the queue’s bounds, saying why, and starts nothing', async () => {
    const runs = createPublishRuns();
    const task = controlledTask().task;
    runs.start({ action: 'undo', user: 'li', planned: [] }, task);
    runs.start({ action: 'undo', user: 'li', planned: [] }, task);
    expect(() => runs.start({ action: 'undo', user: 'li', planned: [] }, task)).toThrow(new RunLimitError(RUN_LIMIT_MESSAGES.each));
    for (let person = 0; person < MAX_UNFINISHED_RUNS - 2; person++)
      runs.start({ action: 'publish', user: `person-${person}`, planned: [] }, controlledTask().task);
    expect(() => runs.start({ action: 'publish', user: 'ana', planned: [] }, task)).toThrow(new RunLimitError(RUN_LIMIT_MESSAGES.all));
    expect(runs.running({ user: 'ana', seesAll: true }).running).toHaveLength(MAX_UNFINISHED_RUNS);
  });
});
