// "Call me back now" under a lead form: a real tick box, unticked until the visitor ticks it, with the
// owner's label tied to it and the agreement's full text read out with it (aria-describedby). It posts
// without JavaScript too: `callback_requested=yes` when ticked, and the version of the wording shown,
// so the relay stores the words this page showed.
import { useTheme } from '@emotion/react';
import { memo, useId } from 'react';
import { CALLBACK_FIELDS, CALLBACK_TICKED_VALUE } from '../lead/callback-consent.ts';
import { OPTIONAL_NOTE } from './Field.tsx';
import * as styles from './form-styles.ts';
import type { CallbackConsentSettings } from './use-lead-form.ts';

type CallbackConsentBoxProps = {
  wording: CallbackConsentSettings;
  ticked: boolean;
  onTickedChange: (ticked: boolean) => void;
};

// Memoised like the fields: a key typed elsewhere in the form does not redraw it (nor, while the form
// takes in what was ticked before it hydrated, untick it for a moment).
export const CallbackConsentBox = memo(function CallbackConsentBox({ wording, ticked, onTickedChange }: CallbackConsentBoxProps) {
  const theme = useTheme();
  const id = useId();
  const optionalId = `${id}-optional`;
  const textId = `${id}-text`;
  return (
    <div css={styles.callbackBox(theme)}>
      <input
        id={id}
        type="checkbox"
        name={CALLBACK_FIELDS.requested}
        value={CALLBACK_TICKED_VALUE}
        checked={ticked}
        aria-describedby={`${optionalId} ${textId}`}
        onChange={(event) => onTickedChange(event.currentTarget.checked)}
        css={styles.checkbox(theme)}
      />
      <div>
        <div css={styles.labelRow(theme)}>
          <label htmlFor={id} css={styles.label(theme)}>
            {wording.label}
          </label>
          <span id={optionalId} css={styles.optionalTag(theme)}>
            {OPTIONAL_NOTE}
          </span>
        </div>
        <p id={textId} css={styles.callbackText(theme)}>
          {wording.text}
        </p>
      </div>
      <input type="hidden" name={CALLBACK_FIELDS.version} value={wording.version} />
    </div>
  );
});
