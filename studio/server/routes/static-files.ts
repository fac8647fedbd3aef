// The files the studio serves as files: its browser app (`/`, `/preview`, `/assets/*`), which holds
// no content and is open to anyone (`right: 'public'`), and the site's pictures (`/images/*`), which
// need a session because unpublished uploads are among them. Each route sets its own caching (the
// plugin's default would let shared caches keep session-only pictures), and a file name that is not
// plainly a file in that folder is a 404.
import path from 'node:path';
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ImageLibrary } from '../images.ts';
import { STATIC_FILE } from '../../../back-office/logging/request-log.ts';
import { NOT_FOUND } from '../plugins/error-answers.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';

export type StaticFileRoutesOptions = {
  /** The built browser app (index.html, preview.html, assets/). */
  appDir: string;
  /** public/images/ of this checkout. */
  imagesDir: string;
  images: ImageLibrary;
};

// Files only: their requests are logged at debug.
const publicFile = { right: 'public', ...STATIC_FILE } as const;
const wildcard = z.object({ '*': z.string() });

export const staticFileRoutes: StudioRoutes<StaticFileRoutesOptions> = async (app, { appDir, imagesDir, images }) => {
  // Only `reply.sendFile`: every route below decides which file, if any, is sent.
  await app.register(fastifyStatic, { root: appDir, prefix: '/', index: false, wildcard: false, serve: false, cacheControl: false });

  const sendAppFile = (file: string) => async (_request: FastifyRequest, reply: FastifyReply) => {
    if (!existsSync(path.join(appDir, file)))
      return reply.code(503).type('text/plain').send('The studio app is not built: run `npm run studio`.');
    return reply.header('cache-control', 'no-cache').sendFile(file, appDir);
  };
  app.get('/', { config: publicFile }, sendAppFile('index.html'));
  app.get('/preview', { config: publicFile }, sendAppFile('preview.html'));
  app.get('/assets/*', { config: publicFile, schema: { params: wildcard } }, async (request, reply) => {
    const file = request.params['*'];
    if (!/^\w[\w.-]*$/.test(file) || !existsSync(path.join(appDir, 'assets', file))) return reply.code(404).send(NOT_FOUND);
    return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(`assets/${file}`, appDir);
  });

  // The site's pictures, so the preview shows what the live site shows.
  app.get('/images/*', { config: { right: 'studio:edit', ...STATIC_FILE }, schema: { params: wildcard } }, async (request, reply) => {
    const file = images.resolve(request.params['*']);
    if (!file) return reply.code(404).send(NOT_FOUND);
    // An SVG opened on its own is a document on the studio's origin: it may draw, never run script.
    reply.header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'");
    // Unpublished uploads are among them: never kept by a shared cache.
    reply.header('cache-control', 'private, no-store');
    return reply.sendFile(file, imagesDir);
  });
};
