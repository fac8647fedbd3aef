// The line under the file's title that says where the draft is: not changed, being edited, being
// saved, saved; a save that failed is an alert that says the changes are still in the tab.
import { css } from '@emotion/react';
import { color, ui } from '../ui.ts';
import type { SaveStatus } from './autosave.ts';

export function SaveStatusMessage({ save }: { save: SaveStatus }) {
  const text = {
    clean: 'No unpublished changes',
    saved: 'Draft saved',
    saving: 'Saving draft…',
    unsaved: 'Editing…',
    failed: '',
    conflict: '',
  }[save.kind];
  if (save.kind === 'failed') {
    return (
      <p role="alert" css={ui.errorBanner}>
        {save.message} Your changes are still in this tab; they are saved again with your next edit.
      </p>
    );
  }
  return (
    <p role="status" css={css({ margin: '0 0 10px', color: color.mutedText, fontSize: 14 })}>
      {text}
    </p>
  );
}
