// The history: every published version of the content, newest first, 20 at a time ("Show older"),
// or only one file's versions. Each says what happened in words ("Home and About published by Mia,
// approved by Sam, Tue 1 Dec, 10:42"; a developer's commit, "Changed outside the studio by …"), in
// the team's time zone, with the commit and its whole message one click away for developers, and
// the pages it changed; a page opens "this page as it was" (VersionView).
import { css } from '@emotion/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, type HistoryVersion } from '../api.ts';
import { color, ui } from '../ui.ts';
import { personName } from '../../person-name.ts';
import { ACTION_WORDS, CHANGE_WORDS, historyViewSearch, localTime, shortCommit } from './version-words.ts';

export function HistoryScreen({
  path,
  name,
  onOpenVersion,
  onShowAll,
}: {
  /** Only this file's versions; null: every publish. */
  path: string | null;
  /** What the studio calls that file. */
  name?: string | undefined;
  onOpenVersion: (version: string, path: string) => void;
  onShowAll: () => void;
}) {
  const [versions, setVersions] = useState<HistoryVersion[] | null>(null);
  const [head, setHead] = useState<string | null>(null);
  const [nextOffset, setNextOffset] = useState<number | null>(null);
  const [git, setGit] = useState(true);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After "Show older", keyboard users go on from the first version that came in.
  const [focusFrom, setFocusFrom] = useState<number | null>(null);
  const firstOlder = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (focusFrom !== null) firstOlder.current?.focus();
  }, [focusFrom]);

  const load = useCallback(async () => {
    setError('');
    setVersions(null);
    try {
      const page = await api.history({ path });
      setVersions(page.versions);
      setHead(page.head);
      setNextOffset(page.nextOffset);
      setGit(page.git);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The history could not be read.');
    }
  }, [path]);

  useEffect(() => {
    void load();
    headingRef.current?.focus();
  }, [load]);

  const showOlder = async () => {
    if (nextOffset === null) return;
    setLoadingOlder(true);
    setError('');
    try {
      const page = await api.history({ path, head, offset: nextOffset });
      setFocusFrom(versions?.length ?? 0);
      setVersions((current) => [...(current ?? []), ...page.versions]);
      setNextOffset(page.nextOffset);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The older versions could not be read.');
    } finally {
      setLoadingOlder(false);
    }
  };

  const title = path ? `History of ${name ?? path}` : 'History';

  return (
    <section aria-labelledby="history-title" css={css({ maxWidth: 960 })}>
      <h1 id="history-title" ref={headingRef} tabIndex={-1} css={css({ fontSize: 24, marginTop: 0 })}>
        {title}
      </h1>
      <p css={css({ marginTop: 0 })}>
        {path ? 'Every published version of this page, newest first.' : 'Every version of the site that was published, newest first.'}{' '}
        Choose a page to see it as it was, compare it with today and restore it.{' '}
        {versions === null
          ? ''
          : git
            ? 'It also lists publishes made on other computers, and changes developers made outside this studio (“Changed outside the studio”).'
            : 'This project has no git repository: the history is the studio’s own record of its publishes.'}
      </p>
      {path && (
        <p>
          <button type="button" css={ui.linkButton} onClick={onShowAll}>
            Show every publish
          </button>
        </p>
      )}
      {error && (
        <div role="alert" css={ui.errorBanner}>
          <p css={css({ margin: 0 })}>{error}</p>
          <button type="button" css={ui.secondaryButton} onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      {versions === null ? (
        !error && <p role="status">Reading the history…</p>
      ) : versions.length === 0 ? (
        <p>{path ? 'This page has not been published yet.' : 'Nothing has been published yet.'}</p>
      ) : (
        <ol aria-label={path ? 'Versions' : 'Publishes'} css={css({ listStyle: 'none', margin: 0, padding: 0 })}>
          {versions.map((version, index) => (
            <li key={version.id} css={css({ borderTop: `1px solid ${color.border}`, padding: '10px 0' })} data-version={version.action}>
              <h2 css={css({ fontSize: 16, margin: '0 0 2px' })}>
                {version.summary ?? `${ACTION_WORDS[version.action]} by ${personName(version.user)}`}, {localTime(version.at)}
              </h2>
              {version.commit && (
                <details css={css({ fontSize: 14, color: color.mutedText })}>
                  <summary css={css({ cursor: 'pointer', width: 'fit-content' })}>Details for developers</summary>
                  <p css={css({ margin: '4px 0 0' })}>
                    Commit <code>{shortCommit(version.commit)}</code>: {version.subject}
                  </p>
                  {version.message && (
                    <pre css={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: '4px 0 0', fontSize: 13 })}>
                      {version.message}
                    </pre>
                  )}
                </details>
              )}
              <ul css={css({ margin: '4px 0 0', paddingLeft: 18 })}>
                {version.files.map((file, fileIndex) => (
                  <li key={file.path}>
                    <a
                      ref={index === focusFrom && fileIndex === 0 ? firstOlder : undefined}
                      href={historyViewSearch({ kind: 'version', version: version.id, path: file.path, from: path })}
                      onClick={(event) => {
                        event.preventDefault();
                        onOpenVersion(version.id, file.path);
                      }}
                    >
                      {file.name}
                      <span css={ui.visuallyHidden}> as it was after this {version.action === 'commit' ? 'commit' : 'publish'}</span>
                    </a>{' '}
                    <span css={ui.badge}>{CHANGE_WORDS[file.change]}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      {nextOffset !== null && (
        <button type="button" css={[ui.secondaryButton, css({ marginTop: 12 })]} disabled={loadingOlder} onClick={() => void showOlder()}>
          {loadingOlder ? 'Reading older versions…' : 'Show older'}
        </button>
      )}
    </section>
  );
}
