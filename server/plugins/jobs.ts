import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { analyticsForgettingJob } from '../analytics/raw-retention.ts';
import type { Config } from '../config.ts';
import { createJobRunner, type JobRunner } from '../jobs/job-runner.ts';
import { retentionJob } from '../retention/retention.ts';

// The background jobs of this process (jobs/job-runner.ts), each run once across every server on the
// lead database: `app.jobs` is the process's runner, which the notifier and the sales queue give their
// jobs to. Registered after the lead relay (the runner claims runs in its store) and analytics; it
// starts the daily retention purge and the hourly analytics forgetting once every plugin is ready, and
// on close stops every job, waiting for a run under way, before the stores close.

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

/** Tests: a fake clock, faster looks, no settle delay. */
export type JobsTuning = {
  readonly now?: () => number;
  readonly checkIntervalMs?: number;
  /** The retention purge's and the analytics forgetting's wait after start (30 s). */
  readonly firstRunDelayMs?: number;
};

export type JobsPluginOptions = { config: Config; tuning?: JobsTuning };

const jobs: FastifyPluginAsync<JobsPluginOptions> = async (app, { config, tuning = {} }) => {
  const runner = createJobRunner({
    store: app.leadRelay.store,
    log: app.log.child({ component: 'jobs' }),
    periodSeconds: config.jobPeriodSeconds,
    now: tuning.now,
    checkIntervalMs: tuning.checkIntervalMs,
  });
  app.decorate('jobs', runner);
  app.addHook('onReady', async () => {
    runner.periodic(
      retentionJob({
        store: app.leadRelay.store,
        log: app.log.child({ component: 'retention' }),
        leadRetentionDays: config.leadRetentionDays,
        spamRetentionDays: config.spamRetentionDays,
        firstRunDelayMs: tuning.firstRunDelayMs,
      }),
    );
    if (app.hasDecorator('analytics')) {
      runner.periodic(
        analyticsForgettingJob({
          store: app.analytics.store,
          rawDays: config.analyticsRawDays,
          log: app.log.child({ component: 'analytics-retention' }),
          firstRunDelayMs: tuning.firstRunDelayMs,
        }),
      );
    }
  });
  app.addHook('onClose', () => runner.stop());
};

export const jobsPlugin = fp(jobs, { name: 'jobs', fastify: '5.x', dependencies: ['lead-relay'] });
