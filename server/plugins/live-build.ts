import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { openLiveBuild, type LiveBuild } from '../site/live-build.ts';

// The build DIST_DIR holds, loaded at start (a missing or inconsistent build stops the server with a
// SiteBuildError saying why) and followed while the server runs: `app.liveBuild` is the one place
// every part of the server reads the build from, with the one timer that notices a new build.

declare module 'fastify' {
  interface FastifyInstance {
    liveBuild: LiveBuild;
  }
}

export type LiveBuildPluginOptions = { distDir: string };

const liveBuild: FastifyPluginAsync<LiveBuildPluginOptions> = async (app, { distDir }) => {
  const service = await openLiveBuild({
    distDir,
    onError: (error) => app.log.error({ err: error }, 'a new build could not be loaded; still serving the previous one'),
  });
  app.decorate('liveBuild', service);
  app.addHook('onClose', async () => service.stop());
};

export const liveBuildPlugin = fp(liveBuild, { name: 'live-build', fastify: '5.x' });
