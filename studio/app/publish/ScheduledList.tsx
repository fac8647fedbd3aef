// The scheduled publishes that failed lately, each with when it was set for, who set it, and why
// nothing was published. Those still waiting are shown with the changes they carry (ScheduledChanges).
import { css } from '@emotion/react';
import { personName } from '../../person-name.ts';
import type { ScheduledView } from '../api.ts';
import { listWords } from '../../../back-office/list-words.ts';

export function ScheduledList({ scheduled }: { scheduled: ScheduledView[] }) {
  const failed = scheduled.filter((entry) => entry.status === 'failed').slice(0, 5);
  if (failed.length === 0) return null;
  return (
    <section aria-labelledby="scheduled-failed-title">
      <h2 id="scheduled-failed-title" css={css({ fontSize: 17 })}>
        Scheduled publishes that failed
      </h2>
      <ul>
        {failed.map((entry) => (
          <li key={entry.id}>
            {listWords(entry.files.map((file) => file.title))} — {entry.when}, scheduled by {personName(entry.scheduledBy)}: nothing was
            published.
            <span css={css({ display: 'block', whiteSpace: 'pre-wrap' })}>{entry.message}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
