// One lead: first its sales side (SalesPanel: clock, call and e-mail, owner, status, notes,
// timeline), then every field as the visitor sent it, shown as plain text (React escapes it; nothing here
// renders HTML or markdown, because these values come from strangers), where it came from, why it
// was judged spam, and each attempt to deliver it to the CRM (headed "CRM delivery", so nobody reads a lead the CRM has as a sale), with the actions the role allows and its status
// allows: "Retry now" for a lead the CRM does not have, "Send again" (saying the CRM gets a second
// copy) for one it has, and "Not spam" for spam.
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { RETRYABLE_STATUSES, type DeliveryAttempt, type LeadWithSales } from '../../api-types.ts';
import { messageOf } from '../api.ts';
import { describeRetried } from '../inbox/retry-words.ts';
import { fieldLabel, trackingLabel } from './field-labels.ts';
import { SalesPanel } from './SalesPanel.tsx';
import { attemptStatusOf, formatTime, plural, StatusBadge, STATUS_LABELS, STATUS_MEANINGS, VisitorText } from '../parts/format.tsx';
import { CallbackBadge } from '../parts/CallbackBadge.tsx';
import { ErrorMessage, LoadState, StatusMessage } from '../parts/messages.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';

export function LeadScreen() {
  const { id = '' } = useParams();
  const { api } = useSession();
  const lead = useLoad(() => api.lead(id), id);
  return (
    <>
      <p>
        <Link to="/leads">Back to the inbox</Link>
      </p>
      <LoadState loaded={lead} what="the lead">
        {(data) => <LeadView lead={data} onChanged={lead.reload} />}
      </LoadState>
    </>
  );
}

function LeadView({ lead, onChanged }: { lead: LeadWithSales; onChanged: () => void }) {
  const { api, can } = useSession();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');

  async function act(action: () => Promise<string>) {
    setBusy(true);
    setStatus('');
    setError('');
    try {
      setStatus(await action());
      onChanged();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const isSpam = lead.status === 'spam';
  const mayRetry = RETRYABLE_STATUSES.includes(lead.status);
  // The CRM already has a delivered lead: it can be neither retried nor taken back as spam.
  const delivered = lead.status === 'delivered' || lead.status === 'delivered-test';
  const attemptsMade = lead.attemptsLog.length;
  const { attribution } = lead;
  const attributionRows: [string, string | null][] = [
    ['Campaign (utm_campaign)', attribution.campaign],
    ['Source (utm_source)', attribution.source],
    ['Medium (utm_medium)', attribution.medium],
    ['Referrer', attribution.referrer],
    ['Landing page', attribution.landingPage],
    ...attribution.other.map(([key, value]): [string, string] => [trackingLabel(key), value]),
  ];

  return (
    <>
      <h1>
        <VisitorText>{lead.name || lead.email}</VisitorText> <StatusBadge status={lead.status} />
        {lead.callbackRequested ? (
          <>
            {' '}
            <CallbackBadge requested />
          </>
        ) : null}
      </h1>
      <p>
        {lead.form}, received {formatTime(lead.receivedAt)}. {STATUS_MEANINGS[lead.status]}
      </p>

      <SalesPanel lead={lead} onChanged={onChanged} />

      <div className="toolbar" role="group" aria-label="CRM delivery and spam">
        {can('leads:retry') && mayRetry ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void act(async () => describeRetried(await api.retry({ ids: [lead.id] })))}
          >
            Retry now
          </button>
        ) : null}
        {can('leads:retry') && delivered ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() =>
              void act(async () => {
                await api.sendAgain(lead.id);
                return 'The lead will be sent to the CRM again: the CRM gets a second copy.';
              })
            }
          >
            {lead.status === 'delivered-test'
              ? 'Send again: the CRM took this lead only as a test; its live workflow will get a copy'
              : 'Send again: the CRM already has this lead; it will get a second copy'}
          </button>
        ) : null}
        {can('leads:mark-spam') && !delivered ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() =>
              void act(async () => {
                const { state } = await api.markSpam(lead.id, !isSpam);
                return isSpam
                  ? `Marked not spam: it will be sent to the CRM. CRM delivery: ${STATUS_LABELS[state === 'pending' ? 'waiting' : state]}.`
                  : 'Marked as spam: it will not be sent to the CRM.';
              })
            }
          >
            {isSpam ? 'Not spam' : 'Mark as spam'}
          </button>
        ) : null}
      </div>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>

      <section className="panel" aria-labelledby="lead-fields">
        <h2 id="lead-fields">What they sent</h2>
        <dl className="fields">
          {lead.fields.map(([name, value], index) => (
            <div key={`${name}-${index}`}>
              <dt>{fieldLabel(lead.form, name)}</dt>
              <dd className="field-value">{name === 'submitted_at' ? formatTime(value) : <VisitorText>{value}</VisitorText>}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="panel" aria-labelledby="lead-attribution">
        <h2 id="lead-attribution">Where it came from</h2>
        <dl className="fields">
          {attributionRows.map(([name, value], index) => (
            <div key={`${name}-${index}`}>
              <dt>{name}</dt>
              <dd className="field-value">{value === null || value === undefined ? 'Not recorded' : <VisitorText>{value}</VisitorText>}</dd>
            </div>
          ))}
        </dl>
      </section>

      {lead.spamSignals.length > 0 ? (
        <section className="panel" aria-labelledby="lead-spam">
          <h2 id="lead-spam">Why it was judged spam</h2>
          <ul>
            {lead.spamSignals.map((signal, index) => (
              <li key={index}>{signal}</li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="panel" aria-labelledby="lead-delivery">
        <h2 id="lead-delivery">CRM delivery</h2>
        <p>
          {plural(attemptsMade, 'attempt', 'attempts')}
          {attemptsMade > lead.attempts ? ` (${lead.attempts} since it was last retried)` : ''}
          {lead.nextAttemptAt ? `; next attempt due ${formatTime(lead.nextAttemptAt)}` : ''}.
        </p>
        {lead.attemptsLog.length === 0 ? (
          <p>No attempt yet.</p>
        ) : (
          <ol className="timeline">
            {lead.attemptsLog.map((attempt, index) => (
              <AttemptItem key={index} attempt={attempt} />
            ))}
          </ol>
        )}
      </section>
    </>
  );
}

function AttemptItem({ attempt }: { attempt: DeliveryAttempt }) {
  return (
    <li className="timeline-item">
      <p>
        <strong>{formatTime(attempt.at)}</strong>: <StatusBadge status={attemptStatusOf(attempt.outcome)} />{' '}
        {attempt.status === null ? 'no answer (timeout or network error)' : `HTTP ${attempt.status}`}, {attempt.durationMs} ms
      </p>
      {attempt.error ? <p>Error: {attempt.error}</p> : null}
      {attempt.answerStart ? (
        <>
          <p className="timeline-label">Start of the CRM's answer:</p>
          <pre className="answer">{attempt.answerStart}</pre>
        </>
      ) : null}
    </li>
  );
}
