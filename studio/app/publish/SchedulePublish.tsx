// A date and time to publish at, in the team's time zone (which it names: "Times are Chicago time
// (America/Chicago)"), the chosen moment said back in the words the scheduled list uses, and the
// button that schedules it. Used for a publish of every draft and for an admin's approval of a review request.
import { css } from '@emotion/react';
import { useEffect, useId, useState } from 'react';
import { api, ApiError } from '../api.ts';
import { ui } from '../ui.ts';
import { instantOf, momentInZoneWords, zoneWords } from '../../time-words.ts';

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

  // The chosen moment in the words the scheduled list will use, before it is confirmed.
  const instant = zone && at ? instantOf(at, zone.timeZone) : Number.NaN;
  const chosen = Number.isNaN(instant)
    ? ''
    : momentInZoneWords(instant, { timeZone: zone!.timeZone, language: typeof navigator === 'undefined' ? undefined : navigator.language });

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
          aria-describedby={`${id}-zone${chosen ? ` ${id}-chosen` : ''}${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setAt(event.target.value)}
        />
        <p id={`${id}-zone`} css={ui.help}>
          {zone ? `Times are ${zoneWords(zone.timeZone)}.` : 'Times are in the team’s time zone.'}
        </p>
        {chosen && (
          <p id={`${id}-chosen`} aria-live="polite" css={[ui.help, css({ fontWeight: 600 })]}>
            Goes live {chosen}.
          </p>
        )}
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
