import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createNotifier } from '../notify/notifier.ts';
import type { Notifier, NotifierTuning } from '../notify/notifier.ts';

// E-mail and webhook notifications: new leads, leads that failed or reached only a test workflow,
// and delivery incidents. The notifier reads the lead store in its own loop, never in a request, so
// a slow or broken mail server cannot hold up taking a lead. `app.notifier` is what the console uses
// (settings, per-form switches, a test message, the open incident); it stops on close, before the
// lead relay closes the store.

declare module 'fastify' {
  interface FastifyInstance {
    notifier: Notifier;
  }
}

export type NotificationsPluginOptions = { config: Config; tuning?: NotifierTuning };

const notifications: FastifyPluginAsync<NotificationsPluginOptions> = async (app, { config, tuning = {} }) => {
  const log = app.log.child({ component: 'notifier' });
  const notifier = createNotifier({ store: app.leadRelay.store, config, log, jobs: app.jobs, ...tuning });
  app.addHook('onClose', () => notifier.stop());
  app.decorate('notifier', notifier);
  if (!notifier.active) {
    log.info('notifications are off: set SMTP_URL and NOTIFY_TO for e-mail, or ALERT_WEBHOOK_URL for alerts');
    return;
  }
  // Started once every plugin is registered, so the sources others attach (the weekly summary) are
  // there before the first pass claims anything of theirs.
  app.addHook('onReady', async () => notifier.start());
  // The SMTP URL and webhook address may hold secrets: only whether each is set is logged.
  log.info(
    {
      email: config.smtpUrl !== undefined,
      recipients: config.notifyTo.length,
      webhook: config.alertWebhookUrl !== undefined,
      alertAfterMinutes: config.alertAfterMinutes,
    },
    'notifications started',
  );
};

export const notificationsPlugin = fp(notifications, { name: 'notifications', fastify: '5.x', dependencies: ['lead-relay', 'jobs'] });
