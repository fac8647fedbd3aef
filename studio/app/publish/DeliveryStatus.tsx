// Where a publish has got to beyond the studio, in plain words: sent to the team's copy of the site
// or why not yet, and whether the live site shows it ("Live since 10:42"); read out when it changes.
// Beside it, "View on the live site": each published page at its address there.
import { css } from '@emotion/react';
import type { PublishRecord } from '../api.ts';
import { ui } from '../ui.ts';

export function DeliveryStatus({ record }: { record: PublishRecord }) {
  const { remote, live } = record.status ?? {};
  if (!remote && !live) return null;
  const failed = remote?.pushed === false || live?.state === 'late';
  return (
    <div role="status" aria-label="The live site" css={[failed ? ui.banner : ui.okBanner, css({ marginTop: 8 })]}>
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

/**
 * "View on the live site" for each page the publish made live, at its address there (it opens in a
 * new tab, and says so). One page: the link alone; several: each named.
 */
export function LiveLinks({ record }: { record: PublishRecord }) {
  const links = record.status?.liveLinks ?? [];
  if (links.length === 0) return null;
  const single = links.length === 1;
  return (
    <ul
      aria-label="The published pages on the live site"
      css={css({ listStyle: 'none', margin: '8px 0 0', padding: 0, display: 'flex', gap: 16, flexWrap: 'wrap' })}
    >
      {links.map((link) => (
        <li key={link.url}>
          <a
            href={link.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${single ? `View on the live site: ${link.name}` : `View ${link.name} on the live site`} (opens in a new tab)`}
          >
            {single ? 'View on the live site' : `View ${link.name} on the live site`}
          </a>
        </li>
      ))}
    </ul>
  );
}
