// Without sign-in the studio trusts whoever reaches it, which only this computer can. A web page
// elsewhere could still point its own name at 127.0.0.1 (DNS rebinding) and talk to the studio as
// its own origin: so every request must be addressed to a loopback name, or it is answered 421
// before anything else looks at it. Registered by buildStudioApp only when no accounts are set.
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { isLoopbackHost, LOOPBACK_ADDRESS } from '../auth/loopback.ts';

const localOnly: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    if (isLoopbackHost(request.headers.host)) return;
    // The request reached the studio's own port, so the Host header carries it.
    const port = /:(\d+)$/.exec(request.headers.host ?? '')?.[1];
    return reply
      .code(421)
      .type('text/plain')
      .send(`This studio answers only on this computer: open http://${LOOPBACK_ADDRESS}${port ? `:${port}` : ''}/ (or localhost).`);
  });
};

// Not encapsulated: the hook runs for every request, before the session is looked up.
export const localOnlyPlugin = fp(localOnly, { name: 'studio-local-only', fastify: '5.x' });
