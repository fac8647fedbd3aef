// Who may call what in the console, decided in one place for every request, on the route that will
// actually run (the right it declares, `config: { right }`: back-office/front-door/access.ts), never
// on the text of the URL: every spelling of a path has been made canonical before routing
// (console-url.ts), so it finds the route whose own declaration decides. A route that declares
// nothing is closed to everyone: forgetting the declaration can never open a route.
import type { FastifyRequest } from 'fastify';
import { roleHolds } from '../../back-office/front-door/access.ts';
import { createAccessCheck as createSharedAccessCheck, type Refusal } from '../../back-office/front-door/access-check.ts';
import type { Right } from '../../back-office/roles.ts';
import { isAllowedOrigin } from '../leads/origin.ts';
import type { ConsoleSession } from '../../back-office/sessions/session-cookie.ts';
import { apiError, type ApiErrorCode } from './api-errors.ts';

/**
 * A console route's right (back-office/roles.ts `Right`):
 * - `public`: the console app's own files, which hold no lead data, and the API's not-found answer;
 * - `anyone`: signing in and reading whether one is signed in;
 * - `signed-in`: any account with a live session (signing out);
 * - an Action: an account whose role may do it.
 */
export type ConsoleAccess = Right;

export type { ConsoleSession };

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession?: ConsoleSession;
  }
  interface FastifyInstance {
    /** Every console route with the access it declares, as registered (tests walk it to try each one). */
    consoleRoutes: readonly ConsoleRouteAccess[];
  }
}

export type ConsoleRouteAccess = { method: string; url: string; access: ConsoleAccess | undefined };

export const ACCESS_MESSAGES = {
  signedOut: 'Please sign in: your session has ended or you have not signed in yet.',
  forbidden: 'Your account may not do this. Ask an admin if you need to.',
  csrf: 'This change did not come from the console itself (or the page is out of date): reload the page and try again.',
  bodyType: 'The console takes changes as JSON (Content-Type: application/json).',
} as const;

export type AccessCheckOptions = {
  /** The live session the request's cookie names, if any. */
  sessionOf(request: FastifyRequest): Promise<ConsoleSession | undefined>;
  /** SITE_URL, whose origin a change may come from besides the request's own host. */
  siteUrl: string | undefined;
};

/** How the console words each refusal, with its `error` code (the console's answers: `ApiError`). */
const REFUSALS: Readonly<Record<Refusal, { error: ApiErrorCode; message: string }>> = {
  'signed-out': { error: 'signed-out', message: ACCESS_MESSAGES.signedOut },
  forbidden: { error: 'forbidden', message: ACCESS_MESSAGES.forbidden },
  'stale-token': { error: 'csrf', message: ACCESS_MESSAGES.csrf },
  'other-site': { error: 'csrf', message: ACCESS_MESSAGES.csrf },
  'body-type': { error: 'validation', message: ACCESS_MESSAGES.bodyType },
};

/**
 * The onRequest check (back-office/front-door/access-check.ts) with the console's policy. Reading
 * (GET, HEAD) needs the access only; a change (any other method) also needs the session's CSRF
 * token in X-CSRF-Token, a browser that does not say it comes from another site (weighed after the
 * session and the role), and a JSON body (DELETE may carry none). A plain HTML form on another site
 * can send only form-encoded, multipart or text bodies without asking first (a CORS preflight the
 * console never grants), so none of those reaches a route. A route that declares no right is closed
 * to every role.
 */
export function createAccessCheck({ sessionOf, siteUrl }: AccessCheckOptions) {
  return createSharedAccessCheck<ConsoleSession>({
    sessionOf,
    keep(request, session) {
      request.consoleSession = session;
    },
    idOf: (session) => session.id,
    fromOwnSite: (request) => comesFromThisSite(request, siteUrl),
    originCheck: 'last',
    mayEnter: (session, right) => right !== undefined && roleHolds(session.record.account.role, right),
    mediaTypesOf: () => JSON_ONLY,
    refuse: (reply, refusal, status) => apiError(reply, status, REFUSALS[refusal].error, REFUSALS[refusal].message),
  });
}

const JSON_ONLY = ['application/json'] as const;

/**
 * Defence in depth beside the token: the browser's Sec-Fetch-Site must be same-origin when sent (a
 * sibling subdomain is same-site, and not the console), and an Origin must be this site's.
 */
function comesFromThisSite(request: FastifyRequest, siteUrl: string | undefined): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  const origin = request.headers.origin;
  return isAllowedOrigin({ origin, secFetchSite: undefined, host: request.headers.host, siteUrl });
}
