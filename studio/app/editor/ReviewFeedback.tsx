// Beside a draft, when the studio requires review: the reviewer's comment on the request that covers
// this file (sent back), or that it is waiting for review. The comment is shown as the text it is.
import { useEffect, useState } from 'react';
import { api, type ReviewFeedback as Feedback } from '../api.ts';
import { SentBack } from '../publish/AskForReview.tsx';
import { ui } from '../ui.ts';
import { localTime } from '../local-time.ts';

export function ReviewFeedback({ path }: { path: string }) {
  const [feedback, setFeedback] = useState<Feedback['feedback']>(null);
  useEffect(() => {
    let current = true;
    api.reviewFeedback(path).then(
      (answer) => current && setFeedback(answer.feedback),
      () => current && setFeedback(null),
    );
    return () => {
      current = false;
    };
  }, [path]);

  if (!feedback) return null;
  if (feedback.status === 'sent-back') return <SentBack request={feedback} />;
  return (
    <p role="note" css={ui.banner}>
      Waiting for review: {feedback.requestedBy} asked on {localTime(feedback.requestedAt)}. A change made now is not in that request until
      you ask again.
    </p>
  );
}
