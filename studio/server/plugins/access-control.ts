// Installs the studio's one access decision (access.ts) on every request: an onRequest hook that
// finds the session the cookie names and lets the request through or answers why not, decided on
// the route that will run; a preHandler that weighs the action a route's right names (editing,
// publishing without review, reviewing) against the person and the studio's review setting; and the
// list of every route with the right it declares (`app.studioRoutes`, collected as routes are added,
// which the access tests walk). Registered after the sessions and before any route, so no route is
// added without passing through it.
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Action } from '../../../back-office/roles.ts';
import type { Session } from '../auth/sessions.ts';
import { installAccessControl } from '../access.ts';
import { REVIEW_MESSAGES, type PublishRights } from '../reviews.ts';

export type AccessControlOptions = { rights: PublishRights };

/** Said to a person whose route names an action the studio never grants (no studio route does). */
const NOT_IN_THE_STUDIO = 'Your account may not do this in the studio.';

/**
 * Whether the session's person may do `action` now. Every studio session may edit (the team's
 * sessions are kept only while the account's role may: auth/team-sessions.ts); publishing without
 * review and reviewing follow the review setting (reviews.ts `publishRights`).
 */
export function studioMay(rights: PublishRights) {
  return (session: Session | undefined, action: Action): boolean => {
    if (action === 'studio:edit') return session !== undefined;
    if (action === 'studio:publish') return rights.mayPublish(session);
    if (action === 'studio:review') return rights.mayReview(session);
    return false;
  };
}

function refusal(action: Action): string {
  if (action === 'studio:publish') return REVIEW_MESSAGES.publishRefused;
  if (action === 'studio:review') return REVIEW_MESSAGES.notReviewer;
  return NOT_IN_THE_STUDIO;
}

const accessControl: FastifyPluginAsync<AccessControlOptions> = async (app, { rights }) => {
  installAccessControl(app, { sessionOf: (request) => app.studioSessions.of(request), may: studioMay(rights), refusal });
};

// Not encapsulated: the hooks must see every route registered after it.
export const accessControlPlugin = fp(accessControl, { name: 'studio-access-control', fastify: '5.x', dependencies: ['studio-sessions'] });
