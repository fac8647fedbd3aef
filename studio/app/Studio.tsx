// The studio's frame: the navigator (every page, article and settings file, with search), the file
// being edited, and the publish panel (the changes as a readable diff, then one-click publish).
import { css } from '@emotion/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { buildFormModel, type FormModel } from './fields/form-model.ts';
import { api, ApiError, type Changes, type Entry, type PublishAnswer, type PublishRecord } from './api.ts';
import { FileEditor } from './editor/FileEditor.tsx';
import { color, font, ui } from './ui.ts';
import { FormError, SubmitOrCancel } from './form-parts.tsx';

export function Studio({
  user,
  onSignOut,
}: {
  user: string;
  /** Signs out this browser, or every browser the person is signed in on. */
  onSignOut: ((everywhere: boolean) => void) | undefined;
}) {
  const [model, setModel] = useState<FormModel | null>(null);
  const [modelError, setModelError] = useState('');
  const [entries, setEntries] = useState<Entry[]>([]);
  const [canUndo, setCanUndo] = useState(false);
  const [history, setHistory] = useState<PublishRecord[]>([]);
  const [openPath, setOpenPath] = useState<string | null>(() => new URLSearchParams(window.location.search).get('file'));
  const [panel, setPanel] = useState<'publish' | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);

  const refresh = useCallback(async () => {
    const answer = await api.entries();
    setEntries(answer.entries);
    setCanUndo(answer.canUndo);
    setHistory(answer.history);
  }, []);

  useEffect(() => {
    api.schemas().then(
      (schemas) => {
        try {
          setModel(buildFormModel(schemas as Parameters<typeof buildFormModel>[0]));
        } catch (error) {
          setModelError(`The schemas in schema/ cannot be turned into forms: ${(error as Error).message}`);
        }
      },
      (error: unknown) => setModelError(error instanceof ApiError ? error.message : 'The schemas could not be loaded.'),
    );
    void refresh();
  }, [refresh]);

  const open = useCallback((path: string | null) => {
    setOpenPath(path);
    setPanel(null);
    setMenuOpen(false);
    const url = new URL(window.location.href);
    if (path) url.searchParams.set('file', path);
    else url.searchParams.delete('file');
    window.history.replaceState(null, '', url);
  }, []);

  const edited = entries.filter((entry) => entry.edited).length;

  return (
    <div css={css({ minHeight: '100vh', display: 'grid', gridTemplateRows: 'auto 1fr' })}>
      <header
        css={css({
          display: 'flex',
          gap: 10,
          alignItems: 'center',
          flexWrap: 'wrap',
          padding: '8px 16px',
          borderBottom: `1px solid ${color.border}`,
          background: color.surface,
        })}
      >
        <button
          type="button"
          css={[ui.secondaryButton, css({ '@media (min-width: 900px)': { display: 'none' } })]}
          aria-expanded={menuOpen}
          aria-controls="navigator"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Pages
        </button>
        <strong css={css({ fontSize: 18, flex: 1 })}>Content studio</strong>
        <button
          type="button"
          css={ui.button}
          onClick={() => setPanel(panel === 'publish' ? null : 'publish')}
          aria-expanded={panel === 'publish'}
        >
          Review and publish{edited > 0 ? ` (${edited})` : ''}
        </button>
        <span css={css({ color: color.mutedText })}>
          Editing as <strong>{user}</strong>
        </span>
        {onSignOut && (
          <>
            <button type="button" css={ui.linkButton} onClick={() => onSignOut(false)}>
              Sign out
            </button>
            <button type="button" css={ui.linkButton} onClick={() => onSignOut(true)}>
              Sign out everywhere
            </button>
          </>
        )}
      </header>
      <div
        css={css({
          display: 'grid',
          gridTemplateColumns: 'minmax(0, 1fr)',
          '@media (min-width: 900px)': { gridTemplateColumns: '280px minmax(0, 1fr)' },
        })}
      >
        <Navigator entries={entries} openPath={openPath} onOpen={open} onCreated={refresh} hidden={!menuOpen} />
        <main css={css({ padding: 16, minWidth: 0 })}>
          {modelError && (
            <p role="alert" css={ui.errorBanner}>
              {modelError}
            </p>
          )}
          {panel === 'publish' ? (
            <PublishPanel
              canUndo={canUndo}
              history={history}
              onDone={async () => {
                await refresh();
              }}
              onOpen={open}
            />
          ) : openPath && model ? (
            <FileEditor key={openPath} path={openPath} model={model} onChanged={() => void refresh()} onOpen={open} />
          ) : (
            <Welcome />
          )}
        </main>
      </div>
    </div>
  );
}

function Welcome() {
  return (
    <div css={css({ maxWidth: 640 })}>
      <h1 css={css({ fontSize: 24 })}>Change the site without touching code</h1>
      <p>
        Choose a page on the left to edit it. Your changes are kept as drafts, invisible on the live site, until you press “Review and
        publish”.
      </p>
      <p>The preview beside the form is the real page, drawn the way visitors will see it, at phone or desktop width.</p>
    </div>
  );
}

function Navigator({
  entries,
  openPath,
  onOpen,
  onCreated,
  hidden,
}: {
  entries: Entry[];
  openPath: string | null;
  onOpen: (path: string) => void;
  onCreated: () => Promise<void>;
  hidden: boolean;
}) {
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState<'page' | 'article' | null>(null);
  const shown = useMemo(() => {
    const words = query.trim().toLowerCase();
    return entries.filter((entry) => !words || `${entry.title} ${entry.address ?? ''} ${entry.path}`.toLowerCase().includes(words));
  }, [entries, query]);
  const groups: [string, Entry[]][] = [
    ['Settings', shown.filter((entry) => entry.kind === 'site' || entry.kind === 'roi')],
    ['Pages', shown.filter((entry) => entry.kind === 'page')],
    ['Articles', shown.filter((entry) => entry.kind === 'article')],
  ];
  return (
    <nav
      id="navigator"
      aria-label="Content"
      css={css({
        borderRight: `1px solid ${color.border}`,
        background: color.panel,
        padding: 12,
        overflow: 'auto',
        '@media (max-width: 899px)': hidden ? { display: 'none' } : {},
        '@media (min-width: 900px)': { maxHeight: 'calc(100vh - 56px)', position: 'sticky', top: 0 },
      })}
    >
      <label css={ui.field}>
        <span css={ui.label}>Search pages and articles</span>
        <input css={ui.input} type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
      </label>
      <div css={css({ display: 'flex', gap: 6, flexWrap: 'wrap', marginBottom: 10 })}>
        <button
          type="button"
          css={ui.secondaryButton}
          aria-expanded={creating === 'page'}
          onClick={() => setCreating(creating === 'page' ? null : 'page')}
        >
          New page
        </button>
        <button
          type="button"
          css={ui.secondaryButton}
          aria-expanded={creating === 'article'}
          onClick={() => setCreating(creating === 'article' ? null : 'article')}
        >
          New article
        </button>
      </div>
      {creating && (
        <CreateForm
          kind={creating}
          pages={entries.filter((entry) => entry.kind === creating && !entry.deleted)}
          onCancel={() => setCreating(null)}
          onCreated={async (path) => {
            setCreating(null);
            await onCreated();
            onOpen(path);
          }}
        />
      )}
      {groups.map(([title, list]) => (
        <section key={title} aria-labelledby={`nav-${title}`}>
          <h2
            id={`nav-${title}`}
            css={css({ fontSize: 13, textTransform: 'uppercase', letterSpacing: '0.05em', color: color.mutedText, margin: '12px 0 4px' })}
          >
            {title}
          </h2>
          {list.length === 0 ? (
            <p css={ui.help}>None{query ? ' match' : ''}.</p>
          ) : (
            <ul css={css({ listStyle: 'none', margin: 0, padding: 0 })}>
              {list.map((entry) => (
                <li key={entry.path}>
                  <a
                    href={`?file=${encodeURIComponent(entry.path)}`}
                    aria-current={entry.path === openPath ? 'page' : undefined}
                    onClick={(event) => {
                      event.preventDefault();
                      onOpen(entry.path);
                    }}
                    css={css({
                      display: 'block',
                      padding: '6px 8px',
                      borderRadius: 6,
                      color: color.text,
                      textDecoration: 'none',
                      '&[aria-current="page"]': { background: color.accentTint, fontWeight: 700 },
                      '&:hover': { background: color.accentLight },
                      '&:focus-visible': { outline: `3px solid ${color.accent}` },
                    })}
                  >
                    <span css={css({ display: 'block', textDecoration: entry.deleted ? 'line-through' : 'none' })}>{entry.title}</span>
                    <span css={css({ display: 'flex', gap: 4, flexWrap: 'wrap', fontSize: 13, color: color.mutedText })}>
                      {entry.address && <code>{entry.address}</code>}
                      {entry.markedDraft && <span css={ui.badge}>Draft</span>}
                      {entry.isNew ? (
                        <span css={ui.badge}>New</span>
                      ) : entry.deleted ? (
                        <span css={ui.badge}>Deleted</span>
                      ) : entry.edited ? (
                        <span css={ui.badge}>Edited</span>
                      ) : null}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </nav>
  );
}

function CreateForm({
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
        <span css={ui.label}>{kind === 'page' ? 'Name (the address becomes /name)' : 'Name (the address becomes /blog/name)'}</span>
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
          <option value="">{kind === 'page' ? 'A blank page' : 'A blank article'}</option>
          {pages.map((entry) => (
            <option key={entry.path} value={entry.path}>
              A copy of {entry.title}
            </option>
          ))}
        </select>
      </label>
      <FormError id="create-error" error={error} />
      <SubmitOrCancel submit={`Create ${kind}`} onCancel={onCancel} />
    </form>
  );
}

function PublishPanel({
  canUndo,
  history,
  onDone,
  onOpen,
}: {
  canUndo: boolean;
  history: PublishRecord[];
  onDone: () => Promise<void>;
  onOpen: (path: string) => void;
}) {
  const [changes, setChanges] = useState<Changes | null>(null);
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'busy'; what: string } | { kind: 'done'; answer: PublishAnswer }>({
    kind: 'idle',
  });
  const headingRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    setChanges(await api.changes());
  }, []);
  useEffect(() => {
    void load();
    headingRef.current?.focus();
  }, [load]);

  const run = async (what: string, action: () => Promise<PublishAnswer>) => {
    setState({ kind: 'busy', what });
    let answer: PublishAnswer;
    try {
      answer = await action();
    } catch (error) {
      answer =
        error instanceof ApiError && isPublishAnswer(error.body)
          ? error.body
          : { ok: false, reason: 'error', message: error instanceof Error ? error.message : 'Publishing failed.' };
    }
    setState({ kind: 'done', answer });
    await onDone();
    await load();
  };

  return (
    <section aria-labelledby="publish-title" css={css({ maxWidth: 960 })}>
      <h1 id="publish-title" ref={headingRef} tabIndex={-1} css={css({ fontSize: 24, marginTop: 0 })}>
        Review and publish
      </h1>
      {state.kind === 'busy' && (
        <p role="status" css={ui.banner}>
          {state.what}: checking the content, building the site and switching the live site to it…
        </p>
      )}
      {state.kind === 'done' &&
        (state.answer.ok ? (
          <p role="status" css={ui.okBanner}>
            {state.answer.record.action === 'undo' ? 'The last publish was undone' : 'Published'}:{' '}
            {state.answer.record.files.map((file) => file.title).join(', ')} — live in {(state.answer.record.ms / 1000).toFixed(1)} s.
          </p>
        ) : (
          <div role="alert" css={ui.errorBanner}>
            <p css={css({ whiteSpace: 'pre-wrap' })}>{state.answer.message}</p>
            {state.answer.issues && <IssueLinks issues={state.answer.issues} onOpen={onOpen} />}
          </div>
        ))}
      {changes === null ? (
        <p role="status">Gathering the changes…</p>
      ) : changes.files.length === 0 ? (
        <p>There are no unpublished changes.</p>
      ) : (
        <>
          <p>
            {changes.files.length === 1 ? 'One file changes' : `${changes.files.length} files change`} when you publish. Lines starting with
            − go, lines starting with + come.
          </p>
          {changes.issues.length > 0 && state.kind !== 'done' && (
            <div css={ui.errorBanner}>
              <p>
                <strong>Publishing is not possible yet:</strong>{' '}
                {changes.issues.length === 1 ? 'one thing needs fixing' : `${changes.issues.length} things need fixing`}. Your drafts are
                kept.
              </p>
              <IssueLinks issues={changes.issues} onOpen={onOpen} />
            </div>
          )}
          {changes.files.map((file) => (
            <article key={file.path} css={css({ marginBottom: 16 })}>
              <h2 css={css({ fontSize: 17, margin: '0 0 4px' })}>
                {file.title} <span css={ui.badge}>{{ added: 'New', changed: 'Changed', deleted: 'Deleted' }[file.change]}</span>{' '}
                <a
                  href={`?file=${encodeURIComponent(file.path)}`}
                  onClick={(event) => {
                    event.preventDefault();
                    onOpen(file.path);
                  }}
                  css={css({ fontSize: 14, fontWeight: 400 })}
                >
                  Edit
                </a>
              </h2>
              <p css={ui.help}>
                <code>{file.path}</code>, last changed by {file.updatedBy}
              </p>
              <Diff hunks={file.hunks} />
            </article>
          ))}
        </>
      )}
      <div css={css({ display: 'flex', gap: 8, flexWrap: 'wrap', margin: '12px 0' })}>
        <button
          type="button"
          css={ui.button}
          disabled={!changes?.publishable || state.kind === 'busy'}
          onClick={() => void run('Publishing', api.publish)}
        >
          Publish
        </button>
        <button
          type="button"
          css={ui.secondaryButton}
          disabled={!canUndo || state.kind === 'busy'}
          onClick={() => {
            if (window.confirm('Undo the last publish? The pages go back to how they were before it.'))
              void run('Undoing the last publish', api.undo);
          }}
        >
          Undo last publish
        </button>
      </div>
      {history.length > 0 && (
        <section aria-labelledby="history-title">
          <h2 id="history-title" css={css({ fontSize: 17 })}>
            Recent publishes
          </h2>
          <ul>
            {history.map((record) => (
              <li key={record.id}>
                {new Date(record.at).toLocaleString()}: {record.action === 'undo' ? 'undo of ' : ''}
                {record.files.map((file) => file.title).join(', ')} by {record.user}
                {record.commit ? ` (commit ${record.commit.slice(0, 7)})` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}

function IssueLinks({ issues, onOpen }: { issues: Changes['issues']; onOpen: (path: string) => void }) {
  return (
    <ul css={css({ margin: 0, paddingLeft: 18 })}>
      {issues.map((issue, index) => (
        <li key={index}>
          <a
            href={`?file=${encodeURIComponent(issue.file)}`}
            css={css({ color: color.dangerInk })}
            onClick={(event) => {
              event.preventDefault();
              onOpen(issue.file);
            }}
          >
            {issue.file}
          </a>
          {issue.where ? `, ${issue.where}` : ''}: {issue.message}
        </li>
      ))}
    </ul>
  );
}

function Diff({ hunks }: { hunks: Changes['files'][number]['hunks'] }) {
  return (
    <div
      css={css({
        border: `1px solid ${color.border}`,
        borderRadius: 8,
        overflow: 'auto',
        fontFamily: font.mono,
        fontSize: 13,
      })}
    >
      {hunks.map((hunk, index) => (
        <div key={index} css={css({ borderTop: index ? `1px dashed ${color.strongBorder}` : 'none', padding: '4px 0' })}>
          {hunk.lines.map((line, lineIndex) => (
            <div
              key={lineIndex}
              data-diff={line.kind}
              css={css({
                whiteSpace: 'pre-wrap',
                padding: '0 8px',
                background: line.kind === 'added' ? color.added : line.kind === 'removed' ? color.removed : 'transparent',
                color: color.text,
              })}
            >
              <span aria-hidden="true">{line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '− ' : '  '}</span>
              <span css={ui.visuallyHidden}>{line.kind === 'added' ? 'Added: ' : line.kind === 'removed' ? 'Removed: ' : ''}</span>
              {line.text}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

function isPublishAnswer(value: unknown): value is PublishAnswer {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}
