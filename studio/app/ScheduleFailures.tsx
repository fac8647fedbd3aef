// A scheduled publish of this person's that failed while they were away (a conflict, a content
// mistake, a failed build): shown when they open the studio, with the reason, until they dismiss it.
import { css } from '@emotion/react';
import { useCallback, useEffect, useState } from 'react';
import { api, type ScheduledView } from './api.ts';
import { ui } from './ui.ts';

export function ScheduleFailures({ user }: { user: string }) {
  const [failed, setFailed] = useState<ScheduledView[]>([]);
  const load = useCallback(async () => {
    const answer = await api.schedule().catch(() => null);
    setFailed(answer?.scheduled.filter((entry) => entry.status === 'failed' && !entry.seen && entry.scheduledBy === user) ?? []);
  }, [user]);
  useEffect(() => {
    void load();
  }, [load]);

  if (failed.length === 0) return null;
  return (
    <div role="alert" css={ui.errorBanner}>
      {failed.map((entry) => (
        <div key={entry.id} css={css({ marginBottom: 8 })}>
          <p css={css({ margin: '0 0 4px' })}>
            <strong>Your scheduled publish did not happen:</strong> {entry.files.map((file) => file.title).join(', ')} — {entry.when}. The
            live site is unchanged and your drafts are kept.
          </p>
          <p css={css({ margin: '0 0 4px', whiteSpace: 'pre-wrap' })}>{entry.message}</p>
          <button
            type="button"
            css={ui.secondaryButton}
            onClick={() => void api.dismissScheduled(entry.id).then(load, load)}
            aria-label={`Dismiss the message about ${entry.files.map((file) => file.title).join(', ')}`}
          >
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
