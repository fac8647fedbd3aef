import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../store/database.ts';
import type { JobStore } from '../store/jobs/job-store.ts';
import { sqliteHarness } from '../testing/store-harness.ts';
import type { StoreDatabase } from '../testing/store-harness.ts';
import { createJobRunner, HELD_LOOP_PERIOD, JOB_RUNNER_DEFAULTS, type JobLog, type JobRunner } from './job-runner.ts';

// The runner on fake time against a real SQLite file: two runners over two connections stand in for
// two server processes. A "killed" process is one whose store stops answering (its renewals fail, so
// its lease lapses) and whose run never ends.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 28, 6, 0, 0);

type Line = { level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; message: string };

function recorder(): JobLog & { lines: Line[]; finished(job?: string): string[] } {
  const lines: Line[] = [];
  const push = (level: Line['level']) => (fields: object, message: string) =>
    void lines.push({ level, fields: fields as Record<string, unknown>, message });
  return {
    lines,
    info: push('info'),
    warn: push('warn'),
    error: push('error'),
    finished: (job) =>
      lines
        .filter((line) => line.message === 'job run finished' && (job === undefined || line.fields.job === job))
        .map((line) => String(line.fields.period)),
  };
}

/** A store that stops answering once `kill()` is called, as a process killed with SIGKILL would. */
function killable(store: JobStore): JobStore & { kill(): void } {
  let dead = false;
  const guard =
    <A extends unknown[], T>(method: (...args: A) => Promise<T>) =>
    (...args: A): Promise<T> =>
      dead ? new Promise<T>(() => {}) : method(...args);
  return {
    claimJobRun: guard(store.claimJobRun),
    renewJobRun: guard(store.renewJobRun),
    finishJobRun: guard(store.finishJobRun),
    releaseJobRun: guard(store.releaseJobRun),
    listJobRuns: guard(store.listJobRuns),
    deleteJobRunsBefore: guard(store.deleteJobRunsBefore),
    kill: () => {
      dead = true;
    },
  };
}

describe('the job runner', () => {
  let database: StoreDatabase;
  let store: Database;
  let other: Database;
  const runners: JobRunner[] = [];
  const killed = new Set<JobRunner>();

  beforeEach(async () => {
    database = await sqliteHarness.createDatabase();
    store = await database.open();
    other = await database.open();
    // Only timers and the clock are faked: the store's group commit runs on setImmediate.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(async () => {
    // A killed process's runner is never stopped: its run never ends.
    await Promise.all(
      runners
        .splice(0)
        .filter((runner) => !killed.has(runner))
        .map((runner) => runner.stop()),
    );
    vi.useRealTimers();
    await database.remove();
  });

  function runner(on: JobStore, log: JobLog, holder: string, periodSeconds?: number): JobRunner {
    const created = createJobRunner({ store: on, log, holder, periodSeconds });
    runners.push(created);
    return created;
  }

  it('runs a daily job once a day across two processes, catching up the day it starts in after a settle delay', async () => {
    const log = recorder();
    const runs: string[] = [];
    const job = (name: string) => ({
      name: 'retention',
      period: 'day' as const,
      firstRunDelayMs: 30_000,
      run: async ({ period }: { period: { key: string } }) => void runs.push(`${name} ${period.key}`),
    });
    runner(store, log, 'a').periodic(job('a'));
    runner(other, log, 'b').periodic(job('b'));

    await vi.advanceTimersByTimeAsync(30_000 - 1);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(3 * DAY);
    expect(runs.map((entry) => entry.split(' ')[1])).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01']);
    expect(log.finished('retention')).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01']);
    const rows = await store.listJobRuns('retention');
    expect(rows.map((row) => [row.period, row.state, row.attempts])).toEqual([
      ['2026-11-28', 'done', 1],
      ['2026-11-29', 'done', 1],
      ['2026-11-30', 'done', 1],
      ['2026-12-01', 'done', 1],
    ]);
    // Each new day is run within one look of its start.
    expect(rows[1]?.startedAt).toBeLessThanOrEqual(Date.UTC(2026, 10, 29) + JOB_RUNNER_DEFAULTS.checkIntervalMs);
  });

  it('does not run again a period already finished when a process restarts in it', async () => {
    const runs: string[] = [];
    const job = { name: 'retention', period: 'day' as const, run: async () => void runs.push('run') };
    const first = runner(store, recorder(), 'a');
    first.periodic(job);
    await vi.advanceTimersByTimeAsync(10);
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    await first.stop();
    runner(other, recorder(), 'b').periodic(job);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(runs).toHaveLength(1);
  });

  it('takes over the run of a process killed mid-run once its lease lapsed, and no sooner', async () => {
    const log = recorder();
    const dying = killable(store);
    let started = 0;
    const runs: string[] = [];
    const job = (who: string) => ({
      name: 'retention',
      period: 'day' as const,
      run: async () => {
        started += 1;
        if (who === 'a') {
          dying.kill();
          // A run that never ends: the process is gone.
          await new Promise(() => {});
        }
        runs.push(who);
      },
    });
    const a = runner(dying, log, 'a');
    killed.add(a);
    a.periodic(job('a'));
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(started).toBe(1));
    runner(other, log, 'b').periodic(job('b'));
    await vi.advanceTimersByTimeAsync(JOB_RUNNER_DEFAULTS.leaseMs - 1_000);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(JOB_RUNNER_DEFAULTS.leaseMs);
    await vi.waitFor(() => expect(runs).toEqual(['b']));
    const [row] = await other.listJobRuns('retention');
    expect(row).toMatchObject({ holder: 'b', state: 'done', attempts: 2 });
    expect(log.finished()).toEqual(['2026-11-28']);
  });

  it('keeps the lease of a long run, so nobody takes it over while its holder works', async () => {
    const log = recorder();
    let finish: () => void = () => {};
    const runs: string[] = [];
    const job = (who: string) => ({
      name: 'retention',
      period: 'day' as const,
      run: async () => {
        runs.push(who);
        if (who === 'a') await new Promise<void>((resolve) => (finish = resolve));
      },
    });
    runner(store, log, 'a').periodic(job('a'));
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(runs).toEqual(['a']));
    runner(other, log, 'b').periodic(job('b'));
    await vi.advanceTimersByTimeAsync(5 * JOB_RUNNER_DEFAULTS.leaseMs);
    expect(runs).toEqual(['a']);
    finish();
    await vi.waitFor(() => expect(log.finished()).toEqual(['2026-11-28']));
    expect(log.lines.map((line) => line.message)).not.toContain('job lease lost while working: another server may run this too');
  });

  it('waits for the part of the period before a run is due', async () => {
    vi.setSystemTime(Date.UTC(2026, 10, 28, 0, 0, 30));
    const runs: number[] = [];
    runner(store, recorder(), 'a').periodic({
      name: 'spam-daily',
      period: 'day',
      dueAfterMs: 120_000,
      run: async ({ at }) => void runs.push(at),
    });
    await vi.advanceTimersByTimeAsync(89_000);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(runs).toEqual([Date.UTC(2026, 10, 28, 0, 2, 0)]));
  });

  it('tries a failed run again later in the same period, and finishes it only when it succeeds', async () => {
    const log = recorder();
    let calls = 0;
    runner(store, log, 'a').periodic({
      name: 'analytics-forgetting',
      period: 'hour',
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database is down');
      },
    });
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(calls).toBe(1));
    expect(await store.listJobRuns('analytics-forgetting')).toMatchObject([{ state: 'running', leaseUntil: T0 }]);
    expect(log.lines.map((line) => line.message)).toEqual(['job run failed; it is tried again shortly']);
    // An hour's retry comes after a quarter of it at most.
    await vi.advanceTimersByTimeAsync(HOUR / 4);
    await vi.waitFor(() => expect(log.finished()).toEqual(['2026-11-28T06']));
    expect(await store.listJobRuns('analytics-forgetting')).toMatchObject([{ state: 'done', attempts: 2 }]);
  });

  it('runs every periodic job once per JOB_PERIOD_SECONDS instead of its own period', async () => {
    const log = recorder();
    const job = { name: 'retention', period: 'day' as const, firstRunDelayMs: 30_000, run: async () => {} };
    runner(store, log, 'a', 2).periodic(job);
    runner(other, log, 'b', 2).periodic(job);
    await vi.advanceTimersByTimeAsync(10_000);
    // The settle delay is at most one period: the first run is in the second period.
    expect(log.finished()).toEqual([
      '2026-11-28T06:00:02Z',
      '2026-11-28T06:00:04Z',
      '2026-11-28T06:00:06Z',
      '2026-11-28T06:00:08Z',
      '2026-11-28T06:00:10Z',
    ]);
  });

  it('runs a held loop in one process at a time, handed on at once by a clean stop and after the lease by a death', async () => {
    const log = recorder();
    const passes: string[] = [];
    const dying = killable(other);
    const loop = (who: string) => ({ name: 'notifier-scan', intervalMs: 1_000, pass: async () => void passes.push(who) });
    const a = runner(store, log, 'a');
    a.loop(loop('a'));
    await vi.advanceTimersByTimeAsync(1);
    const b = runner(dying, log, 'b');
    killed.add(b);
    b.loop(loop('b'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(new Set(passes)).toEqual(new Set(['a']));

    // A clean stop: the other takes it within one interval.
    await a.stop();
    passes.length = 0;
    await vi.advanceTimersByTimeAsync(1_001);
    expect(passes).toEqual(['b']);

    // Its holder dies: a third takes over once the lease lapsed, not before.
    runner(await database.open(), log, 'c').loop(loop('c'));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(new Set(passes)).toEqual(new Set(['b']));
    dying.kill();
    passes.length = 0;
    await vi.advanceTimersByTimeAsync(JOB_RUNNER_DEFAULTS.loopLeaseMs - 3_000);
    expect(passes).toEqual([]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(passes.length).toBeGreaterThan(0);
    expect(new Set(passes)).toEqual(new Set(['c']));
    const [row] = await store.listJobRuns('notifier-scan');
    expect(row).toMatchObject({ period: HELD_LOOP_PERIOD, holder: 'c', state: 'running', attempts: 3 });
  });

  it('keeps a held loop going after a pass that throws, and logs it', async () => {
    const log = recorder();
    let passes = 0;
    runner(store, log, 'a').loop({
      name: 'escalation',
      intervalMs: 1_000,
      pass: async () => {
        passes += 1;
        if (passes === 1) throw new Error('database is down');
      },
    });
    await vi.advanceTimersByTimeAsync(3_500);
    expect(passes).toBe(4);
    expect(log.lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([
      'job: could not hold its lease or run its pass; trying again shortly',
    ]);
  });
});
