import type { WorkingWindow } from '../../lead/sales.ts';
import { isValidTimeZone } from '../../content-model/time-zone.ts';

export { isValidTimeZone };

// Working time: the weekly windows a business or a person works, in their own time zone, and the
// clock that counts only the time inside them. Local wall time comes from Intl (the runtime's own
// time zone data), so daylight-saving changes are right in every zone without a dependency:
// - a window's start or end that falls in the hour skipped when clocks go forward begins (or ends)
//   when the clocks jump, the first local time that exists after it;
// - one that falls in the hour repeated when clocks go back is its first occurrence;
// - so a 9:00-18:00 window is 9 hours long on every day, and a 0:00-3:00 window is 2 hours long on
//   the spring-forward night and 4 hours on the fall-back night, as a wall clock would measure it.
// A window may end at 1440 (midnight at the end of the day); windows that overlap count once.
//
// A week with no windows is never closed: every hour counts. Counting nothing would leave a lead's
// clock frozen at zero and its escalation never due, hiding the very delay the clock exists to show;
// counting everything can only make a response look slower than it was, never faster.

export type WeeklyHours = { readonly timeZone: string; readonly windows: readonly WorkingWindow[] };

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Safety net for the searches below: no valid week goes this long without an open window. */
const MAX_DAYS_WITHOUT_WINDOW = 400;

/** Whether the business (or person) is inside one of its windows at `at`. */
export function isOpenAt(hours: WeeklyHours, at: number): boolean {
  if (!hasWindows(hours)) return true;
  for (const [start, end] of openIntervals(hours, at)) {
    if (start > at) return false;
    if (at < end) return true;
  }
  return false;
}

/** `at` itself when open; otherwise the start of the next window. */
export function nextOpening(hours: WeeklyHours, at: number): number {
  if (!hasWindows(hours)) return at;
  for (const [start, end] of openIntervals(hours, at)) {
    if (end > at) return Math.max(start, at);
  }
  return at;
}

/** The time inside windows between `from` and `to`, in milliseconds (0 when `to` is not after `from`). */
export function workingMsBetween(hours: WeeklyHours, from: number, to: number): number {
  if (!(to > from)) return 0;
  if (!hasWindows(hours)) return to - from;
  let total = 0;
  for (const [start, end] of openIntervals(hours, from)) {
    if (start >= to) break;
    total += Math.max(0, Math.min(end, to) - Math.max(start, from));
  }
  return total;
}

/** The moment the working clock started at `from` reaches `ms`: `from` for 0, else inside a window. */
export function addWorkingMs(hours: WeeklyHours, from: number, ms: number): number {
  if (!(ms > 0)) return from;
  if (!hasWindows(hours)) return from + ms;
  let remaining = ms;
  for (const [start, end] of openIntervals(hours, from)) {
    if (end <= from) continue;
    const begin = Math.max(start, from);
    if (remaining <= end - begin) return begin + remaining;
    remaining -= end - begin;
  }
  return from + ms;
}

const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/**
 * The hours in words, days grouped, Monday first: "Mon-Fri 9:00 AM-6:00 PM, New York time",
 * "Mon, Wed 8:00 AM-12:00 PM; Sat 10:00 AM-2:00 PM, Chicago time".
 */
export function describeHours(hours: WeeklyHours): string {
  const zone = describeZone(hours.timeZone);
  if (!hasWindows(hours)) return `No hours set, so every hour counts (${zone})`;
  const byDay = new Map<number, string>();
  for (const day of WEEK_ORDER) {
    const spans = dayWindows(hours, day);
    if (spans.length > 0) byDay.set(day, spans.map(([start, end]) => `${clockTime(start)}-${clockTime(end)}`).join(' and '));
  }
  const groups = new Map<string, number[]>();
  for (const [day, text] of byDay) groups.set(text, [...(groups.get(text) ?? []), day]);
  const parts = [...groups].map(([text, days]) => (days.length === 7 ? `Every day ${text}` : `${describeDays(days)} ${text}`));
  return `${parts.join('; ')}, ${zone}`;
}

/** "America/New_York" → "New York time"; "UTC" → "UTC". */
export function describeZone(zone: string): string {
  if (!zone.includes('/')) return zone;
  return `${zone.slice(zone.lastIndexOf('/') + 1).replaceAll('_', ' ')} time`;
}

function describeDays(days: readonly number[]): string {
  // Runs of consecutive days (in Monday-first order) become ranges.
  const positions = days.map((day) => WEEK_ORDER.indexOf(day as (typeof WEEK_ORDER)[number]));
  const runs: number[][] = [];
  for (const position of positions) {
    const run = runs.at(-1);
    if (run && run.at(-1) === position - 1) run.push(position);
    else runs.push([position]);
  }
  const name = (position: number) => DAY_NAMES[WEEK_ORDER[position]!];
  return runs.map((run) => (run.length >= 3 ? `${name(run[0]!)}-${name(run.at(-1)!)}` : run.map(name).join(', '))).join(', ');
}

function clockTime(minute: number): string {
  if (minute === 0 || minute === 1440) return 'midnight';
  if (minute === 720) return 'noon';
  const hour = Math.floor(minute / 60);
  const shown = hour % 12 === 0 ? 12 : hour % 12;
  return `${shown}:${String(minute % 60).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

// ---- the windows as instants ----

/** A window is usable when its day is 0..6 and 0 <= start < end <= 1440, in whole minutes. */
export function isUsableWindow(window: WorkingWindow): boolean {
  const { day, startMinute, endMinute } = window;
  return (
    Number.isInteger(day) &&
    day >= 0 &&
    day <= 6 &&
    Number.isInteger(startMinute) &&
    Number.isInteger(endMinute) &&
    startMinute >= 0 &&
    startMinute < endMinute &&
    endMinute <= 1440
  );
}

function hasWindows(hours: WeeklyHours): boolean {
  return hours.windows.some(isUsableWindow);
}

/** The usable windows of one weekday, sorted, overlapping and touching ones merged. */
function dayWindows(hours: WeeklyHours, day: number): [number, number][] {
  const spans = hours.windows
    .filter((window) => window.day === day && isUsableWindow(window))
    .map((window): [number, number] => [window.startMinute, window.endMinute])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push(span);
  }
  return merged;
}

/**
 * The open intervals [start, end) as instants, in order, beginning with the local day before
 * `at`'s (an interval that started then may still be open). Intervals of consecutive days may
 * touch (a window to midnight, one from midnight); every caller handles touching intervals, so
 * they are not merged, and a week open day and night still yields one day at a time. Endless
 * while windows keep coming; callers stop when they have their answer.
 */
function* openIntervals(hours: WeeklyHours, at: number): Generator<[number, number]> {
  const perDay = Array.from({ length: 7 }, (_, day) => dayWindows(hours, day));
  const local = wallParts(hours.timeZone, at);
  let date = Date.UTC(local.year, local.month - 1, local.day) - DAY;
  let emptyDays = 0;
  while (emptyDays < MAX_DAYS_WITHOUT_WINDOW) {
    const calendar = new Date(date);
    const [year, month, day] = [calendar.getUTCFullYear(), calendar.getUTCMonth() + 1, calendar.getUTCDate()];
    let found = false;
    for (const [startMinute, endMinute] of perDay[calendar.getUTCDay()]!) {
      const start = wallToInstant(hours.timeZone, year, month, day, startMinute);
      const end = wallToInstant(hours.timeZone, year, month, day, endMinute);
      if (end <= start) continue; // wholly inside the hour skipped when clocks go forward
      found = true;
      yield [start, end];
    }
    emptyDays = found ? 0 : emptyDays + 1;
    date += DAY;
  }
}

// ---- local wall time ----

type WallParts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

function wallParts(zone: string, at: number): WallParts {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(zone).formatToParts(at)) parts[part.type] = part.value;
  const year = Number(parts.year);
  return {
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** How far local wall time is ahead of UTC at `at`, in milliseconds. */
function offsetAt(zone: string, at: number): number {
  const second = Math.floor(at / 1000) * 1000;
  const { year, month, day, hour, minute, second: s } = wallParts(zone, second);
  const wall = Date.UTC(year, month - 1, day, hour, minute, s);
  return wall - second;
}

/**
 * The instant local wall time in `zone` reads `minute` minutes after midnight of year-month-day.
 * Repeated local times (clocks going back) give the first; skipped ones (clocks going forward)
 * give the moment the clocks jumped.
 */
export function wallToInstant(zone: string, year: number, month: number, day: number, minute: number): number {
  const wall = Date.UTC(year, month - 1, day) + minute * MINUTE;
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  const candidates = [wall - before, wall - after].filter((instant) => offsetAt(zone, instant) === wall - instant);
  if (candidates.length > 0) return Math.min(...candidates);
  // Skipped: the transition lies between the two readings; find the first instant with the new offset.
  let low = Math.min(wall - before, wall - after);
  let high = Math.max(wall - before, wall - after);
  const lowOffset = offsetAt(zone, low);
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2000) * 1000;
    if (offsetAt(zone, middle) === lowOffset) low = middle;
    else high = middle;
  }
  return high;
}
