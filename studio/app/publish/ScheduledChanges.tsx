// The changes already set to go live at a time, on the publish screen: which pages, when (in the
// team's time zone, as every schedule is worded), who scheduled them, and Cancel for whoever may
// (who scheduled it, or an admin). They are not in the list above and cannot be published again
// from here: the scheduled publish carries them, as they were when it was scheduled. Once cancelled,
// the pages are offered for publishing again.
import { css } from '@emotion/react';
import { useState } from 'react';
import { personName } from '../../person-name.ts';
import { api, ApiError, type ScheduledChange } from '../api.ts';
import { ui } from '../ui.ts';
import { listWords } from '../../../back-office/list-words.ts';

export function ScheduledChanges({ scheduled, onChanged }: { scheduled: readonly ScheduledChange[]; onChanged: () => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (scheduled.length === 0) return null;
  // One line for each scheduled publish, with the pages it carries.
  const publishes = new Map<string, ScheduledChange[]>();
  for (const change of scheduled) publishes.set(change.scheduleId, [...(publishes.get(change.scheduleId) ?? []), change]);

  const cancel = async (scheduleId: string) => {
    setError('');
    setBusy(true);
    try {
      await api.cancelScheduled(scheduleId);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The scheduled publish could not be cancelled. Try again.');
    } finally {
      setBusy(false);
    }
    onChanged();
  };

  return (
    <section aria-labelledby="scheduled-changes-title" css={[ui.banner, css({ margin: '0 0 16px' })]}>
      <h2 id="scheduled-changes-title" css={css({ fontSize: 17, margin: '0 0 4px' })}>
        Scheduled to go live
      </h2>
      <p css={css({ margin: '0 0 4px' })}>
        {scheduled.length === 1 ? 'This page goes' : 'These pages go'} live at the time set, as{' '}
        {scheduled.length === 1 ? 'it was' : 'they were'} when scheduled, so {scheduled.length === 1 ? 'it is' : 'they are'} not published
        again from here. Cancel to publish now or at another time.
      </p>
      {error && (
        <p role="alert" css={ui.errorBanner}>
          {error}
        </p>
      )}
      <ul css={css({ margin: 0, paddingLeft: 20 })}>
        {[...publishes.values()].map((changes) => {
          const first = changes[0]!;
          const pages = listWords(changes.map((change) => change.title));
          return (
            <li key={first.scheduleId} css={css({ marginBottom: 4 })}>
              <strong>{pages}</strong>: {first.when}, scheduled by {personName(first.scheduledBy)}
              {first.mayCancel && (
                <>
                  {' '}
                  <button
                    type="button"
                    css={ui.linkButton}
                    disabled={busy}
                    aria-label={`Cancel the scheduled publish of ${pages} at ${first.when}`}
                    onClick={() => void cancel(first.scheduleId)}
                  >
                    Cancel
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
