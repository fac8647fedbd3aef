import type { TestNotificationResult } from '../../console/api-types.ts';
import { recordAudit, type Acting } from '../../back-office/accounts/audit-trail.ts';
import type { AuditWriter } from '../store/audit/audit-store.ts';
import type { Notifier } from './notifier.ts';

// The team's notification settings, as the console changes them: each change writes its audit
// entry here, with the actor the caller names.

/** Switches a form's new-lead e-mail on or off. False: the site has no form of that name (nothing recorded). */
export async function switchFormEmail(
  notifier: Pick<Notifier, 'setFormEmail'>,
  store: AuditWriter,
  acting: Acting,
  form: string,
  on: boolean,
): Promise<boolean> {
  if (!(await notifier.setFormEmail(form, on))) return false;
  await recordAudit(store, acting, { action: 'notifications.form', detail: `${form}: new-lead e-mail ${on ? 'on' : 'off'}` });
  return true;
}

/** Sends a test message to every configured channel and records which went. */
export async function sendTestNotification(
  notifier: Pick<Notifier, 'sendTest'>,
  store: AuditWriter,
  acting: Acting,
): Promise<TestNotificationResult> {
  const result = await notifier.sendTest();
  const summary = result.channels.map(({ channel, ok }) => `${channel} ${ok ? 'sent' : 'failed'}`).join(', ');
  await recordAudit(store, acting, { action: 'notifications.test', detail: summary || 'no channel configured' });
  return result;
}
