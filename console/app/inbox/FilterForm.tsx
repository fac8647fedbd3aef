// The inbox's filters and search box. What is typed stays in the form until "Apply filters" (or
// Enter), which writes it to the address; the inbox reads the filter back from there.
import { useState, type FormEvent } from 'react';
import type { LeadFilter } from '../../api-types.ts';
import { Field } from '../parts/Field.tsx';
import { STATUS_LABELS } from '../parts/format.tsx';
import { FORMS, STATES } from './filter-query.ts';

export function FilterForm({ filter, onApply }: { filter: LeadFilter; onApply: (filter: LeadFilter) => void }) {
  const [draft, setDraft] = useState<LeadFilter>(filter);
  const set = (key: keyof LeadFilter) => (event: { target: { value: string } }) =>
    setDraft((previous) => ({ ...previous, [key]: event.target.value || undefined }));

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }

  return (
    <form className="filters" role="search" aria-label="Filter the leads" onSubmit={submit}>
      <Field label="Search name, e-mail or company" hint="A whole e-mail address is found fastest." className="filters-search">
        {(control) => <input {...control} type="search" name="q" value={draft.q ?? ''} onChange={set('q')} />}
      </Field>
      <Field label="Form">
        {(control) => (
          <select {...control} name="form" value={draft.form ?? ''} onChange={set('form')}>
            <option value="">All forms</option>
            {FORMS.map((form) => (
              <option key={form} value={form}>
                {form}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="CRM delivery">
        {(control) => (
          <select {...control} name="state" value={draft.state ?? ''} onChange={set('state')}>
            <option value="">All but spam</option>
            {STATES.map((state) => (
              <option key={state} value={state}>
                {STATUS_LABELS[state]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Received from">
        {(control) => <input {...control} type="date" name="from" value={draft.from ?? ''} onChange={set('from')} />}
      </Field>
      <Field label="Received to">
        {(control) => <input {...control} type="date" name="to" value={draft.to ?? ''} onChange={set('to')} />}
      </Field>
      <Field label="Campaign (utm_campaign)">
        {(control) => <input {...control} type="text" name="campaign" value={draft.campaign ?? ''} onChange={set('campaign')} />}
      </Field>
      <Field label="Source (utm_source)">
        {(control) => <input {...control} type="text" name="source" value={draft.source ?? ''} onChange={set('source')} />}
      </Field>
      <div className="filters-actions">
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}
