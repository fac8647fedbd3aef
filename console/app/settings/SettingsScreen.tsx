// Settings: the sales team (everyone's hours and away switch, one's own to change; the assignment
// rules for those who manage the team), one's own weekly summary by e-mail (for those who read the
// visit reports it is made of), where notifications go and which forms e-mail each new lead,
// how long leads are kept, and, for admins, the team's accounts. Settings that reach other people (notifications, accounts)
// change only for those who may manage accounts; everyone else reads them.
import { useState } from 'react';
import type { NotificationSettings, TestNotificationResult } from '../../api-types.ts';
import { RetentionPolicy } from '../health/HealthScreen.tsx';
import { messageOf } from '../api.ts';
import { ErrorMessage, LoadState, StatusMessage } from '../parts/messages.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';
import { AccountsSection } from './AccountsSection.tsx';
import { SalesTeamSection } from './SalesTeamSection.tsx';
import { WeeklySummarySection } from './WeeklySummarySection.tsx';

const CHANNEL_LABELS = { email: 'E-mail', webhook: 'Webhook' } as const;

export function SettingsScreen() {
  const { api, can } = useSession();
  const notifications = useLoad(api.notifications, 'notifications');
  const health = useLoad(api.health, 'health');
  return (
    <>
      <h1>Settings</h1>
      {can('leads:work') || can('sales:manage') ? <SalesTeamSection /> : null}
      {can('analytics:read') ? <WeeklySummarySection /> : null}
      <section className="panel" aria-labelledby="settings-notifications">
        <h2 id="settings-notifications">Notifications</h2>
        <LoadState loaded={notifications} what="the notification settings">
          {(settings) => <Notifications settings={settings} onChanged={notifications.reload} />}
        </LoadState>
      </section>
      <section className="panel" aria-labelledby="settings-retention">
        <h2 id="settings-retention">Retention</h2>
        <LoadState loaded={health} what="the retention policy">
          {(data) => <RetentionPolicy retention={data.retention} />}
        </LoadState>
      </section>
      {can('accounts:manage') ? <AccountsSection /> : null}
    </>
  );
}

/** What a form's switch means today: "on" only when an e-mail would really go. */
function emailSwitchWords(newLeadEmail: boolean, emailConfigured: boolean): string {
  if (!newLeadEmail) return 'off';
  return emailConfigured ? 'on' : 'off until e-mail is configured (switched on)';
}

function Notifications({ settings, onChanged }: { settings: NotificationSettings; onChanged: () => void }) {
  const { api, can } = useSession();
  const mayChange = can('accounts:manage');
  const [saving, setSaving] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestNotificationResult | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');

  async function toggle(form: string, newLeadEmail: boolean) {
    setSaving(form);
    setError('');
    setStatus('');
    try {
      await api.setFormNotification(form, newLeadEmail);
      setStatus(
        `${form}: ${
          !settings.email
            ? `switched ${newLeadEmail ? 'on' : 'off'}; nothing is e-mailed until e-mail is configured`
            : newLeadEmail
              ? 'each new lead is e-mailed'
              : 'new leads are no longer e-mailed'
        }.`,
      );
      onChanged();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(null);
    }
  }

  async function sendTest() {
    setTesting(true);
    setError('');
    setResult(null);
    try {
      setResult(await api.testNotification());
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setTesting(false);
    }
  }

  return (
    <>
      <dl className="facts">
        <div>
          <dt>E-mail</dt>
          <dd>{settings.email ? 'Configured' : 'Not configured (the server needs SMTP_URL and NOTIFY_TO)'}</dd>
        </div>
        <div>
          <dt>Webhook</dt>
          <dd>{settings.webhook ? 'Configured' : 'Not configured (the server needs ALERT_WEBHOOK_URL)'}</dd>
        </div>
        <div>
          <dt>Alert when leads are not delivered for</dt>
          <dd>{settings.alertAfterMinutes} minutes</dd>
        </div>
      </dl>

      <h3>E-mail each new lead</h3>
      {settings.email ? null : (
        <p>No new lead is e-mailed while e-mail is not configured. The switches below are kept, and take effect once it is.</p>
      )}
      <ul className="plain-list switches">
        {settings.forms.map(({ form, newLeadEmail }) => (
          <li key={form}>
            {mayChange ? (
              <label className="switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={newLeadEmail}
                  disabled={saving !== null}
                  onChange={(event) => void toggle(form, event.target.checked)}
                />
                {form}
                {settings.email ? '' : ' (not sent: e-mail is not configured)'}
              </label>
            ) : (
              <span>
                {form}: {emailSwitchWords(newLeadEmail, settings.email)}
              </span>
            )}
          </li>
        ))}
      </ul>
      {mayChange ? (
        <p>
          <button type="button" className="button" disabled={testing} onClick={() => void sendTest()}>
            {testing ? 'Sending a test notification…' : 'Send a test notification'}
          </button>
        </p>
      ) : null}
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      {result ? (
        <ul className="plain-list" aria-label="Test notification results">
          {result.channels.length === 0 ? <li>No channel is configured, so nothing was sent.</li> : null}
          {result.channels.map((channel) => (
            <li key={channel.channel}>
              {CHANNEL_LABELS[channel.channel]}: {channel.ok ? 'sent' : `failed${channel.error ? ` (${channel.error})` : ''}`}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
