import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ALLOWED_METHODS, CACHE_CONTROL, resolveSiteRequest } from '../site/resolve-request.ts';
import type { SiteResolution } from '../site/resolve-request.ts';
import type { SiteBuild } from '../site/site-build.ts';
import { STATIC_FILE } from '../../back-office/logging/request-log.ts';

// Serves the prerendered site from the build DIST_DIR holds (`app.liveBuild`, which follows a new
// one): pages by route, files by path, not-found pages with 404. More specific routes registered
// elsewhere (`/healthz`, `/api/*`) take precedence over `/*`.

const PERMANENT_REDIRECT = 308;
const ALLOW_HEADER = ALLOWED_METHODS.join(', ');
const CONDITIONAL_HEADERS = ['if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since', 'if-range'] as const;

export const siteRoutes: FastifyPluginAsync = async (app) => {
  const { liveBuild } = app;
  const unsubscribe = liveBuild.subscribe((build) => app.log.info({ clientDir: build.clientDir }, 'now serving a new build'));
  app.addHook('onClose', async () => unsubscribe());

  await app.register(fastifyStatic, {
    root: liveBuild.current().clientDir,
    // No wildcard route of its own: resolveSiteRequest decides which listed file, if any, is sent.
    serve: false,
    // Picks `<file>.br`, then `<file>.gz`, then the file itself per Accept-Encoding (q=0 respected)
    // and sets Content-Encoding and Vary; nothing is compressed at request time.
    preCompressed: true,
    cacheControl: false,
    index: false,
  });

  const answer = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    // One build for the whole answer, even when a new one is loaded meanwhile.
    const build = liveBuild.current();
    return sendResolution(reply, build, resolveSiteRequest(build, request.method, request.url));
  };

  // Every answer here is a file of the build (or a redirect or refusal about one): logged at debug.
  app.route({ method: [...ALLOWED_METHODS], url: '/*', config: STATIC_FILE, handler: answer });

  // Other methods (POST, PUT, …) get 405 on existing resources and the not-found page elsewhere,
  // answered in onRequest, before any of the request body is read: the site takes no bodies.
  app.route({
    method: app.supportedMethods.filter((method) => !(ALLOWED_METHODS as readonly string[]).includes(method)),
    url: '/*',
    config: STATIC_FILE,
    onRequest: async (request, reply) => answer(request, reply),
    handler: answer,
  });

  // Methods Fastify does not route (and files that vanished after start-up) end here.
  app.setNotFoundHandler(answer);
};

function sendResolution(reply: FastifyReply, build: SiteBuild, resolution: SiteResolution): FastifyReply {
  switch (resolution.kind) {
    case 'document':
      reply.code(resolution.statusCode).header('cache-control', CACHE_CONTROL.document);
      if (resolution.statusCode === 200) return reply.sendFile(resolution.file, build.clientDir);
      // The not-found page stands in for a resource that does not exist: it is never a 304, 206 or 412.
      for (const header of CONDITIONAL_HEADERS) delete reply.request.raw.headers[header];
      return reply.sendFile(resolution.file, build.clientDir, { etag: false, lastModified: false, acceptRanges: false });
    case 'file':
      reply.header('cache-control', resolution.cacheControl);
      return reply.sendFile(resolution.file, build.clientDir);
    case 'redirect':
      return reply.redirect(resolution.location, PERMANENT_REDIRECT);
    case 'method-not-allowed':
      return reply.code(405).header('allow', ALLOW_HEADER).type('text/plain; charset=utf-8').send('Method Not Allowed');
    case 'asset-not-found':
      return reply.code(404).header('cache-control', CACHE_CONTROL.document).type('text/plain; charset=utf-8').send('Not Found');
  }
}
