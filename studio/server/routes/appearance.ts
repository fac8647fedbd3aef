// /api/appearance: how the page or article being edited appears in a search result and as a shared
// link; /api/appearance/card: the social card the build would draw for it, as a PNG. Both read the
// text being edited (the draft, or the file), so they follow every saved change.
import { z } from 'zod';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import { CardsBusyError, type createAppearance } from '../appearance.ts';
import { contentPath } from '../request-shapes.ts';

export type AppearanceRoutesOptions = { appearance: ReturnType<typeof createAppearance> };

const appearanceQuery = z.object({ path: contentPath });
// The card's query may carry a revision so the browser asks again after a save; the server ignores it.
const cardQuery = z.object({
  path: contentPath,
  revision: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
});

export const appearanceRoutes: StudioRoutes<AppearanceRoutesOptions> = async (app, { appearance }) => {
  app.get('/appearance', { config: { right: 'studio:edit' }, schema: { querystring: appearanceQuery } }, async (request) =>
    appearance.describe(request.query.path),
  );

  app.get('/appearance/card', { config: { right: 'studio:edit' }, schema: { querystring: cardQuery } }, async (request, reply) => {
    let png: Buffer;
    try {
      png = await appearance.card(request.query.path);
    } catch (error) {
      if (error instanceof CardsBusyError) return reply.code(503).header('retry-after', '2').send({ message: error.message });
      throw error;
    }
    return reply.header('content-type', 'image/png').header('cache-control', 'no-store').send(png);
  });
};
