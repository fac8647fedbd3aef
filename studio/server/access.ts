// Who may do what in the studio, decided in one place for every request.
//
// The decision is made on the route that will actually run (the right it declares, `config: { right }`:
// back-office/front-door/access.ts, and what it `accepts`), never on the text of the URL: the router
// decodes percent-escapes, ignores letter case and resolves dot segments, so `/%61pi/publish`,
// `/API/publish` and `/x/../api/publish` reach the same handler as `/api/publish` and must meet the
// same checks. A route that declares no right needs a session: forgetting the declaration closes a
// route, it never opens one. A right that names an action (publishing without review, reviewing) is
// checked once the request's shape has been, in preHandler, just before the handler: the answers
// come in the order they always did, and no handler checks a right itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectRouteRights, declaredRight } from '../../back-office/front-door/access.ts';
import { createAccessCheck as createSharedAccessCheck, type Refusal } from '../../back-office/front-door/access-check.ts';
import type { Action, Right } from '../../back-office/roles.ts';
import { checkSameOrigin, type Session } from './auth/sessions.ts';

/**
 * What a route's right asks of a request before any action is weighed:
 * - `public`: the studio app's own files, which hold no content;
 * - `anyone`: the sign-in endpoint itself (reading whether sign-in is needed, signing in);
 * - `session`: everything else, the API and the picture library (unpublished uploads too).
 */
export type Access = 'public' | 'anyone' | 'session';

/** What a right asks of a request before any action is weighed (a route that declares none: a session). */
export function accessOf(right: Right | undefined): Access {
  return right === 'public' || right === 'anyone' ? right : 'session';
}

/** The body types a route that changes something reads. */
export type BodyKind = 'json' | 'image';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a POST, PUT or DELETE to this route may carry; JSON when unset. */
    accepts?: readonly BodyKind[];
    /** The sentence a person without the route's action right reads; the action's own when unset. */
    refused?: string;
  }
  interface FastifyRequest {
    studioSession?: Session;
  }
  interface FastifyInstance {
    /** Every route with the access it was given, as registered (tests walk it to try each one). */
    studioRoutes: readonly RouteAccess[];
  }
}

export type RouteAccess = { method: string; url: string; access: Access; accepts: readonly BodyKind[]; right: Right | undefined };

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
  /**
   * Whether the session's person may do `action` here now (publishing and reviewing depend on the
   * studio's review setting), and the sentence they read when not.
   */
  may: (session: Session | undefined, action: Action) => boolean;
  refusal: (action: Action) => string;
};

/**
 * Installs the access check on `app`, before any route is added: an onRequest hook that lets a
 * request through or answers it with why not, and the list of routes with their access.
 */
export function installAccessControl(app: FastifyInstance, options: AccessOptions): void {
  const routes: RouteAccess[] = [];
  app.decorate('studioRoutes', routes);
  const acceptsOf = new Map<string, readonly BodyKind[]>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) acceptsOf.set(`${method} ${route.url}`, route.config?.accepts ?? ['json']);
  });
  collectRouteRights(app, ({ method, url, right }) =>
    routes.push({ method, url, access: accessOf(right), accepts: acceptsOf.get(`${method} ${url}`) ?? ['json'], right }),
  );
  app.addHook('onRequest', createAccessCheck(options));
  app.addHook('preHandler', createActionCheck(options));
}

/** A route whose right names an action: refused with 403 and the action's sentence for a person who may not do it. */
function createActionCheck({ may, refusal }: AccessOptions) {
  return async function checkAction(request: FastifyRequest, reply: FastifyReply) {
    const right = declaredRight(request);
    if (right === undefined || right === 'public' || right === 'anyone' || right === 'signed-in') return;
    if (!may(request.studioSession, right)) return reply.code(403).send({ message: request.routeOptions.config.refused ?? refusal(right) });
  };
}

/** How the studio words each refusal (`forbidden` never comes here: actions are weighed in preHandler). */
const REFUSAL_MESSAGES: Readonly<Record<Refusal, string>> = {
  'signed-out': ACCESS_MESSAGES.signIn,
  forbidden: ACCESS_MESSAGES.signIn,
  'stale-token': ACCESS_MESSAGES.staleToken,
  'other-site': ACCESS_MESSAGES.otherSite,
  'body-type': ACCESS_MESSAGES.bodyType,
};

/**
 * The onRequest check (back-office/front-door/access-check.ts) with the studio's policy: a request
 * no route will answer is left to the not-found answer, which says nothing and changes nothing; a
 * change from another site is refused before anything about the session is said; every route but
 * `public` and `anyone` needs a session, and the action a right names is weighed later, in preHandler.
 */
function createAccessCheck({ sessionOf }: AccessOptions) {
  return createSharedAccessCheck<Session>({
    skip: (request) => request.is404,
    sessionOf,
    keep(request, session) {
      request.studioSession = session;
    },
    idOf: (session) => session.id,
    fromOwnSite: (request) => checkSameOrigin(request.headers),
    originCheck: 'first',
    mayEnter: () => true,
    mediaTypesOf: (request) => (request.routeOptions.config.accepts ?? ['json']).flatMap((kind) => MEDIA_TYPES[kind]),
    refuse: (reply, refusal, status) => reply.code(status).send({ message: REFUSAL_MESSAGES[refusal] }),
  });
}
