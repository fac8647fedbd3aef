// The recent publishes and undos: when, which files, by whom, and the commit.
import { css } from '@emotion/react';
import type { PublishRecord } from '../api.ts';

export function PublishHistory({ history }: { history: PublishRecord[] }) {
  if (history.length === 0) return null;
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title" css={css({ fontSize: 17 })}>
        Recent publishes
      </h2>
      <ul>
        {history.map((record) => (
          <li key={record.id}>
            {new Date(record.at).toLocaleString()}: {record.action === 'undo' ? 'undo of ' : ''}
            {record.files.map((file) => file.title).join(', ')} by {record.user}
            {record.commit ? ` (commit ${record.commit.slice(0, 7)})` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
