// The reviewer's screen (an admin, when the studio requires review): the requests waiting for
// review, a page at a time, each named by its files, editor and note. A request's changes (in the
// form's words, with the file's lines one click away, and the preview of the file chosen) are read
// when it is opened (the newest opens by itself), and its three decisions come with them: publish it
// now (its steps shown as the studio goes through them, as on the publish screen), publish it at a
// set time, or send it back with a comment saying what to change. Every text an editor or reviewer
// wrote is shown as text.
import { css } from '@emotion/react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { api, ApiError, type PublishRunView, type ReviewFileView, type ReviewRequestDetail, type ReviewRequestView } from '../api.ts';
import { ChangeList } from '../changes/ChangeList.tsx';
import { PreviewPane, type PreviewTarget } from '../PreviewPane.tsx';
import { startAndFollow } from '../publish/follow-run.ts';
import { PublishProgress } from '../publish/PublishProgress.tsx';
import { SchedulePublish } from '../publish/SchedulePublish.tsx';
import { color, ui } from '../ui.ts';
import { localTime } from '../local-time.ts';

export function ReviewScreen({
  onDone,
  openId = null,
}: {
  onDone: () => void;
  /** The request a link named: opened instead of the newest, or said to be decided when it waits no more. */
  openId?: string | null;
}) {
  const [pages, setPages] = useState<{ requests: ReviewRequestView[]; nextOffset: number | null } | null>(null);
  const [loadError, setLoadError] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The first page again (after a decision, the list has changed under every later page), and the
  // request a link named, still waiting, even when it is on a later page.
  const load = useCallback(async () => {
    try {
      const answer = await api.reviews();
      let requests = answer.requests;
      if (openId !== null && !requests.some((request) => request.id === openId)) {
        const named = await api.reviewRequest(openId).then(
          (found) => found.request,
          () => null,
        );
        if (named?.status === 'waiting') requests = [named, ...requests];
      }
      setPages({ requests, nextOffset: answer.nextOffset });
    } catch (error) {
      setLoadError(error instanceof ApiError ? error.message : 'The review requests could not be loaded.');
    }
  }, [openId]);
  useEffect(() => {
    void load();
    headingRef.current?.focus();
  }, [load]);

  const loadMore = async (offset: number) => {
    try {
      const answer = await api.reviews(offset);
      setPages((shown) => ({
        requests: [
          ...(shown?.requests ?? []),
          ...answer.requests.filter((request) => !shown?.requests.some((seen) => seen.id === request.id)),
        ],
        nextOffset: answer.nextOffset,
      }));
    } catch (error) {
      setLoadError(error instanceof ApiError ? error.message : 'The review requests could not be loaded.');
    }
  };

  const decided = async (text: string, ok: boolean) => {
    setOutcome({ ok, text });
    await load();
    onDone();
  };

  const waiting = pages?.requests.filter((request) => request.status === 'waiting') ?? [];
  // The linked request leads, opened; one decided since the link was sent is said to be so.
  const linked = openId !== null && waiting.some((request) => request.id === openId);
  if (linked) waiting.sort((a, b) => Number(b.id === openId) - Number(a.id === openId));
  const linkedGone = openId !== null && pages !== null && !linked && !outcome;
  return (
    <section aria-labelledby="reviews-title" css={css({ maxWidth: 1200 })}>
      <h1 id="reviews-title" ref={headingRef} tabIndex={-1} css={css({ fontSize: 24, marginTop: 0 })}>
        Review requests
      </h1>
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} css={[outcome.ok ? ui.okBanner : ui.errorBanner, css({ whiteSpace: 'pre-wrap' })]}>
          {outcome.text}
        </p>
      )}
      {loadError && (
        <p role="alert" css={ui.errorBanner}>
          {loadError}
        </p>
      )}
      {linkedGone && (
        <p role="status" css={ui.banner}>
          The request you followed a link to is no longer waiting: another admin has decided it, or the editor asked again.
        </p>
      )}
      {pages === null && !loadError ? (
        <p role="status">Gathering the review requests…</p>
      ) : waiting.length === 0 && (pages?.nextOffset ?? null) === null ? (
        <p>No changes are waiting for review.</p>
      ) : (
        waiting.map((request, index) => (
          <RequestCard key={request.id} request={request} openAtFirst={linked ? request.id === openId : index === 0} onDecided={decided} />
        ))
      )}
      {pages && pages.nextOffset !== null && (
        <button type="button" css={ui.secondaryButton} onClick={() => void loadMore(pages.nextOffset!)}>
          Show more requests
        </button>
      )}
    </section>
  );
}

function RequestCard({
  request,
  openAtFirst,
  onDecided,
}: {
  request: ReviewRequestView;
  openAtFirst: boolean;
  onDecided: (text: string, ok: boolean) => Promise<void>;
}) {
  const id = useId();
  const titles = request.files.map((file) => file.title).join(', ');
  const [opened, setOpened] = useState<{ kind: 'closed' | 'loading' } | { kind: 'error'; message: string } | ReviewRequestDetail>({
    kind: openAtFirst ? 'loading' : 'closed',
  });
  const open = useCallback(async () => {
    setOpened({ kind: 'loading' });
    try {
      setOpened((await api.reviewRequest(request.id)).request);
    } catch (error) {
      setOpened({ kind: 'error', message: error instanceof ApiError ? error.message : 'The changes could not be loaded. Try again.' });
    }
  }, [request.id]);
  useEffect(() => {
    if (openAtFirst) void open();
  }, [openAtFirst, open]);

  return (
    <article aria-labelledby={`${id}-title`} css={css({ borderTop: `1px solid ${color.border}`, padding: '12px 0 20px' })}>
      <h2 id={`${id}-title`} css={css({ fontSize: 19, margin: '0 0 4px' })}>
        {titles}
      </h2>
      <p css={ui.help}>
        Asked for by {request.requestedBy} on {localTime(request.requestedAt)}
      </p>
      {request.note && (
        <blockquote aria-label="Note from the editor" css={css({ margin: '8px 0', whiteSpace: 'pre-wrap' })}>
          {request.note}
        </blockquote>
      )}
      {'files' in opened ? (
        <OpenedRequest request={opened} titles={titles} onDecided={onDecided} />
      ) : opened.kind === 'loading' ? (
        <p role="status">Reading the changes…</p>
      ) : (
        <>
          {opened.kind === 'error' && (
            <p role="alert" css={ui.errorBanner}>
              {opened.message}
            </p>
          )}
          <button type="button" css={ui.secondaryButton} onClick={() => void open()}>
            Show the changes to {titles}
          </button>
        </>
      )}
    </article>
  );
}

/** An opened request: its changes, the preview, and the decisions, which come only with the changes they decide. */
function OpenedRequest({
  request,
  titles,
  onDecided,
}: {
  request: ReviewRequestDetail;
  titles: string;
  onDecided: (text: string, ok: boolean) => Promise<void>;
}) {
  const id = useId();
  const [previewPath, setPreviewPath] = useState(() => request.files.find((file) => targetOf(file))?.path ?? null);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState('');
  const [busy, setBusy] = useState(false);
  /** An approval being published, and how far it got once the studio said. */
  const [publishing, setPublishing] = useState<{ run?: PublishRunView } | null>(null);
  const previewed = request.files.find((file) => file.path === previewPath);

  const approve = async () => {
    setBusy(true);
    setPublishing({});
    const answer = await startAndFollow(
      () => api.approve(request.id),
      (run) => setPublishing({ run }),
      'The request could not be published. Try again.',
    );
    setPublishing(null);
    await onDecided(answer.ok ? `Published: ${answer.record.files.map((file) => file.title).join(', ')}.` : answer.message, answer.ok);
    setBusy(false);
  };

  const sendBack = async () => {
    if (!comment.trim()) {
      setCommentError('Write a comment saying what to change.');
      return;
    }
    setCommentError('');
    setBusy(true);
    try {
      await api.sendBack(request.id, comment);
      await onDecided(`Sent back to ${request.requestedBy} with your comment.`, true);
    } catch (error) {
      await onDecided(error instanceof ApiError ? error.message : 'The request could not be sent back. Try again.', false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div css={ui.besidePreview}>
        <div>
          {request.files.map((file) => (
            <section key={file.path} aria-label={`Changes to ${file.title}`} css={css({ marginBottom: 12 })}>
              <h3 css={css({ fontSize: 16, margin: '0 0 4px' })}>
                {file.title} <span css={ui.badge}>{{ added: 'New', changed: 'Changed', deleted: 'Deleted' }[file.change]}</span>{' '}
                {targetOf(file) && file.path !== previewPath && (
                  <button type="button" css={ui.linkButton} onClick={() => setPreviewPath(file.path)}>
                    Preview {file.title}
                  </button>
                )}
              </h3>
              {file.changedBy && <p css={ui.help}>Changed by {file.changedBy.join(', ')}</p>}
              <ChangeList file={{ ...file, after: file.data }} name={file.title} />
            </section>
          ))}
          {/* The decisions follow the changes they decide, before the preview on a phone, so they are in reach. */}
          <div css={css({ display: 'grid', gap: 12, maxWidth: 640, marginTop: 12 })}>
            {publishing && <PublishProgress what="Publishing the approved changes" run={publishing.run} />}
            <div css={css({ display: 'flex', gap: 8, flexWrap: 'wrap' })}>
              <button type="button" css={ui.button} disabled={busy} onClick={() => void approve()}>
                Approve and publish
              </button>
            </div>
            <SchedulePublish
              disabled={busy}
              label="Approve and publish at this time"
              onSchedule={async (at) => {
                const answer = await api.approveAt(request.id, at);
                await onDecided(`Approved. Scheduled: ${titles} — ${answer.scheduled.when}.`, true);
              }}
            />
            <div css={ui.field}>
              <label htmlFor={`${id}-comment`} css={ui.label}>
                Comment for {request.requestedBy}
              </label>
              <textarea
                id={`${id}-comment`}
                css={[ui.input, ui.textarea]}
                maxLength={2000}
                value={comment}
                aria-invalid={commentError ? true : undefined}
                aria-describedby={commentError ? `${id}-comment-error` : undefined}
                onChange={(event) => setComment(event.target.value)}
              />
              {commentError && (
                <p id={`${id}-comment-error`} css={ui.error}>
                  {commentError}
                </p>
              )}
            </div>
            <div>
              <button type="button" css={ui.secondaryButton} disabled={busy} onClick={() => void sendBack()}>
                Send back with comment
              </button>
            </div>
          </div>
        </div>
        {previewed ? (
          <PreviewPane target={targetOf(previewed)} focusedBlock={null} onSelectBlock={() => {}} />
        ) : (
          <p css={ui.help}>These changes have no page to preview.</p>
        )}
      </div>
    </>
  );
}

/** What the preview draws for a file of a request: nothing for a deleted file or the ROI numbers. */
function targetOf(file: ReviewFileView): PreviewTarget | null {
  if (file.data === null || file.change === 'deleted') return null;
  if (file.kind === 'page') return { kind: 'page', page: file.data };
  if (file.kind === 'article')
    return { kind: 'article', slug: file.name, article: file.data as { frontMatter: Record<string, unknown>; body: string } };
  if (file.kind === 'site') return { kind: 'site', site: file.data };
  return null;
}
