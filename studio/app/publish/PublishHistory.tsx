// The recent publishes and undos: when (in the team's time zone), which pages, by whom, how far each
// got beyond the studio (sent to the team's copy of the site, live since when), and each published
// page on the live site.
import { css } from '@emotion/react';
import { personName } from '../../person-name.ts';
import type { PublishRecord } from '../api.ts';
import { localTime } from '../local-time.ts';
import { deliveryText, LiveLinks } from './DeliveryStatus.tsx';
import { listWords } from '../../../back-office/list-words.ts';

const DONE_WORDS: Record<PublishRecord['action'], string> = {
  publish: 'published',
  undo: 'put back as before (an undo)',
  restore: 'restored to an earlier version',
};

export function PublishHistory({ history }: { history: PublishRecord[] }) {
  if (history.length === 0) return null;
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title" css={css({ fontSize: 17 })}>
        Recent publishes
      </h2>
      <ul>
        {history.map((record) => (
          <li key={record.id} css={css({ marginBottom: 6 })}>
            {localTime(record.at)}: {listWords(record.files.map((file) => file.title))} {DONE_WORDS[record.action]} by{' '}
            {personName(record.user)}
            {deliveryText(record) ? `. ${deliveryText(record)}` : ''}
            <LiveLinks record={record} />
          </li>
        ))}
      </ul>
    </section>
  );
}
