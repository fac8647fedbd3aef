import { isValidTimeZone } from './time-zone.ts';
import { isRecord } from './values.ts';

// The site's business hours (site settings, `businessHours`): the days the sales team works, one
// opening and one closing time, in one time zone. The schema checks each value's form; the content
// check adds what a schema cannot say (a zone this runtime knows, closing after opening), in the
// words of the studio's form, so a mistake stops the build instead of freezing the sales clock.

export const BUSINESS_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export type BusinessDay = (typeof BUSINESS_DAYS)[number];

export type BusinessHoursContent = {
  readonly timeZone: string;
  readonly days: readonly BusinessDay[];
  /** "HH:MM", 24-hour clock. */
  readonly opens: string;
  /** "HH:MM", 24-hour clock; "24:00" is midnight at the end of the day. */
  readonly closes: string;
};

/** "09:30" → 570; "24:00" → 1440; anything else → undefined. */
export function minuteOfDay(time: string): number | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return undefined;
  return hours * 60 + minutes;
}

/** Each mistake in the business hours, with the field it is about (for the studio and the build). */
export function businessHoursProblems(value: unknown): { field: 'timeZone' | 'closes'; message: string }[] {
  if (!isRecord(value)) return [];
  const problems: { field: 'timeZone' | 'closes'; message: string }[] = [];
  if (typeof value.timeZone === 'string' && value.timeZone !== '' && !isValidTimeZone(value.timeZone)) {
    problems.push({
      field: 'timeZone',
      message: `"${value.timeZone}" is not a time zone. Write a region and a city as in America/New_York, America/Chicago or Europe/London.`,
    });
  }
  const opens = typeof value.opens === 'string' ? minuteOfDay(value.opens) : undefined;
  const closes = typeof value.closes === 'string' ? minuteOfDay(value.closes) : undefined;
  if (opens !== undefined && closes !== undefined && closes <= opens) {
    problems.push({
      field: 'closes',
      message: `The closing time (${String(value.closes)}) must be later than the opening time (${String(value.opens)}). For hours past midnight, close at 24:00.`,
    });
  }
  return problems;
}
