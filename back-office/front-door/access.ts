// The front door's one vocabulary for who may call a route: every route of the console and the studio
// declares its right where it is added (`config: { right: 'leads:read' }`, a Right from
// back-office/roles.ts), and each app's access check reads it from the route that will actually run,
// never from the text of the URL: every spelling of a path reaches the router as one canonical path
// (http/request-url.ts), so it finds the route whose own declaration decides. Each app lists its
// routes with their rights as they are added (`collectRouteRights`), so a test can walk them and a
// route that declares nothing is found.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, type Right } from '../roles.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route; what an undeclared route allows is the app's (the console: nobody). */
    right?: Right;
  }
}

/** A route as added, with the right it declares (undefined: none). */
export type DeclaredRoute = { readonly method: string; readonly url: string; readonly right: Right | undefined };

/** Reading: GET and HEAD change nothing. Any other method is a change. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

export function isChange(request: FastifyRequest): boolean {
  return !SAFE_METHODS.has(request.method);
}

/** The right the route that will run declares. */
export function declaredRight(request: FastifyRequest): Right | undefined {
  return request.routeOptions.config.right;
}

/** Calls `record` with every route `app` adds from now on (once per method), with its declared right. */
export function collectRouteRights(app: FastifyInstance, record: (route: DeclaredRoute) => void): void {
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) record({ method, url: route.url, right: route.config?.right });
  });
}

/** True when a person of `role` holds an Action right; the other rights ask for no role. */
export function roleHolds(role: Parameters<typeof can>[0], right: Right): boolean {
  if (right === 'public' || right === 'anyone' || right === 'signed-in') return true;
  return can(role, right);
}

/**
 * The media type a request says its body has (lower case, without parameters), or undefined when it
 * says none. A plain HTML form on another site can send only form-encoded, multipart or text bodies
 * without asking the browser first (a CORS preflight neither app grants), so checking it keeps such
 * forms from every route that changes something.
 */
export function mediaTypeOf(request: FastifyRequest): string | undefined {
  const header = request.headers['content-type'];
  return header === undefined ? undefined : header.split(';')[0]!.trim().toLowerCase();
}

/** POST, PUT and PATCH must say they carry one of `mediaTypes`; DELETE carries none, and if it says it does, it must be one of them too. */
export function carriesOneOf(request: FastifyRequest, mediaTypes: readonly string[]): boolean {
  const mediaType = mediaTypeOf(request);
  if (mediaType === undefined) return request.method === 'DELETE';
  return mediaTypes.includes(mediaType);
}
