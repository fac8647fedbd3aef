// The studio's frame: the header, the navigator beside the main area, and which screen the main area
// shows (the file being edited, the publish panel, the history, or a welcome). Each screen is in a
// folder of its own: navigator/, editor/, publish/, history/.
import { css } from '@emotion/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { FormModelProvider } from './changes/form-model-context.ts';
import { buildFormModel, type FormModel } from './fields/form-model.ts';
import { api, ApiError, type Entry, type PublishRecord } from './api.ts';
import { FileEditor } from './editor/FileEditor.tsx';
import { HistoryScreen } from './history/HistoryScreen.tsx';
import { historyViewFromSearch, historyViewSearch, type HistoryView } from './history/version-words.ts';
import { VersionView } from './history/VersionView.tsx';
import { Navigator } from './navigator/Navigator.tsx';
import { PublishPanel } from './publish/PublishPanel.tsx';
import { ReviewScreen } from './review/ReviewScreen.tsx';
import { ScheduleFailures } from './ScheduleFailures.tsx';
import { color, ui } from './ui.ts';

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
  // A link from an e-mail opens a review request (`?review=<id>`) or the publish screen (`?publish`).
  const [panel, setPanel] = useState<'publish' | 'reviews' | null>(() => panelFromSearch(window.location.search));
  const [linkedReview, setLinkedReview] = useState(() => new URLSearchParams(window.location.search).get('review'));
  useEffect(() => {
    // Followed once: the review requests opened again later open on the newest.
    if (panel !== 'reviews') setLinkedReview(null);
  }, [panel]);
  // The history, a file's versions, or one version: in the address, so it survives a reload.
  const [historyView, setHistoryView] = useState<HistoryView | null>(() => historyViewFromSearch(window.location.search));
  // Requests waiting for review, for a reviewer (an admin when the studio requires review); null for anyone else.
  const [waitingReviews, setWaitingReviews] = useState<number | null>(null);
  const refreshReviews = useCallback(async () => {
    const answer = await api.reviews().catch(() => null);
    setWaitingReviews(answer?.mayReview ? answer.waiting : null);
  }, []);
  useEffect(() => {
    void refreshReviews();
  }, [refreshReviews, panel]);
  const [menuOpen, setMenuOpen] = useState(false);
  const [moreOpen, setMoreOpen] = useState(false);
  const moreButton = useRef<HTMLButtonElement>(null);
  // Escape closes the header's "More" panel and gives the focus back to its button.
  useEffect(() => {
    if (!moreOpen) return;
    const close = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMoreOpen(false);
      moreButton.current?.focus();
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [moreOpen]);

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
          // What is wrong in the schema is for a developer (it names the file and the property): it
          // goes to the browser's console, and the person editing is told who can fix it.
          console.error(error);
          setModelError('The editing forms cannot be shown: the rules the site’s content follows have a mistake a developer must fix.');
        }
      },
      (error: unknown) =>
        setModelError(error instanceof ApiError ? error.message : 'The editing forms could not be loaded: reload the page to try again.'),
    );
    void refresh();
  }, [refresh]);

  const open = useCallback((path: string | null) => {
    setOpenPath(path);
    setPanel(null);
    setHistoryView(null);
    setMenuOpen(false);
    setMoreOpen(false);
    const url = new URL(window.location.href);
    url.search = openPathSearch(path);
    window.history.replaceState(null, '', url);
  }, []);

  const openPathRef = useRef(openPath);
  openPathRef.current = openPath;
  const showHistory = useCallback((view: HistoryView | null) => {
    setHistoryView(view);
    setPanel(null);
    setMenuOpen(false);
    const url = new URL(window.location.href);
    url.search = view ? historyViewSearch(view) : openPathSearch(openPathRef.current);
    window.history.replaceState(null, '', url);
  }, []);

  // A draft waiting for its scheduled publish is not waiting for this person's publish.
  const edited = entries.filter((entry) => entry.edited && !entry.scheduled).length;

  return (
    <div css={css({ minHeight: '100vh', display: 'grid', gridTemplateRows: 'auto 1fr' })}>
      <header css={header}>
        <button
          type="button"
          css={[ui.secondaryButton, onlyNarrow]}
          aria-expanded={menuOpen}
          aria-controls="navigator"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Pages
        </button>
        <strong css={css({ fontSize: 18, flex: 1, whiteSpace: 'nowrap', '@media (max-width: 599px)': { display: 'none' } })}>
          Content studio
        </strong>
        <button
          type="button"
          css={[ui.button, css({ whiteSpace: 'nowrap', '@media (max-width: 599px)': { marginLeft: 'auto' } })]}
          onClick={() => {
            if (historyView) showHistory(null);
            setPanel(panel === 'publish' ? null : 'publish');
          }}
          aria-expanded={panel === 'publish'}
        >
          Review and publish{edited > 0 ? ` (${edited})` : ''}
        </button>
        {/* On a narrow screen the header is one line: what follows sits behind "More". */}
        <button
          type="button"
          css={[ui.secondaryButton, onlyNarrow, css({ whiteSpace: 'nowrap' })]}
          aria-expanded={moreOpen}
          aria-controls="studio-more"
          ref={moreButton}
          onClick={() => setMoreOpen(!moreOpen)}
        >
          More{waitingReviews ? ` (${waitingReviews})` : ''}
        </button>
        <div id="studio-more" css={[more, !moreOpen && moreClosed]}>
          <button
            type="button"
            css={ui.secondaryButton}
            aria-expanded={historyView?.kind === 'history' && historyView.path === null}
            onClick={() => {
              setMoreOpen(false);
              showHistory(historyView?.kind === 'history' && historyView.path === null ? null : { kind: 'history', path: null });
            }}
          >
            History
          </button>
          {waitingReviews !== null && (
            <button
              type="button"
              css={ui.secondaryButton}
              onClick={() => {
                setMoreOpen(false);
                if (historyView) showHistory(null);
                setPanel(panel === 'reviews' ? null : 'reviews');
              }}
              aria-expanded={panel === 'reviews'}
            >
              Review requests{waitingReviews > 0 ? ` (${waitingReviews})` : ''}
            </button>
          )}
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
        </div>
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
          <FormModelProvider value={model}>
            {modelError && (
              <p role="alert" css={ui.errorBanner}>
                {modelError}
              </p>
            )}
            <ScheduleFailures user={user} />
            {historyView?.kind === 'history' ? (
              <HistoryScreen
                key={historyView.path ?? ''}
                path={historyView.path}
                name={entries.find((entry) => entry.path === historyView.path)?.name}
                onOpenVersion={(version, path) => showHistory({ kind: 'version', version, path, from: historyView.path })}
                onShowAll={() => showHistory({ kind: 'history', path: null })}
              />
            ) : historyView?.kind === 'version' ? (
              <VersionView
                key={`${historyView.version} ${historyView.path}`}
                version={historyView.version}
                path={historyView.path}
                backLabel={historyView.from ? 'Back to the history of this page' : 'Back to the history'}
                onBack={() => showHistory({ kind: 'history', path: historyView.from })}
                onEdit={open}
                onRestored={refresh}
              />
            ) : panel === 'reviews' ? (
              <ReviewScreen onDone={() => void refresh().then(refreshReviews)} openId={linkedReview} />
            ) : panel === 'publish' ? (
              <PublishPanel
                canUndo={canUndo}
                history={history}
                onDone={async () => {
                  await refresh();
                }}
                onOpen={open}
              />
            ) : openPath && model ? (
              <FileEditor
                key={openPath}
                path={openPath}
                model={model}
                entries={entries}
                onChanged={() => void refresh()}
                onOpen={open}
                onHistory={(path) => showHistory({ kind: 'history', path })}
              />
            ) : (
              <Welcome />
            )}
          </FormModelProvider>
        </main>
      </div>
    </div>
  );
}

// The studio's frame is one line on a phone: the navigator and the less used actions open from it.
const NARROW = '@media (max-width: 899px)';
const WIDE = '@media (min-width: 900px)';

const header = css({
  position: 'relative',
  display: 'flex',
  gap: 10,
  alignItems: 'center',
  flexWrap: 'wrap',
  padding: '8px 16px',
  borderBottom: `1px solid ${color.border}`,
  background: color.surface,
  [NARROW]: { flexWrap: 'nowrap', gap: 6, padding: '8px', '& > button': { padding: '6px 9px', fontSize: 15 } },
});
const onlyNarrow = css({ [WIDE]: { display: 'none' } });
/** The header's less used actions: in the line on a wide screen, a panel under "More" on a narrow one. */
const more = css({
  display: 'contents',
  [NARROW]: {
    position: 'absolute',
    top: '100%',
    right: 8,
    zIndex: 10,
    display: 'grid',
    justifyItems: 'start',
    gap: 8,
    padding: 12,
    background: color.surface,
    border: `1px solid ${color.border}`,
    borderRadius: 8,
    boxShadow: '0 6px 18px rgba(15, 23, 42, 0.15)',
  },
});
const moreClosed = css({ [NARROW]: { display: 'none' } });

/** Where the pages are differs with the screen: beside the form on a wide one, behind "Pages" on a phone. */
function Welcome() {
  return (
    <div css={css({ maxWidth: 640 })}>
      <h1 css={css({ fontSize: 24 })}>Change the site without touching code</h1>
      <p>
        <span css={css({ [NARROW]: { display: 'none' } })}>Choose a page on the left to edit it.</span>
        <span css={css({ [WIDE]: { display: 'none' } })}>
          Press “Pages” at the top to see the site’s pages, then choose one to edit it.
        </span>{' '}
        Your changes are kept as drafts, invisible on the live site, until you press “Review and publish”.
      </p>
      <p>
        The preview <span css={css({ [NARROW]: { display: 'none' } })}>beside</span>
        <span css={css({ [WIDE]: { display: 'none' } })}>under</span> the form is the real page, drawn the way visitors will see it, at
        phone or desktop width.
      </p>
    </div>
  );
}

/** The screen a link opens: `?review=<id>` the review requests, `?publish` the publish screen. */
function panelFromSearch(search: string): 'publish' | 'reviews' | null {
  const query = new URLSearchParams(search);
  if (query.get('review')) return 'reviews';
  return query.has('publish') ? 'publish' : null;
}

function openPathSearch(path: string | null): string {
  return path ? `?${new URLSearchParams({ file: path }).toString()}` : '';
}
