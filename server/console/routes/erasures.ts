// Erasing a person's leads: GET /erasures?email= says how many leads an erasure would remove, and
// POST /erasures { email, count } erases them only while that count still holds, so what is erased
// is what the admin was shown (a lead that arrived in between makes it a 409, and nothing is erased).
// The audit entry (leads/operations.ts) gives the count, never the address: the log must not keep
// what was erased.
import { z } from 'zod';
import type { ErasurePreview, ErasureResult } from '../../../console/api-types.ts';
import { isEmailAddress, MAX_EMAIL_LENGTH, normalizeEmail } from '../../../back-office/accounts/email.ts';
import { conflict } from '../api-errors.ts';
import { eraseLeadsByEmail } from '../../leads/operations.ts';
import { actingOf, type ConsoleContext } from '../context.ts';
import { consoleText, type ConsoleRoutes } from '../request-checks.ts';

const email = consoleText(MAX_EMAIL_LENGTH)
  .transform(normalizeEmail)
  .refine(isEmailAddress, 'Must be an e-mail address, such as ana@example.com.');

export const erasureRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  const { store } = context;

  app.get(
    '/erasures',
    { config: { right: 'leads:erase' }, schema: { querystring: z.strictObject({ email }) } },
    async (request): Promise<ErasurePreview> => ({ count: await store.countLeadsByEmail(request.query.email) }),
  );

  app.post(
    '/erasures',
    {
      config: { right: 'leads:erase' },
      schema: { body: z.strictObject({ email, count: z.number().int().min(0) }) },
    },
    async (request): Promise<ErasureResult> => {
      const { email: address, count } = request.body;
      const now = await store.countLeadsByEmail(address);
      if (now !== count) {
        throw conflict(`This address now has ${now} lead(s), not ${count}: look at the count again before erasing. Nothing was erased.`);
      }
      const erased = await eraseLeadsByEmail(store, actingOf(request, context), address);
      return { erased: erased.length };
    },
  );
};
