// GET /notifications: which channels are set up and each form's new-lead e-mail switch (anyone who
// reads leads may see them); PUT /notifications/forms switches a form's e-mail on or off, and POST
// /notifications/test sends a test message to every channel now and says whether each went. The
// last two are for admins, who manage the team's settings.
import { z } from 'zod';
import type { NotificationSettings, TestNotificationResult } from '../../../console/api-types.ts';
import { ConsoleProblem } from '../api-errors.ts';
import { actingOf, type ConsoleContext } from '../context.ts';
import { consoleText, type ConsoleRoutes } from '../request-checks.ts';
import type { Notifier } from '../../notify/notifier.ts';
import { sendTestNotification, switchFormEmail } from '../../notify/operations.ts';

const formSwitch = z.strictObject({ form: consoleText(100).min(1), newLeadEmail: z.boolean() });

export const notificationRoutes: ConsoleRoutes<{ context: ConsoleContext; notifier: Notifier }> = async (app, { context, notifier }) => {
  app.get('/notifications', { config: { right: 'leads:read' } }, async (): Promise<NotificationSettings> => notifier.settings());

  app.put(
    '/notifications/forms',
    { config: { right: 'accounts:manage' }, schema: { body: formSwitch } },
    async (request): Promise<NotificationSettings> => {
      const { form, newLeadEmail } = request.body;
      if (!(await switchFormEmail(notifier, context.store, actingOf(request, context), form, newLeadEmail))) {
        throw new ConsoleProblem(400, 'validation', `There is no form called "${form}".`, { form: 'Choose one of the site’s forms.' });
      }
      return notifier.settings();
    },
  );

  app.post(
    '/notifications/test',
    { config: { right: 'accounts:manage' }, schema: { body: z.strictObject({}) } },
    async (request): Promise<TestNotificationResult> => sendTestNotification(notifier, context.store, actingOf(request, context)),
  );
};
