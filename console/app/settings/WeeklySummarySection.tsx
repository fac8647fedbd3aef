// The weekly summary by e-mail: each person switches it on or off for themselves. It says when it is
// sent and what it holds, and, while the server cannot send e-mail, that nothing goes out until it
// can; an admin is told what the server needs.
import { useState } from 'react';
import type { WeeklySummaryChoice } from '../../api-types.ts';
import { messageOf } from '../api.ts';
import { ErrorMessage, LoadState, StatusMessage } from '../parts/messages.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';

export function WeeklySummarySection() {
  const { api } = useSession();
  const choice = useLoad(api.weeklySummary, 'weekly-summary');
  return (
    <section className="panel" aria-labelledby="settings-weekly-summary">
      <h2 id="settings-weekly-summary">Weekly summary by e-mail</h2>
      <LoadState loaded={choice} what="your weekly summary setting">
        {(data) => <WeeklySummarySwitch choice={data} onChanged={choice.reload} />}
      </LoadState>
    </section>
  );
}

function WeeklySummarySwitch({ choice, onChanged }: { choice: WeeklySummaryChoice; onChanged: () => void }) {
  const { api, can, info } = useSession();
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');

  async function toggle(enabled: boolean) {
    setSaving(true);
    setError('');
    setStatus('');
    try {
      const saved = await api.setWeeklySummary(enabled);
      setStatus(
        !saved.enabled
          ? 'The weekly summary is off: you will not get it any more.'
          : saved.emailConfigured
            ? `The weekly summary is on: it comes ${saved.schedule}.`
            : 'The weekly summary is on, but nothing is sent until e-mail is set up on the server.',
      );
      onChanged();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <p>
        Sent {choice.schedule}, to {info.email}: the last 7 days against the 7 days before (visitors, leads, leads the CRM took, meetings
        booked), the campaigns and pages that brought them, and how fast leads were called. Only you get yours.
      </p>
      {choice.emailConfigured ? null : (
        <p className="message message-error">
          It cannot be sent until e-mail is set up on the server.{' '}
          {can('accounts:manage')
            ? 'To set it up, give the server the mail server’s address (SMTP_URL) and who receives the team’s notifications (NOTIFY_TO), then restart it.'
            : 'Ask an admin to set it up.'}
        </p>
      )}
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={choice.enabled}
          disabled={saving}
          onChange={(event) => void toggle(event.target.checked)}
        />
        Weekly summary by e-mail
      </label>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
    </>
  );
}
