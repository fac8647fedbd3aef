// GET /audit?after=&limit=: who did what in the console, newest first; for admins, who alone manage
// the accounts whose actions it lists.
import { z } from 'zod';
import type { AuditPage } from '../../../console/api-types.ts';
import type { ConsoleContext } from '../context.ts';
import { auditCursorSchema, encodeCursor } from '../lead-view.ts';
import type { ConsoleRoutes } from '../request-checks.ts';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

const auditQuery = z.strictObject({
  after: auditCursorSchema.optional(),
  limit: z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : Number(value)),
    z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  ),
});

export const auditRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  app.get('/audit', { config: { right: 'accounts:manage' }, schema: { querystring: auditQuery } }, async (request): Promise<AuditPage> => {
    const { after, limit } = request.query;
    const position = after === undefined ? undefined : { at: after.at, id: after.id };
    const page = await context.store.listAudit(position, limit ?? DEFAULT_PAGE_SIZE);
    return {
      entries: page.entries.map(({ at, actor, action, detail }) => ({ at: new Date(at).toISOString(), actor, action, detail })),
      next: page.next === undefined ? null : encodeCursor(page.next.at, page.next.id),
    };
  });
};
