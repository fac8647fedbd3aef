// The publish screen's actions, as this person may use them: Publish now or at a set time (and the
// undo button the screen passes in) for whoever may publish; "Ask for review" for an editor whose
// changes need an admin's review; and the scheduled publishes that failed, for everyone (those waiting
// are shown with the changes they carry).
import { css } from '@emotion/react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { api, type ReviewsAnswer, type ScheduleAnswer, type SeenDraft } from '../api.ts';
import { ui } from '../ui.ts';
import { AskForReview } from './AskForReview.tsx';
import { SchedulePublish } from './SchedulePublish.tsx';
import { ScheduledList } from './ScheduledList.tsx';
import { listWords } from '../../../back-office/list-words.ts';

export function PublishChoice({
  publishable,
  busy,
  seen,
  onPublish,
  onChanged,
  children,
}: {
  publishable: boolean;
  busy: boolean;
  /** The changes the screen shows: a publish at a set time carries exactly these, as they are now. */
  seen: readonly SeenDraft[];
  onPublish: () => void;
  /** Something changed on the server (a request sent, a publish scheduled or cancelled). */
  onChanged: () => void;
  /** Further actions of someone who may publish (undo). */
  children?: ReactNode;
}) {
  const [reviews, setReviews] = useState<ReviewsAnswer | null>(null);
  const [schedule, setSchedule] = useState<ScheduleAnswer | null>(null);
  const [scheduledText, setScheduledText] = useState('');

  const load = useCallback(async () => {
    const [reviewAnswer, scheduleAnswer] = await Promise.all([api.reviews(), api.schedule()]);
    setReviews(reviewAnswer);
    setSchedule(scheduleAnswer);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  // Changes offered for publishing again (a scheduled publish cancelled, or new edits): the word that
  // something was scheduled is no longer news.
  const offered = seen.length > 0;
  useEffect(() => {
    if (offered) setScheduledText('');
  }, [offered]);

  const changed = () => {
    void load();
    onChanged();
  };

  if (!reviews) return null;
  const latest = reviews.requests.find((request) => request.status === 'waiting' || request.status === 'sent-back');

  return (
    <>
      {reviews.mayPublish ? (
        <div css={css({ display: 'grid', gap: 12, margin: '12px 0' })}>
          {scheduledText && (
            <p role="status" css={ui.okBanner}>
              {scheduledText}
            </p>
          )}
          <div css={css({ display: 'flex', gap: 8, flexWrap: 'wrap' })}>
            <button type="button" css={ui.button} disabled={!publishable || busy} onClick={onPublish}>
              Publish
            </button>
            {children}
          </div>
          <SchedulePublish
            disabled={!publishable || busy}
            onSchedule={async (at) => {
              const { scheduled } = await api.schedulePublish(at, seen);
              setScheduledText(`Scheduled: ${listWords(scheduled.files.map((file) => file.title))} — ${scheduled.when}.`);
              changed();
            }}
          />
        </div>
      ) : (
        <AskForReview publishable={publishable && !busy} latest={latest} onAsked={changed} />
      )}
      {schedule && <ScheduledList scheduled={schedule.scheduled} />}
    </>
  );
}
