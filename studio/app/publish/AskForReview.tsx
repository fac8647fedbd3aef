// What an editor has instead of Publish when the studio requires review: a note for the reviewer and
// "Ask for review", and the state of their latest request: waiting, or sent back with the reviewer's
// comment (shown as the text it is).
import { css } from '@emotion/react';
import { useId, useState } from 'react';
import { api, ApiError, type ReviewRequestView } from '../api.ts';
import { ui } from '../ui.ts';
import { localTime } from '../local-time.ts';

export function AskForReview({
  publishable,
  latest,
  onAsked,
}: {
  publishable: boolean;
  /** The editor's latest open request, if any. */
  latest: ReviewRequestView | undefined;
  onAsked: () => void;
}) {
  const id = useId();
  const [note, setNote] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'busy' | 'asked' } | { kind: 'error'; message: string }>({ kind: 'idle' });

  const ask = async () => {
    setState({ kind: 'busy' });
    try {
      await api.askForReview(note);
      setNote('');
      setState({ kind: 'asked' });
    } catch (caught) {
      setState({
        kind: 'error',
        message: caught instanceof ApiError ? caught.message : 'The review request could not be sent. Try again.',
      });
    }
    onAsked();
  };

  return (
    <div css={css({ display: 'grid', gap: 8, maxWidth: 640 })}>
      {latest?.status === 'sent-back' && <SentBack request={latest} />}
      {latest?.status === 'waiting' && state.kind !== 'asked' && (
        <p role="status" css={ui.banner}>
          Waiting for review since {localTime(latest.requestedAt)}. Asking again replaces that request with the changes as they are now.
        </p>
      )}
      {state.kind === 'asked' && (
        <p role="status" css={ui.okBanner}>
          Asked for review: an admin will publish your changes or send them back with a comment.
        </p>
      )}
      {state.kind === 'error' && (
        <p role="alert" css={ui.errorBanner}>
          {state.message}
        </p>
      )}
      <p css={css({ margin: 0 })}>Changes made in this studio go live once an admin has reviewed them.</p>
      <div css={ui.field}>
        <label htmlFor={`${id}-note`} css={ui.label}>
          Note for the reviewer (optional)
        </label>
        <textarea
          id={`${id}-note`}
          css={[ui.input, ui.textarea]}
          maxLength={2000}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      <div>
        <button type="button" css={ui.button} disabled={!publishable || state.kind === 'busy'} onClick={() => void ask()}>
          Ask for review
        </button>
      </div>
    </div>
  );
}

/** A reviewer's comment on a request sent back, shown beside the draft and on the publish screen. */
export function SentBack({ request }: { request: Pick<ReviewRequestView, 'comment' | 'decidedBy' | 'decidedAt'> }) {
  return (
    <div role="note" aria-label="Review comment" css={ui.banner}>
      <p css={css({ margin: '0 0 4px' })}>
        <strong>Sent back by {request.decidedBy}</strong>
        {request.decidedAt ? ` on ${localTime(request.decidedAt)}` : ''}. Change the draft, then ask for review again.
      </p>
      <p css={css({ margin: 0, whiteSpace: 'pre-wrap' })}>{request.comment}</p>
    </div>
  );
}
