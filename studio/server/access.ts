// Who may do what in the studio, decided in one place for every request.
//
// The decision is made on the route that will actually run (its `access` and `accepts` settings),
// never on the text of the URL: the router decodes percent-escapes, ignores letter case and resolves
// dot segments, so `/%61pi/publish`, `/API/publish` and `/x/../api/publish` reach the same handler as
// `/api/publish` and must meet the same checks. A route that says nothing about access needs a
// session: forgetting the setting closes a route, it never opens one.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkCsrfToken } from '../../back-office/sign-in/sign-in.ts';
import { checkSameOrigin, type Session } from './auth/sessions.ts';

/**
 * - `public`: the studio app's own files, which hold no content;
 * - `anyone`: the sign-in endpoint itself (reading whether sign-in is needed, signing in);
 * - `session` (the default): everything else, the API and the picture library (unpublished uploads too).
 */
export type Access = 'public' | 'anyone' | 'session';

/** The body types a route that changes something reads. */
export type BodyKind = 'json' | 'image';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** What a POST, PUT or DELETE to this route may carry; JSON when unset. */
    accepts?: readonly BodyKind[];
  }
  interface FastifyRequest {
    studioSession?: Session;
  }
  interface FastifyInstance {
    /** Every route with the access it was given, as registered (tests walk it to try each one). */
    studioRoutes: readonly RouteAccess[];
  }
}

export type RouteAccess = { method: string; url: string; access: Access; accepts: readonly BodyKind[] };

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * The media types each body kind allows. A plain HTML form on another site can only send
 * text/plain, application/x-www-form-urlencoded or multipart/form-data without asking the browser
 * first (a CORS preflight the studio never grants), so none of those reaches a route that changes
 * anything.
 */
export const MEDIA_TYPES: Readonly<Record<BodyKind, readonly string[]>> = {
  json: ['application/json'],
  image: ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'],
};

export const ACCESS_MESSAGES = {
  signIn: 'Please sign in again: your session has ended.',
  otherSite: 'This change came from another site and was refused.',
  staleToken: 'The page was open too long or came from elsewhere: reload it and try again.',
  bodyType: 'This kind of request is not accepted here: the studio takes changes as JSON (pictures as PNG, JPEG or WebP).',
} as const;

export type AccessOptions = {
  /** The live session a request's cookie names, if any. */
  sessionOf: (request: FastifyRequest) => Promise<Session | undefined>;
};

/**
 * Installs the access check on `app`, before any route is added: an onRequest hook that lets a
 * request through or answers it with why not, and the list of routes with their access.
 */
export function installAccessControl(app: FastifyInstance, options: AccessOptions): void {
  const routes: RouteAccess[] = [];
  app.decorate('studioRoutes', routes);
  app.addHook('onRoute', (route) => {
    const { access = 'session', accepts = ['json'] } = route.config ?? {};
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, access, accepts });
  });
  app.addHook('onRequest', createAccessCheck(options));
}

function createAccessCheck({ sessionOf }: AccessOptions) {
  return async function checkAccess(request: FastifyRequest, reply: FastifyReply) {
    // No route will run: the not-found answer says nothing and changes nothing.
    if (request.is404) return;
    const { access = 'session', accepts = ['json'] } = request.routeOptions.config;
    if (access === 'public') return;
    // Looked up only where a route may need it: for the team it is a query to the lead store.
    const session = await sessionOf(request);
    if (session) request.studioSession = session;
    if (SAFE_METHODS.has(request.method)) {
      if (access === 'session' && !session) return reply.code(401).send({ message: ACCESS_MESSAGES.signIn });
      return;
    }
    if (!checkSameOrigin(request.headers)) return reply.code(403).send({ message: ACCESS_MESSAGES.otherSite });
    if (access === 'session') {
      if (!session) return reply.code(401).send({ message: ACCESS_MESSAGES.signIn });
      if (!checkCsrfToken(session.id, request.headers['x-csrf-token']))
        return reply.code(403).send({ message: ACCESS_MESSAGES.staleToken });
    }
    if (!carriesAcceptedBody(request, accepts)) return reply.code(415).send({ message: ACCESS_MESSAGES.bodyType });
  };
}

/**
 * POST and PUT must say they carry one of the route's body types; DELETE carries none, and if it
 * says it does, that type must be one of them too.
 */
function carriesAcceptedBody(request: FastifyRequest, accepts: readonly BodyKind[]): boolean {
  const header = request.headers['content-type'];
  if (header === undefined) return request.method === 'DELETE';
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  return accepts.some((kind) => MEDIA_TYPES[kind].includes(mediaType));
}
