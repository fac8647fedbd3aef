// The open file's title, address and state (new, unpublished changes), and what can be done to the
// whole file: duplicate it, change its address, delete it, discard its draft, or see its published
// versions.
import { css } from '@emotion/react';
import { useState } from 'react';
import { addressFieldOf, isCollectionKind, kindDefinition } from '../../../content-model/kinds.ts';
import { api, ApiError, type OpenedFile } from '../api.ts';
import { DeleteDialog } from '../dialogs/DeleteDialog.tsx';
import { NameDialog } from '../dialogs/NameDialog.tsx';
import { color, ui } from '../ui.ts';
import type { SaveStatus } from './autosave.ts';
import { hasFixedAddress } from './file-kinds.ts';

export function FileHeader({
  file,
  name,
  data,
  save,
  onReload,
  onOpen,
  onChanged,
  onHistory,
  seenRevision,
}: {
  file: OpenedFile;
  /** What the studio calls the file (a page by its name in the site's links, such as "Home"); its title when unknown. */
  name?: string | undefined;
  /** The draft revision this tab last saw: a discard never drops a change saved since in another tab or by another person. */
  seenRevision: () => number;
  data: unknown;
  save: SaveStatus;
  onReload: () => Promise<void>;
  onOpen: (path: string | null) => void;
  onChanged: () => void;
  onHistory?: (path: string) => void;
}) {
  const [dialog, setDialog] = useState<'rename' | 'delete' | 'duplicate' | null>(null);
  const [message, setMessage] = useState('');
  const [refusal, setRefusal] = useState('');
  // A page is named as the site's links name it ("Home"), never by its search title.
  const title =
    name ??
    (file.kind === 'article'
      ? String((data as { frontMatter?: { title?: string } })?.frontMatter?.title ?? file.name)
      : String((data as { title?: string })?.title ?? file.name));
  const definition = kindDefinition(file.kind);
  const fields = (definition.format === 'markdown' ? (data as { frontMatter?: object })?.frontMatter : data) ?? {};
  const address = definition.shape === 'collection' ? definition.addressOf(file.name, fields as Record<string, unknown>) : undefined;
  const busy = save.kind === 'saving' || save.kind === 'unsaved';

  return (
    <header css={css({ marginBottom: 12 })}>
      <h1 css={css({ fontSize: 24, margin: '0 0 4px' })}>{definition.shape === 'singleton' ? definition.title : title}</h1>
      {(address || file.isNew || file.edited) && (
        <p css={css({ margin: '0 0 8px', color: color.mutedText })}>
          {address && <code>{address}</code>} {file.isNew && <span css={ui.badge}>New, not published</span>}{' '}
          {file.edited && !file.isNew && <span css={ui.badge}>Unpublished changes</span>}
        </p>
      )}
      <div css={css({ display: 'flex', gap: 8, flexWrap: 'wrap' })}>
        {isCollectionKind(file.kind) && (
          <button
            type="button"
            css={ui.secondaryButton}
            disabled={busy}
            onClick={() => setDialog(dialog === 'duplicate' ? null : 'duplicate')}
          >
            Duplicate
          </button>
        )}
        {addressFieldOf(file.kind) !== undefined && !hasFixedAddress(file) && (
          <button type="button" css={ui.secondaryButton} disabled={busy} onClick={() => setDialog(dialog === 'rename' ? null : 'rename')}>
            Change address
          </button>
        )}
        {isCollectionKind(file.kind) && !file.deleted && (
          <button type="button" css={ui.dangerButton} disabled={busy} onClick={() => setDialog(dialog === 'delete' ? null : 'delete')}>
            Delete
          </button>
        )}
        {onHistory && !file.isNew && (
          <button type="button" css={ui.secondaryButton} onClick={() => onHistory(file.path)}>
            History of this page
          </button>
        )}
        {file.edited && (
          <button
            type="button"
            css={ui.linkButton}
            disabled={busy}
            onClick={async () => {
              if (!window.confirm(`Discard every unpublished change to "${title}"?`)) return;
              setRefusal('');
              try {
                await api.discard(file.path, seenRevision());
              } catch (error) {
                setRefusal(error instanceof ApiError ? error.message : 'The changes could not be discarded.');
                return;
              }
              onChanged();
              if (file.isNew) onOpen(null);
              else await onReload();
            }}
          >
            Discard changes
          </button>
        )}
      </div>
      {refusal && (
        <p role="alert" css={ui.errorBanner}>
          {refusal}
        </p>
      )}
      {message && (
        <p role="status" css={ui.okBanner}>
          {message}
        </p>
      )}
      {dialog === 'duplicate' && (
        <NameDialog
          label={
            file.kind === 'article'
              ? 'Name of the new article (its address will be /blog/<name>)'
              : 'Name of the new page (its address will be /<name>)'
          }
          action="Duplicate"
          onCancel={() => setDialog(null)}
          onSubmit={async (name) => {
            const created = await api.create(file.kind === 'article' ? 'article' : 'page', name, file.path);
            setDialog(null);
            onChanged();
            onOpen(created.path);
          }}
        />
      )}
      {dialog === 'rename' && (
        <NameDialog
          label="New address (starts with /)"
          initial={address ?? '/'}
          action="Change address"
          onCancel={() => setDialog(null)}
          onSubmit={async (newAddress) => {
            const answer = await api.rename(file.path, newAddress, seenRevision(), file.diskVersion);
            setDialog(null);
            setMessage(
              answer.updated.length
                ? `Address changed to ${answer.address}. Links updated in: ${answer.updated.join(', ')}.`
                : `Address changed to ${answer.address}.`,
            );
            onChanged();
            await onReload();
          }}
        />
      )}
      {dialog === 'delete' && (
        <DeleteDialog
          file={{ ...file, revision: seenRevision() }}
          title={title}
          onCancel={() => setDialog(null)}
          onDeleted={async () => {
            setDialog(null);
            onChanged();
            if (file.isNew) onOpen(null);
            else await onReload();
          }}
        />
      )}
    </header>
  );
}
