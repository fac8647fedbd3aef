// A date and time to publish at, in the site's time zone (which it names), and the button that
// schedules it. Used for a publish of every draft and for an admin's approval of a review request.
import { css } from '@emotion/react';
import { useEffect, useId, useState } from 'react';
import { api, ApiError } from '../api.ts';
import { ui } from '../ui.ts';

export function SchedulePublish({
  disabled,
  label = 'Schedule publish',
  onSchedule,
}: {
  disabled: boolean;
  label?: string;
  /** Schedules for `at` (2026-12-01T09:00 in the site's time zone); a refusal is thrown as an ApiError. */
  onSchedule: (at: string) => Promise<void>;
}) {
  const id = useId();
  const [zone, setZone] = useState<{ timeZone: string; now: string } | null>(null);
  const [at, setAt] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.schedule().then(
      (answer) => setZone({ timeZone: answer.timeZone, now: answer.now }),
      () => setZone(null),
    );
  }, []);

  const submit = async () => {
    setError('');
    if (!at) {
      setError('Choose the date and time to publish at.');
      return;
    }
    setBusy(true);
    try {
      await onSchedule(at);
      setAt('');
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The publish could not be scheduled. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div css={css({ display: 'flex', gap: 8, alignItems: 'flex-end', flexWrap: 'wrap' })}>
      <div css={[ui.field, css({ marginBottom: 0 })]}>
        <label htmlFor={`${id}-at`} css={ui.label}>
          Publish at
        </label>
        <input
          id={`${id}-at`}
          type="datetime-local"
          css={[ui.input, css({ width: 'auto' })]}
          value={at}
          min={zone?.now}
          aria-describedby={`${id}-zone${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setAt(event.target.value)}
        />
        <p id={`${id}-zone`} css={ui.help}>
          {zone ? `Time in ${zone.timeZone}, the site’s time zone.` : 'In the site’s time zone.'}
        </p>
      </div>
      <button type="button" css={ui.secondaryButton} disabled={disabled || busy} onClick={() => void submit()}>
        {label}
      </button>
      {error && (
        <p id={`${id}-error`} role="alert" css={[ui.error, css({ flexBasis: '100%', margin: 0 })]}>
          {error}
        </p>
      )}
    </div>
  );
}
