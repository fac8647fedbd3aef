// How far the recent publishes got beyond this checkout, kept fresh: while one still waits for the
// live site, the studio is asked again every few seconds, so "Waiting for the live site…" turns into
// "Live since 10:42" (or the reason it did not) without a reload.
import { useEffect, useState } from 'react';
import { api, type PublishRecord } from '../api.ts';

/** How often the publish screen asks while a deploy is awaited (the server asks the site itself). */
export const STATUS_POLL_MS = 3_000;

export function usePublishStatus(history: PublishRecord[], latest: PublishRecord | undefined) {
  // Answers newer than the `history` they were asked after; a new `history` from the caller wins.
  const [fresh, setFresh] = useState<{ after: PublishRecord[]; records: PublishRecord[] } | null>(null);
  const shown = fresh && fresh.after === history ? fresh.records : history;
  const current = latest ? (shown.find((record) => record.id === latest.id) ?? latest) : undefined;
  const waiting = [...shown, ...(current ? [current] : [])].some((record) => record.status?.live?.state === 'waiting');

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      api.publishStatus().then(
        (answer) => setFresh({ after: history, records: answer.history }),
        () => undefined, // asked again at the next tick
      );
    }, STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, history]);

  return { history: shown, latest: current };
}
