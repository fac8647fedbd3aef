import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { createStudioNotices } from '../notify/studio-notices.ts';

// The content studio's e-mails (notify/studio-notices.ts): the studio stores them in the outbox, and
// this server's notifier sends them with its SMTP settings, retries and giving up, attached before
// the notifier starts.

export type StudioNoticesPluginOptions = { now?: () => number };

const studioNotices: FastifyPluginAsync<StudioNoticesPluginOptions> = async (app, { now }) => {
  app.notifier.attach(createStudioNotices({ store: app.leadRelay.store, ...(now ? { now } : {}) }));
};

export const studioNoticesPlugin = fp(studioNotices, {
  name: 'studio-notices',
  fastify: '5.x',
  dependencies: ['notifications', 'lead-relay'],
});
