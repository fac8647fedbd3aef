// How a run tells its steps: a step passed over is not shown done, a step not planned is shown where
// it happens, an unexpected failure ends the run with a plain message, and finished runs are
// forgotten after a while (never the ones still running).
import { describe, expect, it, vi } from 'vitest';
import type { PublishRecord, PublishRunView } from '../api-types.ts';
import { createPublishRuns, type StepReporter } from './publish-runs.ts';

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

describe('a run’s steps', () => {
  it('drops a planned step the run passed over (an undo that needs no build), and adds one it did not plan', async () => {
    const runs = createPublishRuns();
    const undo = controlledTask();
    const started = runs.start({ action: 'undo', user: 'ana', planned: ['checking', 'building', 'going-live', 'saving'] }, undo.task);
    expect(steps(started)).toEqual(['checking: next', 'building: next', 'going-live: next', 'saving: next']);

    undo.report('waiting');
    expect(steps(runs.get(started.id))).toEqual(['waiting: now', 'checking: next', 'building: next', 'going-live: next', 'saving: next']);
    undo.report('checking');
    undo.report('going-live');
    expect(steps(runs.get(started.id))).toEqual(['waiting: done', 'checking: done', 'going-live: now', 'saving: next']);
    undo.report('saving');
    undo.finish();
    await settle();
    expect(runs.get(started.id)).toMatchObject({ done: true, answer: { ok: true } });
    expect(steps(runs.get(started.id))).toEqual(['waiting: done', 'checking: done', 'going-live: done', 'saving: done']);
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

    const ended = runs.get(started.id)!;
    expect(ended.answer).toEqual({
      ok: false,
      reason: 'failed',
      message:
        'The publish stopped with an error the studio did not expect. Your drafts are kept; the history shows whether anything was published. Try again.',
    });
    expect(steps(ended)).toEqual(['checking: done', 'building: stopped']);
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ message: 'git: index.lock exists' }));
    expect(runs.running()).toEqual([]);
  });

  it('keeps the last 20 finished runs and every run still going', async () => {
    const runs = createPublishRuns();
    const going = controlledTask();
    const open = runs.start({ action: 'publish', user: 'ana', planned: ['checking'] }, going.task);
    const finished = [];
    for (let i = 0; i < 25; i++)
      finished.push(runs.start({ action: 'publish', user: 'ana', planned: [] }, async () => ({ ok: true, record: RECORD })));
    await settle();

    expect(finished.filter((run) => runs.get(run.id) !== undefined)).toHaveLength(20);
    expect(runs.get(finished[0]!.id)).toBeUndefined();
    expect(runs.get(finished[24]!.id)).toMatchObject({ done: true });
    expect(runs.running().map((run) => run.id)).toEqual([open.id]);
  });
});
