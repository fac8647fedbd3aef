// Who may call what in the console, decided in one place for every request, on the route that will
// actually run (its `consoleAccess` setting), never on the text of the URL: every spelling of a path
// has been made canonical before routing (console-url.ts), so it finds the route whose own setting
// decides. A route that declares nothing is closed to everyone: forgetting the setting can never open
// a route.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { can, type Action } from '../accounts/roles.ts';
import { checkCsrfToken } from '../accounts/sign-in.ts';
import { isAllowedOrigin } from '../leads/origin.ts';
import type { SessionRecord } from '../../back-office/sessions/session-store.ts';
import { apiError } from './api-errors.ts';

/**
 * - `public`: the console app's own files, which hold no lead data, and the API's not-found answer;
 * - `anyone`: signing in and reading whether one is signed in;
 * - `signed-in`: any account with a live session (signing out);
 * - an Action: an account whose role may do it (server/accounts/roles.ts).
 */
export type ConsoleAccess = 'public' | 'anyone' | 'signed-in' | Action;

/** A live session and the id its cookie carries (the CSRF token derives from it). */
export type ConsoleSession = { readonly id: string; readonly record: SessionRecord };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call a console route; unset: nobody. */
    consoleAccess?: ConsoleAccess;
  }
  interface FastifyRequest {
    consoleSession?: ConsoleSession;
  }
  interface FastifyInstance {
    /** Every console route with the access it declares, as registered (tests walk it to try each one). */
    consoleRoutes: readonly ConsoleRouteAccess[];
  }
}

export type ConsoleRouteAccess = { method: string; url: string; access: ConsoleAccess | undefined };

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

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

/**
 * The onRequest check. Reading (GET, HEAD) needs the access only; a change (any other method) also
 * needs the session's CSRF token in X-CSRF-Token, a browser that does not say it comes from another
 * site, and a JSON body (DELETE may carry none). A plain HTML form on another site can send only
 * form-encoded, multipart or text bodies without asking first (a CORS preflight the console never
 * grants), so none of those reaches a route.
 */
export function createAccessCheck({ sessionOf, siteUrl }: AccessCheckOptions) {
  return async function checkAccess(request: FastifyRequest, reply: FastifyReply) {
    const access = request.routeOptions.config.consoleAccess;
    if (access === 'public') return;
    const session = await sessionOf(request);
    if (session) request.consoleSession = session;
    const change = !SAFE_METHODS.has(request.method);
    if (access !== 'anyone') {
      if (!session) return apiError(reply, 401, 'signed-out', ACCESS_MESSAGES.signedOut);
      if (change && !checkCsrfToken(session.id, request.headers['x-csrf-token'])) return apiError(reply, 403, 'csrf', ACCESS_MESSAGES.csrf);
      if (access === undefined || (access !== 'signed-in' && !can(session.record.account.role, access)))
        return apiError(reply, 403, 'forbidden', ACCESS_MESSAGES.forbidden);
    }
    if (!change) return;
    if (!comesFromThisSite(request, siteUrl)) return apiError(reply, 403, 'csrf', ACCESS_MESSAGES.csrf);
    if (!carriesJson(request)) return apiError(reply, 415, 'validation', ACCESS_MESSAGES.bodyType);
  };
}

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

function carriesJson(request: FastifyRequest): boolean {
  const header = request.headers['content-type'];
  if (header === undefined) return request.method === 'DELETE';
  return header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}
