// Installs the studio's one access decision (access.ts) on every request: an onRequest hook that
// finds the session the cookie names and lets the request through or answers why not, decided on
// the route that will run; and the list of every route with the access it declares
// (`app.studioRoutes`, collected as routes are added, which the access tests walk). Registered after
// the sessions and before any route, so no route is added without passing through it.
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { installAccessControl } from '../access.ts';

const accessControl: FastifyPluginAsync = async (app) => {
  installAccessControl(app, { sessionOf: (request) => app.studioSessions.of(request) });
};

// Not encapsulated: the hooks must see every route registered after it.
export const accessControlPlugin = fp(accessControl, { name: 'studio-access-control', fastify: '5.x', dependencies: ['studio-sessions'] });
