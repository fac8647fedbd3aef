// The one access check of both back-office apps, an onRequest hook decided on the route that will
// actually run (the right it declares, `config: { right }`, read by access.ts), never on the text of
// the URL. What differs between the apps is a small policy (`AccessPolicy`): where the session comes
// from and where it is kept on the request, whether a change's origin is weighed before the session
// (the studio: a change from another site is refused before anything about the person is said) or
// after it (the console), what a route without a right asks for, and how each app words and shapes
// its refusals. The order of the checks, and each refusal's status, are here once:
//
// - `public`: nothing is checked;
// - every other right looks up the session; all but `anyone` need one (401 `signed-out`);
// - a change (any method but GET and HEAD) with a session needs its CSRF token in X-CSRF-Token
//   (403 `stale-token`), comes from the app's own site (403 `other-site`), and carries a body of a
//   type the route takes (415 `body-type`; DELETE may carry none);
// - the policy's `mayEnter` then weighs the right against the session (403 `forbidden`).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Right } from '../roles.ts';
import { checkCsrfToken } from '../sign-in/sign-in.ts';
import { carriesOneOf, declaredRight, isChange } from './access.ts';

/** Why a request is refused; the check gives each its status, the app its words. */
export type Refusal = 'signed-out' | 'forbidden' | 'stale-token' | 'other-site' | 'body-type';

export const REFUSAL_STATUS: Readonly<Record<Refusal, number>> = {
  'signed-out': 401,
  forbidden: 403,
  'stale-token': 403,
  'other-site': 403,
  'body-type': 415,
};

export type AccessPolicy<Session> = {
  /** A request the check leaves alone before anything else (the studio: one no route will answer). */
  skip?(request: FastifyRequest): boolean;
  /** The live session the request's cookie names, if any. */
  sessionOf(request: FastifyRequest): Promise<Session | undefined>;
  /** Keeps the session on the request for the routes. */
  keep(request: FastifyRequest, session: Session): void;
  /** The session's id, from which its CSRF token derives. */
  idOf(session: Session): string;
  /** Whether a change comes from the app's own site. */
  fromOwnSite(request: FastifyRequest): boolean;
  /** `first`: a change's origin is weighed before the session; `last`: after the session and the right. */
  originCheck: 'first' | 'last';
  /** Whether the session's person may enter a route with this right (undefined: the route declares none). */
  mayEnter(session: Session, right: Right | undefined): boolean;
  /** The media types a change to this route may carry. */
  mediaTypesOf(request: FastifyRequest): readonly string[];
  /** Answers the refusal with the app's body and words, under `status`. */
  refuse(reply: FastifyReply, refusal: Refusal, status: number): FastifyReply;
};

/** The onRequest hook that lets a request through or answers why not, as `policy` says. */
export function createAccessCheck<Session>(policy: AccessPolicy<Session>) {
  const refuse = (reply: FastifyReply, refusal: Refusal) => policy.refuse(reply, refusal, REFUSAL_STATUS[refusal]);
  return async function checkAccess(request: FastifyRequest, reply: FastifyReply) {
    if (policy.skip?.(request)) return;
    const right = declaredRight(request);
    if (right === 'public') return;
    // Looked up only where a route may need it: for the team it is a query to the store.
    const session = await policy.sessionOf(request);
    if (session !== undefined) policy.keep(request, session);
    const change = isChange(request);
    if (change && policy.originCheck === 'first' && !policy.fromOwnSite(request)) return refuse(reply, 'other-site');
    if (right !== 'anyone') {
      if (session === undefined) return refuse(reply, 'signed-out');
      if (change && !checkCsrfToken(policy.idOf(session), request.headers['x-csrf-token'])) return refuse(reply, 'stale-token');
      if (!policy.mayEnter(session, right)) return refuse(reply, 'forbidden');
    }
    if (!change) return;
    if (policy.originCheck === 'last' && !policy.fromOwnSite(request)) return refuse(reply, 'other-site');
    if (!carriesOneOf(request, policy.mediaTypesOf(request))) return refuse(reply, 'body-type');
  };
}
