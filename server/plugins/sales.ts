import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { NotificationChannel } from '../store/notifications/notification-store.ts';
import { createAssigner, type Assigner } from '../sales/assigner.ts';
import { loadSiteHours } from '../sales/site-hours.ts';
import { createEscalator, type Escalator } from '../sales/escalator.ts';
import type { WeeklyHours } from '../sales/working-time.ts';

// The sales queue's two loops: the assigner (an owner on every lead within seconds) in every server
// process, and the escalation ladder in one at a time (a held loop of `app.jobs`). Both work from the
// store alone, and each lead is placed, and each step taken, once. The assigner stays in every
// process: placing is exactly once by the store's insert, and the server that took a lead nudges its
// own assigner right after answering, so the lead gets its owner within milliseconds instead of at
// another server's next sweep. Neither is on a request's path. They stop on close, before the lead
// relay closes the store.

export type SalesEngine = {
  readonly assigner: Assigner;
  readonly escalator: Escalator;
  /** The site's business hours now (a new build may bring new ones). */
  siteHours(): WeeklyHours;
  /** The clock the queue runs on (the console's sales screens read clocks by it too). */
  now(): number;
};

declare module 'fastify' {
  interface FastifyInstance {
    sales: SalesEngine;
  }
}

/** Tests: a fake clock, fixed business hours, faster loops, or loops left stopped to drive by hand. */
export type SalesTuning = {
  readonly now?: () => number;
  readonly siteHours?: WeeklyHours;
  readonly sweepIntervalMs?: number;
  readonly escalateIntervalMs?: number;
  /** False: neither loop starts (tests call runOnce). */
  readonly start?: boolean;
};

export type SalesPluginOptions = { config: Config; tuning?: SalesTuning };

const sales: FastifyPluginAsync<SalesPluginOptions> = async (app, { config, tuning = {} }) => {
  const store = app.leadRelay.store;
  const fixed = tuning.siteHours;
  const hours =
    fixed === undefined ? await loadSiteHours(config.distDir, app.liveBuild, app.log) : { current: () => fixed, stop: () => {} };
  const channels: NotificationChannel[] = [
    ...(config.smtpUrl === undefined ? [] : ['email' as const]),
    ...(config.alertWebhookUrl === undefined ? [] : ['webhook' as const]),
  ];
  const assigner = createAssigner({
    store,
    siteHours: hours.current,
    log: app.log.child({ component: 'assigner' }),
    now: tuning.now,
    sweepIntervalMs: tuning.sweepIntervalMs,
  });
  const escalator = createEscalator({
    store,
    siteHours: hours.current,
    steps: config.escalateAfterMinutes,
    channels,
    log: app.log.child({ component: 'escalation' }),
    now: tuning.now,
    intervalMs: tuning.escalateIntervalMs ?? config.escalateCheckSeconds * 1000,
    jobs: app.jobs,
  });
  app.addHook('onClose', async () => {
    hours.stop();
    await Promise.all([assigner.stop(), escalator.stop()]);
  });
  app.decorate('sales', { assigner, escalator, siteHours: hours.current, now: tuning.now ?? Date.now } satisfies SalesEngine);
  if (tuning.start === false) return;
  assigner.start();
  escalator.start();
};

export const salesPlugin = fp(sales, {
  name: 'sales',
  fastify: '5.x',
  dependencies: ['lead-relay', 'notifications', 'live-build', 'jobs'],
});
