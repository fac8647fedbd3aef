// Where a publish has got to beyond this checkout, in plain words: pushed to the git remote or why
// not yet, and whether the live site serves it. Read out when it changes.
import { css } from '@emotion/react';
import type { PublishRecord } from '../api.ts';
import { ui } from '../ui.ts';

export function DeliveryStatus({ record }: { record: PublishRecord }) {
  const { remote, live } = record.status ?? {};
  if (!remote && !live) return null;
  const failed = remote?.pushed === false || live?.state === 'late';
  return (
    <div role="status" aria-label="Remote and live site" css={[failed ? ui.banner : ui.okBanner, css({ marginTop: 8 })]}>
      {remote && <p css={css({ margin: 0 })}>{remote.text}</p>}
      {live && <p css={css({ margin: remote ? '4px 0 0' : 0 })}>{live.text}</p>}
    </div>
  );
}

/** The same, as one line of the publish history. */
export function deliveryText(record: PublishRecord): string {
  const { remote, live } = record.status ?? {};
  return [remote?.text, live?.text].filter(Boolean).join('. ');
}
