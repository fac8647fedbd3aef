// Creates a page or an article: its name (which makes its address), and whether it starts blank or
// as a copy of another; the server's refusal is shown under the name and tied to it.
import { useEffect, useRef, useState } from 'react';
import { CONTENT_KINDS, newFileAddress } from '../../../content-model/kinds.ts';
import { api, ApiError, type Entry } from '../api.ts';
import { FormError, SubmitOrCancel } from '../form-parts.tsx';
import { ui } from '../ui.ts';

export function CreateForm({
  kind,
  pages,
  onCancel,
  onCreated,
}: {
  kind: 'page' | 'article';
  pages: Entry[];
  onCancel: () => void;
  onCreated: (path: string) => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [copyFrom, setCopyFrom] = useState('');
  const [error, setError] = useState('');
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);
  return (
    <form
      css={ui.group}
      onSubmit={async (event) => {
        event.preventDefault();
        setError('');
        try {
          const created = await api.create(kind, name.trim(), copyFrom || undefined);
          await onCreated(created.path);
        } catch (failure) {
          setError(failure instanceof ApiError ? failure.message : 'It could not be created.');
        }
      }}
    >
      <label css={ui.field}>
        <span css={ui.label}>Name (the address becomes {newFileAddress(kind, 'name')})</span>
        <input
          ref={nameRef}
          css={ui.input}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="spring-offer"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'create-error' : undefined}
        />
      </label>
      <label css={ui.field}>
        <span css={ui.label}>Start from</span>
        <select css={ui.input} value={copyFrom} onChange={(event) => setCopyFrom(event.target.value)}>
          <option value="">A blank {CONTENT_KINDS[kind].noun}</option>
          {pages.map((entry) => (
            <option key={entry.path} value={entry.path}>
              A copy of {entry.name}
            </option>
          ))}
        </select>
      </label>
      <FormError id="create-error" error={error} />
      <SubmitOrCancel submit={`Create ${kind}`} onCancel={onCancel} />
    </form>
  );
}
