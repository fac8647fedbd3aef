// GET /me/weekly-summary and PUT /me/weekly-summary { enabled }: the signed-in person's own choice of
// the weekly summary by e-mail (opt-in), whether e-mail is set up, and when it is sent. Any signed-in
// person reads their own; switching it on needs a role that reads the visit reports, since the
// summary is made of them. Each change is audited.
import { z } from 'zod';
import type { WeeklySummaryChoice } from '../../../console/api-types.ts';
import { can } from '../../../back-office/roles.ts';
import { writeWithAudit } from '../../../back-office/accounts/audit-trail.ts';
import { ACCESS_MESSAGES } from '../access.ts';
import { ConsoleProblem } from '../api-errors.ts';
import { actingOf, sessionOfRequest, type ConsoleContext } from '../context.ts';
import type { ConsoleRoutes } from '../request-checks.ts';
import type { Notifier } from '../../notify/notifier.ts';
import { weeklySummarySchedule } from '../../notify/weekly-summary.ts';

const choiceBody = z.strictObject({ enabled: z.boolean() });

export const WEEKLY_SUMMARY_MESSAGES = {
  notForRole: 'The weekly summary is made of the visit and lead reports, which your role does not show. Ask an admin if you need them.',
} as const;

export const weeklySummaryRoutes: ConsoleRoutes<{ context: ConsoleContext; notifier: Pick<Notifier, 'emailConfigured'> }> = async (
  app,
  { context, notifier },
) => {
  async function choiceOf(accountId: string): Promise<WeeklySummaryChoice> {
    return {
      enabled: await context.store.weeklySummaryChoice(accountId),
      emailConfigured: notifier.emailConfigured,
      schedule: weeklySummarySchedule(context.siteHours().timeZone),
    };
  }

  app.get('/me/weekly-summary', { config: { right: 'signed-in' } }, async (request): Promise<WeeklySummaryChoice> =>
    choiceOf(sessionOfRequest(request).record.account.id),
  );

  app.put(
    '/me/weekly-summary',
    { config: { right: 'signed-in' }, schema: { body: choiceBody } },
    async (request): Promise<WeeklySummaryChoice> => {
      const { account } = sessionOfRequest(request).record;
      const { enabled } = request.body;
      // Switching it off is always allowed, so a person whose role changed can still stop it.
      if (enabled && !can(account.role, 'analytics:read')) throw new ConsoleProblem(403, 'forbidden', WEEKLY_SUMMARY_MESSAGES.notForRole);
      const acting = actingOf(request, context);
      const result = await writeWithAudit(context.store, 'setWeeklySummaryChoice', [account.id, enabled, acting.at], acting, {
        action: 'account.weekly-summary',
        detail: `weekly summary by e-mail ${enabled ? 'on' : 'off'}`,
      });
      if (result === 'no-account') throw new ConsoleProblem(401, 'signed-out', ACCESS_MESSAGES.signedOut);
      return choiceOf(account.id);
    },
  );
};
