// Erasing a person's leads takes two steps: the address first, then the number of leads it would
// remove, said in words, and only then the button that erases. The count goes back with the erasure
// so the server refuses if more leads arrived from that address in the meantime.
import { useState, type FormEvent } from 'react';
import { messageOf } from '../api.ts';
import { Dialog } from '../parts/Dialog.tsx';
import { Field } from '../parts/Field.tsx';
import { plural } from '../parts/format.tsx';
import { ErrorMessage } from '../parts/messages.tsx';
import { useSession } from '../session.tsx';

export function EraseDialog({ onClose, onErased }: { onClose: () => void; onErased: (message: string) => void }) {
  const { api } = useSession();
  const [email, setEmail] = useState('');
  const [preview, setPreview] = useState<{ email: string; count: number } | null>(null);
  const [fieldError, setFieldError] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function check(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!address.includes('@')) {
      setFieldError('Enter the e-mail address whose leads to erase.');
      return;
    }
    setFieldError('');
    setError('');
    setBusy(true);
    try {
      const { count } = await api.erasurePreview(address);
      setPreview({ email: address, count });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  async function erase() {
    if (!preview) return;
    setError('');
    setBusy(true);
    try {
      const { erased } = await api.erase(preview.email, preview.count);
      onErased(`Erased ${plural(erased, 'lead', 'leads')} from ${preview.email}.`);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  return (
    <Dialog title="Erase by e-mail" onClose={onClose}>
      <form onSubmit={check}>
        <Field label="E-mail address" error={fieldError}>
          {(control) => (
            <input
              {...control}
              type="email"
              name="email"
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                setPreview(null);
              }}
            />
          )}
        </Field>
        <button type="submit" className="button" disabled={busy}>
          Find their leads
        </button>
      </form>
      {preview ? (
        preview.count === 0 ? (
          <p role="status">No leads from {preview.email}.</p>
        ) : (
          <p role="status" className="warning">
            This will permanently erase {plural(preview.count, 'lead', 'leads')} from {preview.email}. This cannot be undone.
          </p>
        )
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div className="dialog-actions">
        {preview && preview.count > 0 ? (
          <button type="button" className="button button-danger" disabled={busy} onClick={() => void erase()}>
            Erase {plural(preview.count, 'lead', 'leads')}
          </button>
        ) : null}
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
