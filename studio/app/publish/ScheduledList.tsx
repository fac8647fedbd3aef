// The publishes waiting for their time ("Scheduled: Home, Pricing — Tue 1 Dec, 09:00 (Europe/Berlin)
// by maria@…"), each with Cancel for who scheduled it or an admin, and the ones that ran lately,
// a failure with its reason.
import { css } from '@emotion/react';
import { useState } from 'react';
import { api, ApiError, type ScheduledView } from '../api.ts';
import { ui } from '../ui.ts';

export function ScheduledList({ scheduled, onChanged }: { scheduled: ScheduledView[]; onChanged: () => void }) {
  const [error, setError] = useState('');
  if (scheduled.length === 0) return null;
  const waiting = scheduled.filter((entry) => entry.status === 'waiting');
  const failed = scheduled.filter((entry) => entry.status === 'failed').slice(0, 5);

  const cancel = async (entry: ScheduledView) => {
    setError('');
    try {
      await api.cancelScheduled(entry.id);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The publish could not be cancelled. Try again.');
    }
    onChanged();
  };

  return (
    <section aria-labelledby="scheduled-title">
      <h2 id="scheduled-title" css={css({ fontSize: 17 })}>
        Scheduled publishes
      </h2>
      {error && (
        <p role="alert" css={ui.errorBanner}>
          {error}
        </p>
      )}
      {waiting.length === 0 && <p>Nothing is waiting to be published.</p>}
      <ul>
        {waiting.map((entry) => (
          <li key={entry.id} css={css({ marginBottom: 6 })}>
            Scheduled: {entry.files.map((file) => file.title).join(', ')} — {entry.when} by {entry.scheduledBy}
            {entry.reviewId ? ' (an approved review request)' : ''}{' '}
            {entry.mayCancel && (
              <button
                type="button"
                css={ui.linkButton}
                aria-label={`Cancel the publish of ${entry.files.map((file) => file.title).join(', ')} at ${entry.when}`}
                onClick={() => void cancel(entry)}
              >
                Cancel
              </button>
            )}
          </li>
        ))}
      </ul>
      {failed.length > 0 && (
        <>
          <h3 css={css({ fontSize: 15 })}>Scheduled publishes that failed</h3>
          <ul>
            {failed.map((entry) => (
              <li key={entry.id}>
                {entry.files.map((file) => file.title).join(', ')} — {entry.when} by {entry.scheduledBy}: nothing was published.
                <span css={css({ display: 'block', whiteSpace: 'pre-wrap' })}>{entry.message}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
