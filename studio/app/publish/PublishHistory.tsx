// The recent publishes and undos: when, which files, by whom, the commit, and (with a git remote or a
// live site to watch) whether it was pushed and when it went live.
import { css } from '@emotion/react';
import type { PublishRecord } from '../api.ts';
import { deliveryText } from './DeliveryStatus.tsx';
import { localTime } from '../local-time.ts';

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
            {localTime(record.at)}: {record.action === 'undo' ? 'undo of ' : ''}
            {record.files.map((file) => file.title).join(', ')} by {record.user}
            {record.commit ? ` (commit ${record.commit.slice(0, 7)})` : ''}
            {deliveryText(record) ? `: ${deliveryText(record)}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
