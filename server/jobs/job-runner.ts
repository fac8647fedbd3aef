import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobStore } from '../store/jobs/job-store.ts';
import { fixedPeriods, periodOf, type Period, type PeriodRule } from './periods.ts';

// Background jobs that run in one process at a time, however many servers share the lead database.
// Every server runs the same runner; the database chooses who works (the `job_runs` rows):
//
// - A periodic job (the retention purge each day, the analytics forgetting each hour, …) runs once
//   per period. Each server looks now and then; the first to insert the period's row runs it, renews
//   its lease while it works and marks the row done, and everyone else finds it done (or held, and
//   looks again when the lease would end). A server that dies mid-run leaves its row running: the
//   next one to look after the lease lapsed takes the run over. A server starting in a period with no
//   finished run runs it after a short settle delay (catch-up); the periods when no server ran are
//   not run one by one, since each run works on everything due at its moment.
// - A held loop (the notifier's scan, the escalation ladder) runs its pass every few seconds in the
//   one process holding its lease, renewed at every pass; another takes over within about one lease
//   after the holder dies, or at once after it stops cleanly (it releases the lease).
//
// With SQLite (one process, or the CLI beside it) the same rows and rules apply.

export const JOB_RUNNER_DEFAULTS = {
  /** How often a server looks whether a periodic job's period is due (no database call once it is known done). */
  checkIntervalMs: 5_000,
  /** A periodic run's lease, renewed a third of the way through; a dead holder's run is taken over after it. */
  leaseMs: 60_000,
  /** A held loop's lease, at least: renewed at every pass, and three intervals long at the least. */
  loopLeaseMs: 15_000,
  /** A run that failed is tried again after this long (by whoever looks first). */
  retryAfterMs: 5 * 60_000,
} as const;

/** The period key of a held loop's one row. */
export const HELD_LOOP_PERIOD = 'held';

export type JobLog = {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
};

export type PeriodicJob = {
  readonly name: string;
  readonly period: PeriodRule;
  /** The work for one period. Throwing leaves the period unfinished: it is tried again after a while. */
  run(context: { readonly period: Period; readonly at: number }): Promise<void>;
  /** A period's run is due this long after the period starts (at most a quarter of the period). */
  readonly dueAfterMs?: number;
  /** After the runner starts the job, its first look waits this long (at most one period) so start-up settles. */
  readonly firstRunDelayMs?: number;
  /** The job's clock, when it is not the runner's (tests that move one component's time). */
  readonly now?: () => number;
  /** How often this job looks, when not the runner's (tests). */
  readonly checkIntervalMs?: number;
};

export type HeldLoop = {
  readonly name: string;
  readonly intervalMs: number;
  /** One pass; it handles its own errors (a throw is logged and the loop goes on). */
  pass(): Promise<void>;
  readonly now?: () => number;
};

export type RunningJob = {
  /** Stops the job: waits for the run or pass under way, and a held loop releases its lease. Safe to call twice. */
  stop(): Promise<void>;
};

export type JobRunnerOptions = {
  readonly store: JobStore;
  readonly log: JobLog;
  /** This process's id in job_runs; one per process. */
  readonly holder?: string;
  readonly now?: () => number;
  /** JOB_PERIOD_SECONDS (tests and benchmarks): every periodic job's period is this many seconds instead of its own. */
  readonly periodSeconds?: number;
  readonly checkIntervalMs?: number;
  readonly leaseMs?: number;
  readonly loopLeaseMs?: number;
  readonly retryAfterMs?: number;
};

export type JobRunner = {
  readonly holder: string;
  /** Starts a periodic job in this process (it runs here only in the periods this process claims). */
  periodic(job: PeriodicJob): RunningJob;
  /** Starts a held loop in this process (it runs here only while this process holds its lease). */
  loop(job: HeldLoop): RunningJob;
  /** Stops every job started and still running. */
  stop(): Promise<void>;
};

/** host:pid:random, so two processes never share an id, even across hosts or a restart with the same pid. */
export function processHolderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** A wait that `wake` ends early; the timer alone never keeps the process alive. */
function createSleeper() {
  let wake: (() => void) | undefined;
  return {
    sleep(ms: number): Promise<void> {
      return new Promise((resolve) => {
        const timer = setTimeout(done, Math.max(0, ms));
        timer.unref();
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    },
    wake() {
      wake?.();
    },
  };
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const {
    store,
    log,
    holder = processHolderId(),
    now: runnerNow = Date.now,
    periodSeconds,
    checkIntervalMs = JOB_RUNNER_DEFAULTS.checkIntervalMs,
    leaseMs = JOB_RUNNER_DEFAULTS.leaseMs,
    loopLeaseMs = JOB_RUNNER_DEFAULTS.loopLeaseMs,
    retryAfterMs = JOB_RUNNER_DEFAULTS.retryAfterMs,
  } = options;
  const running = new Set<RunningJob>();
  const overridden = periodSeconds === undefined ? undefined : fixedPeriods(periodSeconds);

  /** Renews a lease a third of the way through it until `stop`, warning once if another took it over. */
  function keepLease(job: string, period: string, now: () => number, lease: number): () => void {
    let lost = false;
    const timer = setInterval(
      () => {
        store
          .renewJobRun({ job, period, holder, now: now(), leaseMs: lease })
          .then((renewed) => {
            if (!renewed && !lost) {
              lost = true;
              log.warn({ job, period }, 'job lease lost while working: another server may run this too');
            }
          })
          // A failed renewal is tried again at the next turn; the lease still has two thirds to run.
          .catch(() => {});
      },
      Math.max(1, Math.floor(lease / 3)),
    );
    timer.unref();
    return () => clearInterval(timer);
  }

  function track(job: RunningJob): RunningJob {
    running.add(job);
    return {
      async stop() {
        running.delete(job);
        await job.stop();
      },
    };
  }

  function periodic(job: PeriodicJob): RunningJob {
    const now = job.now ?? runnerNow;
    const rule = overridden ?? job.period;
    const sleeper = createSleeper();
    let stopping = false;
    let doneKey: string | undefined;

    // One look: runs the period's work when it is due and this process gets it. Answers how long to wait.
    async function look(): Promise<number> {
      const at = now();
      const period = periodOf(rule, at);
      const length = period.end - period.start;
      // Several looks in every period however short (JOB_PERIOD_SECONDS), so none passes unrun.
      const check = Math.min(job.checkIntervalMs ?? checkIntervalMs, length / 8);
      if (period.key === doneKey) return check;
      const dueAt = period.start + Math.min(job.dueAfterMs ?? 0, length / 4);
      if (at < dueAt) return Math.min(check, dueAt - at);
      const lease = Math.min(leaseMs, length);
      const key = { job: job.name, period: period.key, holder };
      const claim = await store.claimJobRun({ ...key, now: at, leaseMs: lease });
      if (claim.outcome === 'done') {
        doneKey = period.key;
        return check;
      }
      // Held by another: look again when its lease would lapse (it may have died), or sooner.
      if (claim.outcome === 'held') return Math.min(check, Math.max(claim.leaseUntil - at, 0) + 1);
      const release = keepLease(job.name, period.key, now, lease);
      try {
        await job.run({ period, at });
      } catch (error) {
        release();
        log.error({ job: job.name, period: period.key, err: error }, 'job run failed; it is tried again shortly');
        await store.releaseJobRun({ ...key, now: now() }).catch(() => {});
        return Math.min(retryAfterMs, length / 4);
      }
      release();
      const finishedAt = now();
      const finished = await store.finishJobRun({ ...key, now: finishedAt });
      doneKey = period.key;
      if (finished) {
        log.info({ job: job.name, period: period.key, attempts: claim.attempts, durationMs: finishedAt - at, holder }, 'job run finished');
      } else {
        log.warn({ job: job.name, period: period.key }, 'job run finished after another server took it over');
      }
      return check;
    }

    async function schedule(): Promise<void> {
      const first = periodOf(rule, now());
      await sleeper.sleep(Math.min(job.firstRunDelayMs ?? 0, first.end - first.start));
      while (!stopping) {
        let wait: number;
        try {
          wait = await look();
        } catch (error) {
          // The database did not answer: look again at the next turn.
          log.error({ job: job.name, err: error }, 'job: could not claim or record a run; trying again shortly');
          wait = Math.min(job.checkIntervalMs ?? checkIntervalMs, retryAfterMs);
        }
        if (stopping) break;
        await sleeper.sleep(wait);
      }
    }

    const done = schedule();
    return track({
      async stop() {
        stopping = true;
        sleeper.wake();
        await done;
      },
    });
  }

  function loop(job: HeldLoop): RunningJob {
    const now = job.now ?? runnerNow;
    const lease = Math.max(loopLeaseMs, 3 * job.intervalMs);
    const sleeper = createSleeper();
    const key = { job: job.name, period: HELD_LOOP_PERIOD, holder };
    let stopping = false;
    let holding = false;

    // Holds (or takes) the lease; answers whether this process holds it now, else when to ask again.
    async function hold(at: number): Promise<number | undefined> {
      if (holding) {
        if (await store.renewJobRun({ ...key, now: at, leaseMs: lease })) return undefined;
        holding = false;
        log.warn({ job: job.name, holder }, 'job lease lost: another server runs it now');
      }
      const claim = await store.claimJobRun({ ...key, now: at, leaseMs: lease });
      if (claim.outcome === 'claimed') {
        holding = true;
        log.info({ job: job.name, holder, attempts: claim.attempts }, 'job lease taken: this server runs it');
        return undefined;
      }
      // A loop's row is never finished; a held one is asked for again when its lease would lapse.
      return claim.outcome === 'held' ? Math.min(job.intervalMs, Math.max(claim.leaseUntil - at, 0) + 1) : job.intervalMs;
    }

    async function run(): Promise<void> {
      while (!stopping) {
        let wait = job.intervalMs;
        try {
          const notHeld = await hold(now());
          if (notHeld === undefined) {
            const release = keepLease(job.name, HELD_LOOP_PERIOD, now, lease);
            try {
              await job.pass();
            } finally {
              release();
            }
          } else {
            wait = notHeld;
          }
        } catch (error) {
          log.error({ job: job.name, err: error }, 'job: could not hold its lease or run its pass; trying again shortly');
        }
        if (stopping) break;
        await sleeper.sleep(wait);
      }
      // A clean stop hands the loop on at once instead of after the lease.
      if (holding) await store.releaseJobRun({ ...key, now: now() }).catch(() => {});
    }

    const done = run();
    return track({
      async stop() {
        stopping = true;
        sleeper.wake();
        await done;
      },
    });
  }

  return {
    holder,
    periodic,
    loop,
    async stop() {
      const jobs = [...running];
      running.clear();
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
