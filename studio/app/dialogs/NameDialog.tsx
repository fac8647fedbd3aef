// Asks for one name or address (duplicate a page, change its address), with the server's refusal
// shown under the field and tied to it.
import { css } from '@emotion/react';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api.ts';
import { FormError, SubmitOrCancel } from '../form-parts.tsx';
import { ui } from '../ui.ts';

export function NameDialog({
  label,
  initial = '',
  action,
  onCancel,
  onSubmit,
}: {
  label: string;
  initial?: string;
  action: string;
  onCancel: () => void;
  onSubmit: (value: string) => Promise<void>;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);
  return (
    <form
      css={[ui.group, css({ marginTop: 10 })]}
      onSubmit={async (event) => {
        event.preventDefault();
        setError('');
        try {
          await onSubmit(value.trim());
        } catch (failure) {
          setError(failure instanceof ApiError ? failure.message : 'That did not work.');
        }
      }}
    >
      <label css={ui.field}>
        <span css={ui.label}>{label}</span>
        <input
          ref={inputRef}
          css={ui.input}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'name-dialog-error' : undefined}
        />
      </label>
      <FormError id="name-dialog-error" error={error} />
      <SubmitOrCancel submit={action} onCancel={onCancel} />
    </form>
  );
}
