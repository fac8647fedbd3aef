// Confirms deleting a page or an article, after looking for the places that link to it: their links
// would go nowhere, so they are listed before anything is deleted.
import { css } from '@emotion/react';
import { useEffect, useRef, useState } from 'react';
import { CONTENT_KINDS } from '../../../content-model/kinds.ts';
import { api, ApiError, type OpenedFile, type Reference } from '../api.ts';
import { ui } from '../ui.ts';

export function DeleteDialog({
  file,
  title,
  onCancel,
  onDeleted,
}: {
  file: OpenedFile;
  title: string;
  onCancel: () => void;
  onDeleted: () => Promise<void>;
}) {
  const [references, setReferences] = useState<Reference[] | null>(null);
  const [error, setError] = useState('');
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    api.references(file.path).then(
      (answer) => setReferences(answer.references),
      () => setReferences([]),
    );
  }, [file.path]);
  useEffect(() => {
    if (references) confirmRef.current?.focus();
  }, [references]);
  return (
    <div role="alertdialog" aria-labelledby="delete-title" aria-describedby="delete-details" css={[ui.errorBanner, css({ marginTop: 10 })]}>
      <h2 id="delete-title" css={css({ fontSize: 18, margin: '0 0 6px' })}>
        Delete “{title}”?
      </h2>
      <div id="delete-details">
        {references === null ? (
          <p role="status">Looking for links to it…</p>
        ) : references.length === 0 ? (
          <p>Nothing else on the site links to it. It disappears from the live site when you publish.</p>
        ) : (
          <>
            <p>These places link to it; their links will go nowhere, and publishing is refused until they are changed:</p>
            <ul>
              {references.map((reference) => (
                <li key={reference.path}>
                  <strong>{reference.title}</strong>: {reference.where.join(', ')}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      {error && <p css={ui.error}>{error}</p>}
      <div css={css({ display: 'flex', gap: 8 })}>
        <button
          ref={confirmRef}
          type="button"
          css={ui.dangerButton}
          disabled={references === null}
          onClick={async () => {
            try {
              await api.remove(file.path, file.revision, file.diskVersion);
              await onDeleted();
            } catch (failure) {
              setError(failure instanceof ApiError ? failure.message : 'It could not be deleted.');
            }
          }}
        >
          Delete {file.kind === 'article' ? CONTENT_KINDS.article.noun : CONTENT_KINDS.page.noun}
        </button>
        <button type="button" css={ui.secondaryButton} onClick={onCancel}>
          Keep it
        </button>
      </div>
    </div>
  );
}
