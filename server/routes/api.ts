import type { FastifyPluginAsync, FastifyReply } from 'fastify';

// Registered with prefix `/api`. The lead relay adds its routes (`POST /leads`) here; any other
// `/api` path answers JSON, never the HTML site, and before a request body is read.

export const API_NOT_FOUND = { error: 'not_found' } as const;

export const apiRoutes: FastifyPluginAsync = async (app) => {
  const notFound = async (_request: unknown, reply: FastifyReply): Promise<FastifyReply> => reply.code(404).send(API_NOT_FOUND);

  for (const url of ['/', '/*']) {
    app.route({ method: app.supportedMethods, url, onRequest: notFound, handler: notFound });
  }
};
