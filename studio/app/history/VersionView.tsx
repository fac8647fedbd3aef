// "This page as it was": one file as a published version left it, drawn read-only by the site's own
// renderer (the preview beside the editor), what that version changed in the form's words, its
// lines against the page today one click away, and Restore, which publishes that version again as a
// new publish (asked first; it can be undone like any other).
import { css } from '@emotion/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, type PageVersion, type PublishAnswer, type PublishRunView } from '../api.ts';
import { previewTarget } from '../editor/file-kinds.ts';
import { ChangeList, summaryStyle } from '../changes/ChangeList.tsx';
import { IssueLinks } from '../publish/IssueLinks.tsx';
import { Diff } from '../publish/Diff.tsx';
import { startAndFollow } from '../publish/follow-run.ts';
import { PublishProgress } from '../publish/PublishProgress.tsx';
import { PreviewPane } from '../PreviewPane.tsx';
import { ui } from '../ui.ts';
import { ACTION_WORDS, localTime, shortCommit } from './version-words.ts';

const NO_BLOCK = () => {};

export function VersionView({
  version,
  path,
  backLabel,
  onBack,
  onEdit,
  onRestored,
}: {
  version: string;
  path: string;
  backLabel: string;
  onBack: () => void;
  onEdit: (path: string) => void;
  /** After a restore: the studio reads its files and the last publish again. */
  onRestored: () => Promise<void>;
}) {
  const [shown, setShown] = useState<PageVersion | null>(null);
  const [loadError, setLoadError] = useState('');
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'busy'; run?: PublishRunView } | { kind: 'done'; answer: PublishAnswer }>({
    kind: 'idle',
  });
  const headingRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    setLoadError('');
    try {
      setShown(await api.version(version, path));
    } catch (error) {
      setLoadError(error instanceof ApiError ? error.message : 'This version could not be read.');
    }
  }, [version, path]);

  useEffect(() => {
    setShown(null);
    setState({ kind: 'idle' });
    void load().then(() => headingRef.current?.focus());
  }, [load]);

  const preview = useMemo(
    () => (shown ? previewTarget({ kind: shown.kind, name: shown.fileName, deleted: shown.text === null }, shown.data) : null),
    [shown],
  );

  if (loadError) {
    return (
      <div role="alert" css={ui.errorBanner}>
        <p>{loadError}</p>
        <button type="button" css={ui.secondaryButton} onClick={onBack}>
          {backLabel}
        </button>
      </div>
    );
  }
  if (!shown) return <p role="status">Reading this version…</p>;

  const when = localTime(shown.version.at);
  const restore = async () => {
    const question = [
      shown.text === null
        ? `Restore this version by deleting “${shown.name}”? It did not exist then.`
        : `Restore “${shown.name}” as it was published on ${when}?`,
      'This makes a new publish: every later version stays in the history, and you can undo it like any other publish.',
      shown.hasDraft ? 'The page’s unpublished changes stay as a draft, which will then show as changed since you began it.' : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (!window.confirm(question)) return;
    setState({ kind: 'busy' });
    const answer = await startAndFollow(
      () => api.restore(version, path, shown.liveVersion),
      (run) => setState({ kind: 'busy', run }),
      'The restore failed.',
    );
    setState({ kind: 'done', answer });
    await onRestored();
    if (answer.ok) setShown(await api.version(version, path).catch(() => shown));
  };

  return (
    <div css={ui.besidePreview}>
      <section aria-labelledby="version-title">
        <p css={css({ margin: '0 0 8px' })}>
          <button type="button" css={ui.linkButton} onClick={onBack}>
            {backLabel}
          </button>
        </p>
        <h1 id="version-title" ref={headingRef} tabIndex={-1} css={css({ fontSize: 24, margin: '0 0 4px' })}>
          {shown.name} as published on {when}
        </h1>
        <p css={ui.help}>
          {ACTION_WORDS[shown.version.action]} by {shown.version.user}
          {shown.version.commit ? (
            <>
              , commit <code>{shortCommit(shown.version.commit)}</code>
            </>
          ) : null}
          . <code>{shown.path}</code>
        </p>
        {state.kind === 'busy' && <PublishProgress what="Restoring" run={state.run} />}
        {state.kind === 'done' &&
          (state.answer.ok ? (
            <p role="status" css={ui.okBanner}>
              Restored: {shown.name} is live again as it was on {when} — live in {(state.answer.record.ms / 1000).toFixed(1)} s. To take it
              back, use “Undo last publish” in Review and publish.
            </p>
          ) : (
            <div role="alert" css={ui.errorBanner}>
              <p css={css({ whiteSpace: 'pre-wrap', marginTop: 0 })}>{state.answer.message}</p>
              {state.answer.issues && <IssueLinks issues={state.answer.issues} onOpen={onEdit} />}
            </div>
          ))}
        {shown.hasDraft && (
          <p css={ui.banner}>
            This page has unpublished changes. A restore leaves them as a draft; when you open the page, the studio will say it changed
            since you began and offer to reload it or keep both versions.
          </p>
        )}
        {shown.text === null && <p css={ui.banner}>The page did not exist in this version: restoring it deletes the page.</p>}
        {shown.parseError && (
          <p role="alert" css={ui.errorBanner}>
            {shown.parseError}
          </p>
        )}
        <div css={css({ display: 'flex', gap: 8, flexWrap: 'wrap', margin: '12px 0' })}>
          <button type="button" css={ui.button} disabled={shown.same || state.kind === 'busy'} onClick={() => void restore()}>
            {shown.text === null ? 'Restore this version (delete the page)' : 'Restore this version'}
          </button>
          {shown.liveVersion !== null && (
            <button type="button" css={ui.secondaryButton} onClick={() => onEdit(shown.path)}>
              Edit the page as it is today
            </button>
          )}
        </div>
        <h2 css={css({ fontSize: 17, margin: '16px 0 4px' })}>What this version changed</h2>
        <ChangeList file={{ path: shown.path, change: versionChange(shown), hunks: [], before: shown.previousData, after: shown.data }} />
        <h2 css={css({ fontSize: 17, margin: '16px 0 4px' })}>Compared with today</h2>
        {shown.same ? (
          <p>This version is the same as the page today: there is nothing to restore.</p>
        ) : (
          <>
            <p css={css({ marginTop: 0 })}>
              {shown.liveVersion === null
                ? 'The page does not exist today: restoring brings it back.'
                : 'The page today differs from this version: restoring brings this version back.'}
            </p>
            <details>
              <summary css={summaryStyle}>Show the file’s lines a restore changes</summary>
              <p css={[ui.help, css({ margin: '4px 0' })]}>
                Lines starting with − are in the page today and go when you restore; lines starting with + come back.
              </p>
              <Diff hunks={shown.hunks} />
            </details>
          </>
        )}
      </section>
      {preview ? (
        <div>
          <p css={ui.help}>Read-only. Drawn with today’s site settings (header, footer, colours) and today’s other pages and articles.</p>
          <PreviewPane target={preview} focusedBlock={null} onSelectBlock={NO_BLOCK} title="Preview of this version" />
        </div>
      ) : (
        <p css={ui.help}>{shown.text === null ? 'There is no page to preview in this version.' : 'This file has no page to preview.'}</p>
      )}
    </div>
  );
}

/** What the version did to the file: added it (nothing before), deleted it (nothing in it), or changed it. */
function versionChange(shown: PageVersion): 'added' | 'changed' | 'deleted' {
  const listed = shown.version.files.find((file) => file.path === shown.path)?.change;
  if (listed) return listed;
  if (shown.text === null) return 'deleted';
  return shown.previousData === null ? 'added' : 'changed';
}
