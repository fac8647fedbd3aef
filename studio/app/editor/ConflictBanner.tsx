// A save the server refused: the file changed on disk, or another tab (or person) saved a newer
// draft. The person reloads the other version, or keeps theirs as a copy (or, for a file the site
// has only one of, on top of the new one). When the server knows both versions, they are shown side
// by side as one diff first.
import { css } from '@emotion/react';
import { useState } from 'react';
import { api, ApiError, type Changes, type OpenedFile } from '../api.ts';
import { Diff } from '../publish/Diff.tsx';
import { ui } from '../ui.ts';

export function ConflictBanner({
  file,
  data,
  seenRevision,
  reason,
  message,
  hunks,
  onResolved,
}: {
  file: OpenedFile;
  data: unknown;
  seenRevision: number;
  reason: string;
  message: string;
  /** The new version compared with the person's: removed lines are only in the new one, added only in theirs. */
  hunks?: Changes['files'][number]['hunks'];
  onResolved: (path: string) => void;
}) {
  const [error, setError] = useState('');
  const single = file.kind === 'site' || file.kind === 'roi';
  return (
    <>
      <div role="alert" css={ui.banner}>
        <p>
          <strong>{message}</strong>{' '}
          {reason === 'disk-changed' ? 'Your edits were not saved over it.' : 'Your latest edits were not saved over theirs.'}
        </p>
        <div css={css({ display: 'flex', gap: 8, flexWrap: 'wrap' })}>
          <button
            type="button"
            css={ui.secondaryButton}
            onClick={async () => {
              if (reason === 'disk-changed') await api.discard(file.path, seenRevision).catch(() => undefined);
              onResolved(file.path);
            }}
          >
            {reason === 'disk-changed' ? 'Reload the new version (drop my edits)' : 'Reload the newer draft'}
          </button>
          {/* One file for the whole site cannot be copied: another tab's newer draft is reloaded, never replaced. */}
          {!(single && reason === 'draft-changed') && (
            <button
              type="button"
              css={ui.secondaryButton}
              onClick={async () => {
                try {
                  const kept = await api.keepBoth(file.path, data, seenRevision);
                  onResolved(kept.path);
                } catch (failure) {
                  setError(failure instanceof ApiError ? failure.message : 'That did not work.');
                }
              }}
            >
              {single ? 'Keep my version on top of the new one' : 'Keep both (my version becomes a copy)'}
            </button>
          )}
        </div>
        {error && <p css={ui.error}>{error}</p>}
      </div>
      {/* Outside the alert, so a screen reader announces the choice, not every line of both versions. */}
      {hunks && (
        <section aria-label="Both versions" css={css({ margin: '0 0 12px' })}>
          <p css={css({ margin: '0 0 4px' })}>Lines marked − are only in the new version; lines marked + are only in yours.</p>
          <Diff hunks={hunks} labels={{ removed: 'Only in the new version: ', added: 'Only in yours: ' }} />
        </section>
      )}
    </>
  );
}
