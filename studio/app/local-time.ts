// Every time the studio's screens show (the history, the publish list and its results, review
// requests, a reviewer's answer, the schedule), worded one way (../time-words.ts): in the person's
// language, in the team's time zone, which the studio tells the browser when it opens (the session).
// Until then, and in tests that give none, the browser's own zone.
import { momentInZoneWords, momentWords, sinceWords, zoneWords } from '../time-words.ts';

let teamZone: string | undefined;

/** Sets the team's time zone, as the session names it. */
export function setTeamTimeZone(timeZone: string | undefined): void {
  teamZone = timeZone;
}

/** The team's time zone, or the browser's until the studio has named it. */
export function teamTimeZone(): string {
  return teamZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function options() {
  return { timeZone: teamTimeZone(), language: typeof navigator === 'undefined' ? undefined : navigator.language };
}

/** "Tue 1 Dec, 10:42" in the person's language and the team's time zone. */
export function localTime(at: string | number): string {
  return momentWords(at, options());
}

/** "10:42" today, else as `localTime`: for "Live since 10:42". */
export function sinceTime(at: string | number): string {
  return sinceWords(at, options());
}

/** "Tue 1 Dec, 10:42 (America/Chicago)": as the schedule lists a moment. */
export function zonedTime(at: string | number): string {
  return momentInZoneWords(at, options());
}

/** "Chicago time (America/Chicago)". */
export function teamZoneWords(): string {
  return zoneWords(teamTimeZone());
}
