// Editing one content file: the form generated from its schema, saved as a draft a moment after each
// change (useAutosave), the build's messages beside the fields and in a list, and the live preview
// beside it. The header, the status line, the conflict banner and the issue list are files of their own.
import { css } from '@emotion/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ContentIssue } from '../../../content-model/content-issue.ts';
import { api, ApiError, type Entry, type OpenedFile } from '../api.ts';
import { EditorProvider, issuesAtPath, isWarning, type DataPath, type EditorApi } from '../editor-context.tsx';
import { FieldEditor } from '../fields/FieldEditor.tsx';
import type { FormModel } from '../fields/form-model.ts';
import { ObjectEditor } from '../fields/ObjectEditor.tsx';
import { PreviewPane, type PreviewTarget } from '../PreviewPane.tsx';
import { RoiExample } from '../RoiExample.tsx';
import { ui } from '../ui.ts';
import { AppearancePreview, appearsInSearch } from './AppearancePreview.tsx';
import { ArticleForm } from './ArticleForm.tsx';
import { ConflictBanner } from './ConflictBanner.tsx';
import { moveIn, setIn } from './data-path.ts';
import { FileHeader } from './FileHeader.tsx';
import { articleSegments, fixedReason, linkTargetsOf, previewTarget, rootField } from './file-kinds.ts';
import { IssueList } from './IssueList.tsx';
import { ReviewFeedback } from './ReviewFeedback.tsx';
import { SaveStatusMessage } from './SaveStatusMessage.tsx';
import { useAutosave } from './useAutosave.ts';

/** Issue paths are relative to the whole file, as the form's paths are. */
const NO_PREFIX: DataPath = [];

export function FileEditor({
  path,
  model,
  onChanged,
  onOpen,
  onHistory,
  entries = [],
}: {
  path: string;
  model: FormModel;
  /** The navigator's entries: the name the site gives this file, and the pages a link can point at. */
  entries?: readonly Entry[];
  onChanged: () => void;
  onOpen: (path: string | null) => void;
  /** Shows the published versions of this file. */
  onHistory?: (path: string) => void;
}) {
  const [file, setFile] = useState<OpenedFile | null>(null);
  const [loadError, setLoadError] = useState('');
  const [issues, setIssues] = useState<ContentIssue[]>([]);
  const [openBlock, setOpenBlock] = useState<number | null>(null);
  const [focusedBlock, setFocusedBlock] = useState<number | null>(null);
  // The draft revision and the file's version on disk this tab last saw: the server refuses a save
  // made over anything newer (a conflict).
  const revision = useRef(0);
  const diskVersion = useRef<string | null>(null);

  const sendDraft = useCallback(
    async (value: unknown) => {
      const answer = await api.save(path, value, revision.current, diskVersion.current);
      revision.current = answer.revision;
      setIssues(answer.issues);
      setFile((current) => (current && current.edited !== answer.edited ? { ...current, edited: answer.edited } : current));
      onChanged();
      return answer;
    },
    [path, onChanged],
  );
  const { data, status: save, latest, opened, edit } = useAutosave(sendDraft);

  const load = useCallback(async () => {
    setLoadError('');
    try {
      const answer = await api.open(path);
      revision.current = answer.revision;
      diskVersion.current = answer.diskVersion;
      opened(answer.data, answer.edited);
      setFile(answer);
      setIssues(answer.issues);
    } catch (error) {
      setLoadError(error instanceof ApiError ? error.message : 'This file could not be opened.');
    }
  }, [path, opened]);

  useEffect(() => {
    setFile(null);
    setOpenBlock(null);
    void load();
  }, [load]);

  const issuePaths = useMemo(() => issues.map((issue) => ({ ...issue, segments: articleSegments(file, issue) })), [issues, file]);
  const [mistakes, warnings] = useMemo(
    () => [issuePaths.filter((issue) => !isWarning(issue)), issuePaths.filter(isWarning)] as const,
    [issuePaths],
  );

  const linkTargets = useMemo(() => linkTargetsOf(entries), [entries]);
  const editor: EditorApi = useMemo(
    () => ({
      model,
      setAt: (at, value) => edit((current) => setIn(current, at, value)),
      move: (at, offset) => edit((current) => moveIn(current, at, offset)),
      issuesAt: (at) => issuesAtPath(mistakes, NO_PREFIX, at),
      warningsAt: (at) => issuesAtPath(warnings, NO_PREFIX, at),
      countIssuesUnder: (at) =>
        mistakes.filter((issue) => issue.segments && at.every((segment, i) => String(issue.segments![i]) === String(segment))).length,
      focusBlock: (index) => setFocusedBlock(index),
      openBlock,
      setOpenBlock,
      Field: FieldEditor,
      Group: ObjectEditor,
      linkTargets,
      fixedReason: (at) => (file ? fixedReason(file, at) : undefined),
    }),
    [model, edit, mistakes, warnings, openBlock, linkTargets, file],
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
  // A page's search appearance sits with its search title and description, in its page settings.
  const hasPageSettings = file.kind !== 'article' && (root.fields ?? []).some((field) => field.section === 'settings');

  return (
    <EditorProvider value={editor}>
      <div css={ui.besidePreview}>
        <div>
          <FileHeader
            file={file}
            name={entries.find((entry) => entry.path === path)?.name}
            data={data}
            save={save}
            onReload={load}
            onOpen={onOpen}
            onChanged={onChanged}
            seenRevision={() => revision.current}
            {...(onHistory ? { onHistory } : {})}
          />
          <ReviewFeedback path={path} />
          {file.parseError && (
            <p role="alert" css={ui.errorBanner}>
              {file.parseError}
            </p>
          )}
          <SaveStatusMessage save={save} />
          {/* On a narrow screen the preview is under the form. */}
          <a
            href="#preview"
            css={[ui.linkButton, css({ display: 'inline-block', marginBottom: 10, '@media (min-width: 1100px)': { display: 'none' } })]}
          >
            Jump to the preview
          </a>
          {(save.kind === 'conflict' || file.diskChanged) && (
            <ConflictBanner
              file={file}
              data={latest()}
              seenRevision={revision.current}
              reason={save.kind === 'conflict' ? save.reason : 'disk-changed'}
              message={save.kind === 'conflict' ? save.message : file.diskChanged!.message}
              {...(file.diskChanged ? { hunks: file.diskChanged.hunks } : {})}
              onResolved={(to) => (to === path ? void load() : onOpen(to))}
            />
          )}
          <IssueList issues={issuePaths} />
          {!file.deleted && appearsInSearch(file.kind, data) && !hasPageSettings && <AppearancePreview path={path} save={save} />}
          {file.deleted ? (
            <p css={ui.banner}>This file will be deleted when you publish. Discard the change to keep it.</p>
          ) : data !== null && file.kind === 'article' ? (
            <ArticleForm root={root} data={data} />
          ) : data !== null ? (
            <ObjectEditor
              field={root}
              value={data}
              path={[]}
              bare
              settingsExtra={appearsInSearch(file.kind, data) ? <AppearancePreview path={path} save={save} /> : undefined}
            />
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
