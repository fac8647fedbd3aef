// Editing one content file: the form generated from its schema, saved as a draft a moment after each
// change, the build's messages beside the fields and in a list, and the live preview beside it.
import { css } from '@emotion/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ContentIssue } from '../../content-model/content-issue.ts';
import { CONTENT_KINDS, kindDefinition } from '../../content-model/kinds.ts';
import type { Field, FormModel } from './fields/form-model.ts';
import { api, ApiError, type OpenedFile, type Reference } from './api.ts';
import { EditorProvider, issuesAtPath, type DataPath, type EditorApi } from './editor-context.tsx';
import { FieldEditor } from './fields/FieldEditor.tsx';
import { ObjectEditor } from './fields/ObjectEditor.tsx';
import { fieldId } from './fields/field-parts.tsx';
import { PreviewPane, type PreviewTarget } from './PreviewPane.tsx';
import { RoiExample } from './RoiExample.tsx';
import { color, ui } from './ui.ts';
import { FormError, SubmitOrCancel } from './form-parts.tsx';
import { moveIn, setIn } from './editor/data-path.ts';

/** Issue paths are relative to the whole file, as the form's paths are. */
const NO_PREFIX: DataPath = [];

/** Wait after the last keystroke before the draft is saved. */
const SAVE_DELAY_MS = 400;

type SaveState =
  | { kind: 'clean' | 'saved' | 'saving' | 'unsaved' }
  | { kind: 'failed'; message: string }
  | { kind: 'conflict'; reason: string; message: string };

export function FileEditor({
  path,
  model,
  onChanged,
  onOpen,
}: {
  path: string;
  model: FormModel;
  onChanged: () => void;
  onOpen: (path: string | null) => void;
}) {
  const [file, setFile] = useState<OpenedFile | null>(null);
  const [loadError, setLoadError] = useState('');
  const [data, setData] = useState<unknown>(null);
  const [issues, setIssues] = useState<ContentIssue[]>([]);
  const [save, setSave] = useState<SaveState>({ kind: 'clean' });
  const [openBlock, setOpenBlock] = useState<number | null>(null);
  const [focusedBlock, setFocusedBlock] = useState<number | null>(null);
  const revision = useRef(0);
  const diskVersion = useRef<string | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef<unknown>(null);
  const saving = useRef<Promise<void>>(Promise.resolve());

  const load = useCallback(async () => {
    setLoadError('');
    try {
      const opened = await api.open(path);
      revision.current = opened.revision;
      diskVersion.current = opened.diskVersion;
      latest.current = opened.data;
      setFile(opened);
      setData(opened.data);
      setIssues(opened.issues);
      setSave({ kind: opened.edited ? 'saved' : 'clean' });
    } catch (error) {
      setLoadError(error instanceof ApiError ? error.message : 'This file could not be opened.');
    }
  }, [path]);

  useEffect(() => {
    setFile(null);
    setOpenBlock(null);
    void load();
  }, [load]);

  const flush = useCallback(() => {
    clearTimeout(pending.current);
    saving.current = saving.current.then(async () => {
      const value = latest.current;
      setSave({ kind: 'saving' });
      try {
        const answer = await api.save(path, value, revision.current, diskVersion.current);
        revision.current = answer.revision;
        setIssues(answer.issues);
        setFile((current) => (current && current.edited !== answer.edited ? { ...current, edited: answer.edited } : current));
        setSave(latest.current === value ? { kind: answer.edited ? 'saved' : 'clean' } : { kind: 'unsaved' });
        onChanged();
      } catch (error) {
        if (error instanceof ApiError && error.status === 409)
          setSave({ kind: 'conflict', reason: error.reason ?? '', message: error.message });
        else setSave({ kind: 'failed', message: error instanceof ApiError ? error.message : 'The draft could not be saved.' });
      }
    });
  }, [path, onChanged]);

  // Leaving the page with an edit not yet saved: the browser asks whether to leave (the draft is
  // saved a moment after typing stops, so only that last moment can be lost).
  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (save.kind === 'unsaved') event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [save.kind]);

  const update = useCallback(
    (recipe: (draft: unknown) => unknown) => {
      const next = recipe(latest.current);
      latest.current = next;
      setData(next);
      setSave({ kind: 'unsaved' });
      clearTimeout(pending.current);
      pending.current = setTimeout(flush, SAVE_DELAY_MS);
    },
    [flush],
  );

  const issuePaths = useMemo(() => issues.map((issue) => ({ ...issue, segments: articleSegments(file, issue) })), [issues, file]);

  const editor: EditorApi = useMemo(
    () => ({
      model,
      setAt: (at, value) => update((current) => setIn(current, at, value)),
      move: (at, offset) => update((current) => moveIn(current, at, offset)),
      issuesAt: (at) => issuesAtPath(issuePaths, NO_PREFIX, at),
      countIssuesUnder: (at) =>
        issuePaths.filter((issue) => issue.segments && at.every((segment, i) => String(issue.segments![i]) === String(segment))).length,
      focusBlock: (index) => setFocusedBlock(index),
      openBlock,
      setOpenBlock,
      Field: FieldEditor,
      Group: ObjectEditor,
    }),
    [model, update, issuePaths, openBlock],
  );

  // A new target redraws the preview: only when the file or its data changed.
  const preview: PreviewTarget | null = useMemo(() => (file ? previewTarget(file, data) : null), [file, data]);

  if (loadError) {
    return (
      <div role="alert" css={ui.errorBanner}>
        <p>{loadError}</p>
        <button type="button" css={ui.secondaryButton} onClick={() => void load()}>
          Try again
        </button>
      </div>
    );
  }
  if (!file) return <p role="status">Opening…</p>;

  const root = rootField(model, file.kind);

  return (
    <EditorProvider value={editor}>
      <div
        css={css({
          display: 'grid',
          gap: 16,
          gridTemplateColumns: 'minmax(0, 1fr)',
          '@media (min-width: 1100px)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' },
        })}
      >
        <div>
          <FileHeader file={file} data={data} save={save} onReload={load} onOpen={onOpen} onChanged={onChanged} />
          {file.parseError && (
            <p role="alert" css={ui.errorBanner}>
              {file.parseError}
            </p>
          )}
          <SaveStatus save={save} />
          {/* On a narrow screen the preview is under the form. */}
          <a
            href="#preview"
            css={[ui.linkButton, css({ display: 'inline-block', marginBottom: 10, '@media (min-width: 1100px)': { display: 'none' } })]}
          >
            Jump to the preview
          </a>
          {save.kind === 'conflict' && (
            <ConflictBanner
              file={file}
              data={latest.current}
              seenRevision={revision.current}
              reason={save.reason}
              message={save.message}
              onResolved={(to) => (to === path ? void load() : onOpen(to))}
            />
          )}
          <IssueList issues={issuePaths} />
          {file.deleted ? (
            <p css={ui.banner}>This file will be deleted when you publish. Discard the change to keep it.</p>
          ) : data !== null && file.kind === 'article' ? (
            <ArticleForm root={root} data={data} />
          ) : data !== null ? (
            <ObjectEditor field={root} value={data} path={[]} bare />
          ) : null}
        </div>
        {file.kind === 'roi' ? (
          <RoiExample data={data} />
        ) : (
          <PreviewPane target={preview} focusedBlock={focusedBlock} onSelectBlock={(index) => selectBlock(index)} />
        )}
      </div>
    </EditorProvider>
  );

  function selectBlock(index: number) {
    setOpenBlock(index);
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-item="${index}"] [data-item-heading]`)?.focus());
  }
}

function ArticleForm({ root, data }: { root: Field; data: unknown }) {
  const { frontMatter, body } = data as { frontMatter: unknown; body: string };
  return (
    <>
      <ObjectEditor field={{ ...root, label: 'Article details' }} value={frontMatter} path={['frontMatter']} bare />
      <FieldEditor
        field={{
          key: 'body',
          label: 'Article text',
          help: 'The article in Markdown: blank lines separate paragraphs, "## " starts a heading, **bold**, [links](/contact).',
          required: true,
          kind: 'markdown',
        }}
        value={body}
        path={['body']}
      />
    </>
  );
}

function FileHeader({
  file,
  data,
  save,
  onReload,
  onOpen,
  onChanged,
}: {
  file: OpenedFile;
  data: unknown;
  save: SaveState;
  onReload: () => Promise<void>;
  onOpen: (path: string | null) => void;
  onChanged: () => void;
}) {
  const [dialog, setDialog] = useState<'rename' | 'delete' | 'duplicate' | null>(null);
  const [message, setMessage] = useState('');
  const title =
    file.kind === 'article'
      ? String((data as { frontMatter?: { title?: string } })?.frontMatter?.title ?? file.name)
      : String((data as { title?: string })?.title ?? file.name);
  const definition = kindDefinition(file.kind);
  const fields = (definition.format === 'markdown' ? (data as { frontMatter?: object })?.frontMatter : data) ?? {};
  const address = definition.shape === 'collection' ? definition.addressOf(file.name, fields as Record<string, unknown>) : undefined;
  const busy = save.kind === 'saving' || save.kind === 'unsaved';

  return (
    <header css={css({ marginBottom: 12 })}>
      <h1 css={css({ fontSize: 24, margin: '0 0 4px' })}>
        {file.kind === 'site' ? 'Site settings' : file.kind === 'roi' ? 'ROI calculator numbers' : title}
      </h1>
      {(address || file.isNew || file.edited) && (
        <p css={css({ margin: '0 0 8px', color: color.mutedText })}>
          {address && <code>{address}</code>} {file.isNew && <span css={ui.badge}>New, not published</span>}{' '}
          {file.edited && !file.isNew && <span css={ui.badge}>Unpublished changes</span>}
        </p>
      )}
      <div css={css({ display: 'flex', gap: 8, flexWrap: 'wrap' })}>
        {(file.kind === 'page' || file.kind === 'article') && (
          <button
            type="button"
            css={ui.secondaryButton}
            disabled={busy}
            onClick={() => setDialog(dialog === 'duplicate' ? null : 'duplicate')}
          >
            Duplicate
          </button>
        )}
        {file.kind === 'page' && (
          <button type="button" css={ui.secondaryButton} disabled={busy} onClick={() => setDialog(dialog === 'rename' ? null : 'rename')}>
            Change address
          </button>
        )}
        {(file.kind === 'page' || file.kind === 'article') && !file.deleted && (
          <button type="button" css={ui.dangerButton} disabled={busy} onClick={() => setDialog(dialog === 'delete' ? null : 'delete')}>
            Delete
          </button>
        )}
        {file.edited && (
          <button
            type="button"
            css={ui.linkButton}
            disabled={busy}
            onClick={async () => {
              if (!window.confirm(`Discard every unpublished change to "${title}"?`)) return;
              await api.discard(file.path);
              onChanged();
              if (file.isNew) onOpen(null);
              else await onReload();
            }}
          >
            Discard changes
          </button>
        )}
      </div>
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
            const answer = await api.rename(file.path, newAddress, file.revision, file.diskVersion);
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
          file={file}
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

function NameDialog({
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

function DeleteDialog({
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

function SaveStatus({ save }: { save: SaveState }) {
  const text = {
    clean: 'No unpublished changes',
    saved: 'Draft saved',
    saving: 'Saving draft…',
    unsaved: 'Editing…',
    failed: '',
    conflict: '',
  }[save.kind];
  if (save.kind === 'failed') {
    return (
      <p role="alert" css={ui.errorBanner}>
        {save.message} Your changes are still in this tab; they are saved again with your next edit.
      </p>
    );
  }
  return (
    <p role="status" css={css({ margin: '0 0 10px', color: color.mutedText, fontSize: 14 })}>
      {text}
    </p>
  );
}

function ConflictBanner({
  file,
  data,
  seenRevision,
  reason,
  message,
  onResolved,
}: {
  file: OpenedFile;
  data: unknown;
  seenRevision: number;
  reason: string;
  message: string;
  onResolved: (path: string) => void;
}) {
  const [error, setError] = useState('');
  const single = file.kind === 'site' || file.kind === 'roi';
  return (
    <div role="alert" css={ui.banner}>
      <p>
        <strong>{message}</strong>{' '}
        {reason === 'disk-changed' ? 'Your edits were not saved over it.' : 'Your latest edits were not saved over theirs.'}
      </p>
      <div css={css({ display: 'flex', gap: 8, flexWrap: 'wrap' })}>
        <button
          type="button"
          css={ui.secondaryButton}
          onClick={async () => {
            if (reason === 'disk-changed') await api.discard(file.path).catch(() => undefined);
            onResolved(file.path);
          }}
        >
          {reason === 'disk-changed' ? 'Reload the new version (drop my edits)' : 'Reload the newer draft'}
        </button>
        {/* One file for the whole site cannot be copied: another tab's newer draft is reloaded, never replaced. */}
        {!(single && reason === 'draft-changed') && (
          <button
            type="button"
            css={ui.secondaryButton}
            onClick={async () => {
              try {
                const kept = await api.keepBoth(file.path, data, seenRevision);
                onResolved(kept.path);
              } catch (failure) {
                setError(failure instanceof ApiError ? failure.message : 'That did not work.');
              }
            }}
          >
            {single ? 'Keep my version on top of the new one' : 'Keep both (my version becomes a copy)'}
          </button>
        )}
      </div>
      {error && <p css={ui.error}>{error}</p>}
    </div>
  );
}

function IssueList({ issues }: { issues: ContentIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <section aria-labelledby="issues-title" css={ui.errorBanner}>
      <h2 id="issues-title" css={css({ fontSize: 16, margin: '0 0 6px' })}>
        {issues.length === 1 ? '1 thing to fix before publishing' : `${issues.length} things to fix before publishing`}
      </h2>
      <ul css={css({ margin: 0, paddingLeft: 18 })}>
        {issues.map((issue, index) => (
          <li key={index}>
            {issue.segments ? (
              <a
                href={`#${fieldId(issue.segments)}`}
                css={css({ color: color.dangerInk })}
                onClick={(event) => {
                  event.preventDefault();
                  focusField(issue.segments!);
                }}
              >
                {issue.where ? `${issue.where}: ` : ''}
                {issue.message}
              </a>
            ) : (
              `${issue.where ? `${issue.where}: ` : ''}${issue.message}`
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Moves focus to a field (opening its block first, when it is inside one). */
function focusField(segments: readonly (string | number)[]) {
  const target = document.getElementById(fieldId(segments)) ?? closestExisting(segments);
  if (target) {
    target.scrollIntoView({ block: 'center' });
    target.focus();
    return;
  }
  if (segments[0] === 'blocks' && typeof segments[1] === 'number') {
    document.querySelector<HTMLButtonElement>(`[data-item="${segments[1]}"] [data-item-heading]`)?.click();
    requestAnimationFrame(() =>
      requestAnimationFrame(() => (document.getElementById(fieldId(segments)) ?? closestExisting(segments))?.focus()),
    );
  }
}

function closestExisting(segments: readonly (string | number)[]): HTMLElement | null {
  for (let length = segments.length; length > 0; length--) {
    const element = document.getElementById(fieldId(segments.slice(0, length)));
    if (element) return element;
  }
  return null;
}

function rootField(model: FormModel, kind: OpenedFile['kind']): Field {
  return { site: model.site, roi: model.roi, page: model.page, article: model.article }[kind];
}

function articleSegments(file: OpenedFile | null, issue: ContentIssue): ContentIssue['segments'] {
  if (file?.kind !== 'article' || !issue.segments) return issue.segments;
  return ['frontMatter', ...issue.segments];
}

function previewTarget(file: OpenedFile, data: unknown): PreviewTarget | null {
  if (data === null || file.deleted) return null;
  if (file.kind === 'page') return { kind: 'page', page: data };
  if (file.kind === 'article')
    return { kind: 'article', slug: file.name, article: data as { frontMatter: Record<string, unknown>; body: string } };
  if (file.kind === 'site') return { kind: 'site', site: data };
  return null;
}
