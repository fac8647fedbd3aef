// The days the reports cover: From and To (UTC days), applied with "Show reports", or a preset
// applied in one click. What is typed stays in the form until it is applied; the screen reads the
// range back from the address and hands it back here.
import { useState, type FormEvent } from 'react';
import type { DayRange } from '../../api-types.ts';
import { Field } from '../parts/Field.tsx';
import { rangePresets } from './range-query.ts';

const ORDER_ERROR = 'Must be on or after the From day.';

export function RangeForm({
  range,
  now,
  onApply,
}: {
  /** The range shown, or the one asked for while it loads. */
  range: Partial<DayRange>;
  now: number;
  onApply: (range: Partial<DayRange>) => void;
}) {
  const [draft, setDraft] = useState<Partial<DayRange>>(range);
  const [error, setError] = useState('');
  // A range applied (or filled in by the server) replaces what was typed. It is replaced as the new
  // range renders, not in an effect afterwards: an effect could run after a key typed in between and
  // put the old days back over it. The form stays mounted, so the button just pressed keeps the focus.
  const [rangeShown, setRangeShown] = useState<Partial<DayRange>>(range);
  if (rangeShown.from !== range.from || rangeShown.to !== range.to) {
    setRangeShown({ from: range.from, to: range.to });
    setDraft({ from: range.from, to: range.to });
  }
  const set = (key: keyof DayRange) => (event: { target: { value: string } }) => {
    setError('');
    setDraft((previous) => ({ ...previous, [key]: event.target.value || undefined }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    // Refused here as the server would refuse it, with the field named beside it.
    if (draft.from && draft.to && draft.to < draft.from) {
      setError(ORDER_ERROR);
      return;
    }
    onApply(draft);
  }

  return (
    <form className="filters range-form" aria-label="Days to report" onSubmit={submit}>
      <Field label="From" hint="UTC day, included.">
        {(control) => <input {...control} type="date" name="from" value={draft.from ?? ''} onChange={set('from')} />}
      </Field>
      <Field label="To" hint="UTC day, included." error={error}>
        {(control) => <input {...control} type="date" name="to" value={draft.to ?? ''} onChange={set('to')} />}
      </Field>
      <div className="filters-actions">
        <button type="submit" className="button button-primary">
          Show reports
        </button>
        <div className="presets" role="group" aria-label="Preset ranges">
          {rangePresets(now).map((preset) => (
            <button
              key={preset.label}
              type="button"
              className="button"
              onClick={() => {
                setError('');
                setDraft(preset.range);
                onApply(preset.range);
              }}
            >
              {preset.label}
            </button>
          ))}
        </div>
      </div>
    </form>
  );
}
