// The publish screen: the unpublished changes this person's publish carries, in the form's words
// with each file's lines one click away (ChangeList; where review is required, an admin's publish
// leaves out changes by others, listed apart: they go out by their review), what stops publishing
// (with links to the files), one-click publish (now or at a set time; "Ask for review" where an
// admin must review first: PublishChoice) and undo of the last publish, and the recent publishes. A
// publish sends the changes shown, with each text's fingerprint: a change saved since refuses it,
// and nothing else goes out. A publish or an undo shows its steps as the studio goes through them
// (follow-run.ts); a publish already running when the screen opens (started in another tab, or
// before a reload) is shown and followed the same way; of another person's, the screen says only
// that it is under way and whose.
import { css } from '@emotion/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type Changes, type PublishAnswer, type PublishRecord, type PublishRunView } from '../api.ts';
import { ChangeList } from '../changes/ChangeList.tsx';
import { pendingSaves } from '../editor/pending-saves.ts';
import { sinceTime } from '../local-time.ts';
import { color, ui } from '../ui.ts';
import { DeliveryStatus, LiveLinks } from './DeliveryStatus.tsx';
import { followRun, startAndFollow } from './follow-run.ts';
import { IssueLinks } from './IssueLinks.tsx';
import { PublishChoice } from './PublishChoice.tsx';
import { PublishHistory } from './PublishHistory.tsx';
import { PublishProgress } from './PublishProgress.tsx';
import { listWords } from '../../../back-office/list-words.ts';
import { ScheduledChanges } from './ScheduledChanges.tsx';
import { usePublishStatus } from './usePublishStatus.ts';

export function PublishPanel({
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
  const [state, setState] = useState<
    { kind: 'idle' } | { kind: 'busy'; what: string; run?: PublishRunView } | { kind: 'done'; answer: PublishAnswer }
  >({
    kind: 'idle',
  });
  const [waitingForSaves, setWaitingForSaves] = useState(false);
  // Another person's publish under way: only that it runs, and whose (its steps and result are theirs).
  const [elsewhere, setElsewhere] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const delivery = usePublishStatus(history, state.kind === 'done' && state.answer.ok ? state.answer.record : undefined);
  const lastLoad = useRef(0);

  // The changes as the server will publish them, once every edit still on its way has been saved:
  // an edit typed a moment ago is sent at once rather than after typing pauses. Only the newest
  // answer is shown, so a slow earlier one never replaces it.
  const load = useCallback(async () => {
    const ticket = ++lastLoad.current;
    if (pendingSaves.size > 0) {
      setWaitingForSaves(true);
      pendingSaves.flushAll();
      await pendingSaves.settled();
    }
    const answer = await api.changes();
    if (ticket !== lastLoad.current) return;
    setWaitingForSaves(false);
    setChanges(answer);
  }, []);
  useEffect(() => {
    void load();
    headingRef.current?.focus();
    // A save that lands while the screen is open (an edit made just before it opened) changes what
    // would be published: read the changes again.
    return pendingSaves.onChange(() => {
      if (pendingSaves.size === 0) void load();
    });
  }, [load]);

  const finish = useCallback(
    async (answer: PublishAnswer) => {
      setState({ kind: 'done', answer });
      await onDone();
      await load();
    },
    [onDone, load],
  );

  const run = async (what: string, start: () => Promise<{ run: PublishRunView }>) => {
    setState({ kind: 'busy', what });
    await finish(await startAndFollow(start, (progress) => setState({ kind: 'busy', what, run: progress }), 'Publishing failed.'));
  };

  // A publish already under way when the screen opens is followed to its end.
  const finishRef = useRef(finish);
  finishRef.current = finish;
  useEffect(() => {
    const leaving = new AbortController();
    api.publishStatus().then(
      async ({ running, elsewhere: others = [] }) => {
        const current = running[0];
        if (leaving.signal.aborted) return;
        const other = others[0];
        if (!current && other)
          setElsewhere(`${RUN_WORDS[other.action]} started by ${other.user} is under way; a publish you start now waits for it to finish.`);
        if (!current) return;
        const what = `${RUN_WORDS[current.action]} (started by ${current.user})`;
        const answer = await followRun(current, (progress) => setState({ kind: 'busy', what, run: progress }), leaving.signal);
        if (!leaving.signal.aborted) await finishRef.current(answer);
      },
      () => undefined, // nothing known to be running: the screen works as it is
    );
    return () => leaving.abort();
  }, []);

  return (
    <section aria-labelledby="publish-title" css={css({ maxWidth: 960 })}>
      <h1 id="publish-title" ref={headingRef} tabIndex={-1} css={css({ fontSize: 24, marginTop: 0 })}>
        Review and publish
      </h1>
      {elsewhere && state.kind === 'idle' && (
        <p role="status" css={ui.banner}>
          {elsewhere}
        </p>
      )}
      {state.kind === 'busy' && <PublishProgress what={state.what} run={state.run} />}
      {state.kind === 'done' &&
        (state.answer.ok ? (
          <>
            <p role="status" css={ui.okBanner}>
              {resultWords(state.answer.record)}
            </p>
            {delivery.latest && <DeliveryStatus record={delivery.latest} />}
            {delivery.latest && <LiveLinks record={delivery.latest} />}
          </>
        ) : (
          <div role="alert" css={ui.errorBanner}>
            <p css={css({ whiteSpace: 'pre-wrap', margin: 0 })}>{state.answer.message}</p>
            {state.answer.issues && <IssueLinks issues={state.answer.issues} onOpen={onOpen} />}
          </div>
        ))}
      {waitingForSaves ? (
        <p role="status">Saving your last edit, then gathering the changes…</p>
      ) : changes === null ? (
        <p role="status">Gathering the changes…</p>
      ) : changes.files.length === 0 ? (
        <p>
          There are no {changes.scheduled?.length ? 'other ' : ''}unpublished changes{changes.held.length > 0 ? ' of yours' : ''}.
        </p>
      ) : (
        <>
          <p>
            {/* Worded for everyone who reads it: where review is required, an editor asks and an admin publishes. */}
            {changes.files.length === 1 ? 'One file changes' : `${changes.files.length} files change`} once published.
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
          {changes.warnings.length > 0 && state.kind !== 'done' && (
            <div css={ui.banner}>
              <p>
                <strong>{changes.warnings.length === 1 ? '1 suggestion' : `${changes.warnings.length} suggestions`}</strong> for readers and
                search engines; publishing is not stopped by them.
              </p>
              <IssueLinks issues={changes.warnings} onOpen={onOpen} />
            </div>
          )}
        </>
      )}
      {changes?.scheduled && !waitingForSaves && <ScheduledChanges scheduled={changes.scheduled} onChanged={() => void load()} />}
      {/* The actions come before the list of changes, so on a phone Publish is in sight without scrolling. */}
      <PublishChoice
        publishable={Boolean(changes?.publishable) && !waitingForSaves}
        busy={state.kind === 'busy'}
        seen={changes?.files ?? []}
        onPublish={() => void run(RUN_WORDS.publish, () => api.publish(changes?.files ?? []))}
        onChanged={() => {
          // A publish scheduled or cancelled moves its pages out of, or back into, the list of changes.
          void onDone();
          void load();
        }}
      >
        <button
          type="button"
          css={ui.secondaryButton}
          disabled={!canUndo || state.kind === 'busy'}
          onClick={() => {
            if (window.confirm('Undo the last publish? The pages go back to how they were before it.')) void run(RUN_WORDS.undo, api.undo);
          }}
        >
          Undo last publish
        </button>
      </PublishChoice>
      {changes &&
        !waitingForSaves &&
        changes.files.map((file) => (
          <article key={file.path} css={css({ borderTop: `1px solid ${color.border}`, padding: '12px 0 4px' })}>
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
            <p css={ui.help}>Changed by {file.changedBy.join(', ')}</p>
            <ChangeList file={file} name={file.title} />
          </article>
        ))}
      {changes && changes.held.length > 0 && !waitingForSaves && <HeldChanges held={changes.held} />}
      <PublishHistory history={delivery.history} />
    </section>
  );
}

/** Changes by others that this person's publish leaves out: they go live once reviewed. */
function HeldChanges({ held }: { held: Changes['held'] }) {
  return (
    <section aria-labelledby="held-title" css={ui.banner}>
      <h2 id="held-title" css={css({ fontSize: 17, margin: '0 0 4px' })}>
        Not published from here
      </h2>
      <p css={css({ margin: '0 0 4px' })}>
        {held.length === 1 ? 'One other file holds' : `${held.length} other files hold`} changes by others. This publish leaves them out;
        they go live once reviewed, from the review requests:
      </p>
      <ul css={css({ margin: 0 })}>
        {held.map((file) => (
          <li key={file.path}>
            {file.title}, changed by {file.changedBy.join(', ')}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * What a publish came to, for the person who made it: "Published: Home and About. Live since 10:42."
 * With a team's copy or a live site to watch, whether it is live is for the status below to say.
 */
function resultWords(record: PublishRecord): string {
  const pages = listWords(record.files.map((file) => file.title));
  const done = record.action === 'undo' ? `The last publish was undone: ${pages}.` : `Published: ${pages}.`;
  const watched = record.status?.remote || record.status?.live;
  return watched ? done : `${done} Live since ${sinceTime(record.at)}.`;
}

/** What the progress banner says is under way. */
const RUN_WORDS: Record<PublishRunView['action'], string> = {
  publish: 'Publishing',
  undo: 'Undoing the last publish',
  restore: 'Restoring a version',
};
