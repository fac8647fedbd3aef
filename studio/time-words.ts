// The one way the studio words a moment, on every screen and in every sentence the server writes:
// the weekday, the day, the month and the minute ("Tue 1 Dec, 10:42"), with the year only when it is
// not this year, in the person's language and always in the team's time zone (STUDIO_TIME_ZONE), so
// a scheduled publish, a review request and a history entry read alike wherever the reader sits.
// The browser words times with the person's language (navigator.language), the server with the
// language the browser asks in (Accept-Language): the same words on both sides.

/** The language times are worded in when none is known. */
export const DEFAULT_LANGUAGE = 'en-GB';

export type TimeWordsOptions = {
  /** The team's time zone (an IANA name: America/Chicago). */
  timeZone: string;
  /** The person's language (a BCP 47 tag: en-US); the default when missing or not understood. */
  language?: string | undefined;
  /** Now, for telling this year (and today) from others; the clock's by default. */
  now?: number | undefined;
};

/** A language tag Intl understands, else the default. */
export function usableLanguage(language: string | undefined): string {
  // Only the language and region count: a tag's extensions ("-u-ca-hebrew-nu-arab") would change the
  // calendar and the digits, and a time worded for one person is often read by another (an e-mail).
  const plain = language?.split(/-[ux]-/i)[0];
  if (!plain) return DEFAULT_LANGUAGE;
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([plain])[0] ?? DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/**
 * How the language writes the hour: "9:05 AM" where clocks have twelve hours, "09:05" where they
 * have twenty-four, as people there write it.
 */
function hourStyle(language: string): '2-digit' | 'numeric' {
  const cycle = new Intl.DateTimeFormat(language, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h11' || cycle === 'h12' ? 'numeric' : '2-digit';
}

function instant(at: string | number): Date | undefined {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The calendar day of `ms` in `timeZone`, as 2026-12-01. */
function dayIn(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

/** "Tue 1 Dec, 10:42" (en-GB), "Tue, Dec 1, 10:42 AM" (en-US), "Tue, Dec 1, 9:05 AM"; the year is added when it is not this year. A text that is no time is given back. */
export function momentWords(at: string | number, options: TimeWordsOptions): string {
  const date = instant(at);
  if (!date) return String(at);
  const { timeZone } = options;
  const now = options.now ?? Date.now();
  const sameYear = dayIn(date.getTime(), timeZone).slice(0, 4) === dayIn(now, timeZone).slice(0, 4);
  const language = usableLanguage(options.language);
  return new Intl.DateTimeFormat(language, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    hour: hourStyle(language),
    minute: '2-digit',
  }).format(date);
}

/** "10:42" when it is today in the team's zone, else as `momentWords` says it: for "Live since 10:42". */
export function sinceWords(at: string | number, options: TimeWordsOptions): string {
  const date = instant(at);
  if (!date) return String(at);
  const now = options.now ?? Date.now();
  if (dayIn(date.getTime(), options.timeZone) !== dayIn(now, options.timeZone)) return momentWords(at, options);
  const language = usableLanguage(options.language);
  return new Intl.DateTimeFormat(language, { timeZone: options.timeZone, hour: hourStyle(language), minute: '2-digit' }).format(date);
}

/** "Chicago time (America/Chicago)"; "UTC" for UTC: the zone as a person knows it, and its exact name. */
export function zoneWords(timeZone: string): string {
  if (/^(?:Etc\/)?(?:UTC|GMT|Universal|Zulu)$/i.test(timeZone)) return 'UTC';
  const city = timeZone.split('/').pop()!.replaceAll('_', ' ');
  return city === timeZone ? timeZone : `${city} time (${timeZone})`;
}

/** "Tue 1 Dec, 10:42 (America/Chicago)": a moment with the zone it is told in, as the schedule shows it. */
export function momentInZoneWords(at: string | number, options: TimeWordsOptions): string {
  return instant(at) ? `${momentWords(at, options)} (${options.timeZone})` : String(at);
}

/** The wall-clock fields of `ms` in `timeZone`. */
export function wallClock(ms: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** The instant a wall-clock time (`2026-12-01T09:00`, seconds optional) names in `timeZone`; NaN when it is no date. */
export function instantOf(local: string, timeZone: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!match) return Number.NaN;
  const [year, month, day, hour, minute, second = 0] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day! || hour! > 23 || minute! > 59 || second > 59) return Number.NaN;
  const offsetAt = (ms: number) => {
    const w = wallClock(ms, timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
  };
  // The zone's offset at the guess, then again at the answer (they differ only across a change of clocks).
  const guess = wall - offsetAt(wall);
  return wall - offsetAt(guess);
}

/** `2026-12-01T09:00`: the wall-clock time of `ms` in `timeZone`, as a date-and-time field takes it. */
export function localText(ms: number, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}
