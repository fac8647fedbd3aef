// One way to show a moment on every screen of the studio (the history, the publish list, review
// requests, a reviewer's answer): the date and the minute, in the person's language and time zone.

/** "27 Nov 2026, 09:14" in the person's language and time zone. */
export function localTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
