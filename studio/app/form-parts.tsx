// Pieces the studio's small forms (sign-in, new page, change address) share: the message under the
// fields, tied to them by its id, and the submit and cancel buttons.
import { css } from '@emotion/react';
import { ui } from './ui.ts';

/** The form's error, announced when it appears; the fields point at it with aria-describedby={id}. */
export function FormError({ id, error }: { id: string; error: string }) {
  if (!error) return null;
  return (
    <p id={id} role="alert" css={ui.error}>
      {error}
    </p>
  );
}

export function SubmitOrCancel({ submit, onCancel }: { submit: string; onCancel: () => void }) {
  return (
    <div css={css({ display: 'flex', gap: 8, marginBottom: 8 })}>
      <button type="submit" css={ui.button}>
        {submit}
      </button>
      <button type="button" css={ui.secondaryButton} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
