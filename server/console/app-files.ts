// The console's browser app, built into DIST_DIR/console (index.html and assets/, served under
// /console/). Every console address that is not the API or an asset gets the same index.html,
// signed in or not: the app asks GET /console/api/session and shows the sign-in form on a 401, so the
// page itself never holds lead data. Without a build, a plain 503 says how to make one.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { STATIC_FILE } from '../../back-office/logging/request-log.ts';

export const CONSOLE_APP_DIR = 'console';
export const NOT_BUILT_MESSAGE = 'The console was not built: run `npm run build`, then reload this page.\n';

const PAGE_METHODS = ['GET', 'HEAD'];
/** Hashed file names never change content, so browsers may keep them for good. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** What Vite writes into assets/: a name without folders or a leading dot. */
const ASSET_NAME = /^[\w-][\w.-]*$/;

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export const consoleAppFiles: FastifyPluginAsync<{ distDir: string }> = async (app, { distDir }) => {
  const appDir = path.resolve(distDir, CONSOLE_APP_DIR);
  const assetsDir = path.join(appDir, 'assets');

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!PAGE_METHODS.includes(request.method)) {
      return reply.code(405).header('allow', PAGE_METHODS.join(', ')).type('text/plain; charset=utf-8').send('Method Not Allowed\n');
    }
    let html: Buffer;
    try {
      html = await readFile(path.join(appDir, 'index.html'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT_MESSAGE);
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  };

  const asset = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const name = request.params['*'];
    const type = MEDIA_TYPES[path.extname(name).toLowerCase()];
    const file = path.join(assetsDir, name);
    const found = ASSET_NAME.test(name) && type !== undefined && (await stat(file).catch(() => undefined))?.isFile();
    if (!found) return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Not Found\n');
    return reply.type(type).header('cache-control', ASSET_CACHE_CONTROL).send(createReadStream(file));
  };

  // The app's own files: their requests are logged at debug, like the site's.
  const config = { right: 'public', ...STATIC_FILE } as const;
  // Other methods are answered in onRequest, before any body is read: the app's pages take none.
  for (const url of ['/', '/*']) app.route({ method: app.supportedMethods, url, config, onRequest: page, handler: page });
  app.route({ method: PAGE_METHODS, url: '/assets/*', config, handler: asset });
};
