// The audit log, newest first, for admins: who did what to which lead, page by page, each action in
// words (an action this screen does not know yet shows as recorded). Who is a console account's
// address, "command line (<system user>)" for `npm run leads` and `npm run users`, or "system".
import type { AuditEntry } from '../../api-types.ts';
import { FORBIDDEN_MESSAGE } from '../api.ts';
import { formatTime } from '../parts/format.tsx';
import { ErrorMessage } from '../parts/messages.tsx';
import { usePages } from '../parts/use-pages.ts';
import { useSession } from '../session.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';

const ACTION_WORDS: Readonly<Record<string, string>> = {
  'lead.retry': 'Retried leads',
  'lead.send-again': 'Sent a delivered lead again',
  'lead.spam': 'Marked as spam',
  'lead.not-spam': 'Marked not spam',
  'leads.erase': 'Erased leads',
  'leads.export': 'Exported leads',
  'retention.purge': 'Erased by the retention policy',
  'account.add': 'Added an account',
  'account.remove': 'Removed an account',
  'account.role': 'Changed a role',
  'account.password': 'Set a new password',
  'notifications.form': 'Changed new-lead e-mail',
  'notifications.test': 'Sent a test notification',
  'account.weekly-summary': 'Switched own weekly summary',
};

function actionWords(action: string): string {
  return Object.hasOwn(ACTION_WORDS, action) ? ACTION_WORDS[action]! : action;
}

export function AuditScreen() {
  const { api, can } = useSession();
  const allowed = can('accounts:manage');
  const log = usePages<AuditEntry>(async (after) => {
    if (!allowed) throw new Error(FORBIDDEN_MESSAGE);
    const page = await api.audit(after);
    return { items: page.entries, next: page.next };
  }, 'audit');

  if (!allowed)
    return (
      <>
        <h1>Audit log</h1>
        <ErrorMessage>{FORBIDDEN_MESSAGE}</ErrorMessage>
      </>
    );
  return (
    <>
      <h1>Audit log</h1>
      {log.status === 'loading' ? <p role="status">Loading the audit log…</p> : null}
      {log.status === 'ready' && log.items.length === 0 ? <p className="empty">Nothing has been recorded yet.</p> : null}
      {log.items.length > 0 ? (
        <ScrollingTable caption="Audit log, newest first">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {log.items.map((entry, index) => (
              <tr key={index}>
                <td>{formatTime(entry.at)}</td>
                <td>{entry.actor}</td>
                <td>{actionWords(entry.action)}</td>
                <td className="field-value">{entry.detail}</td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      ) : null}
      <ErrorMessage>{log.error}</ErrorMessage>
      {log.status === 'ready' && log.next ? (
        <button type="button" className="button" disabled={log.loadingOlder} onClick={() => void log.loadOlder()}>
          {log.loadingOlder ? 'Loading older entries…' : 'Older entries'}
        </button>
      ) : null}
    </>
  );
}
