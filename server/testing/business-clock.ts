// The site's business hours for the journeys and the speed-to-lead bench, which run real servers on
// real time and move a lead's stored clock start back to make it due on the escalation ladder: the
// hours are read from the build as the server reads them, and the server's own working-time
// arithmetic finds how far back (it must agree with the servers'). The opening
// windows as instants are worked out here on their own, from the zone's UTC offset each day, for the
// hand computation the console's speed figures are checked against.
import { readSiteHoursFile } from '../sales/site-hours.ts';
import { workingMsBetween, type WeeklyHours } from '../sales/working-time.ts';

export type OpenWindow = { readonly start: number; readonly end: number };

export type SiteHours = {
  readonly weekly: WeeklyHours;
  workingMsBetween(from: number, to: number): number;
  /** Every opening window that overlaps [from, to), in order. */
  windowsBetween(from: number, to: number): OpenWindow[];
};

const DAY_MS = 86_400_000;

/** The zone's offset from UTC at `at`, in milliseconds (local = UTC + offset). */
export function zoneOffsetMs(timeZone: string, at: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(at))
      .map((part) => [part.type, Number(part.value)]),
  );
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return local - Math.floor(at / 1000) * 1000;
}

/** The instant of a wall time (`minute` after local midnight of the UTC-named date `dayStart`) in the zone. */
export function wallTimeToInstant(timeZone: string, dayStart: number, minute: number): number {
  const wall = dayStart + minute * 60_000;
  let instant = wall - zoneOffsetMs(timeZone, wall);
  // Once more at the found instant, for a day on which the offset changes.
  instant = wall - zoneOffsetMs(timeZone, instant);
  return instant;
}

export function openWindows(weekly: WeeklyHours, from: number, to: number): OpenWindow[] {
  // No windows: every hour counts.
  if (weekly.windows.length === 0) return [{ start: from, end: to }];
  const windows: OpenWindow[] = [];
  for (let dayStart = Math.floor(from / DAY_MS) * DAY_MS - DAY_MS; dayStart < to + DAY_MS; dayStart += DAY_MS) {
    const day = new Date(dayStart).getUTCDay();
    for (const window of weekly.windows.filter((candidate) => candidate.day === day)) {
      const start = wallTimeToInstant(weekly.timeZone, dayStart, window.startMinute);
      const end = wallTimeToInstant(weekly.timeZone, dayStart, window.endMinute);
      if (end > from && start < to) windows.push({ start, end });
    }
  }
  return windows.sort((a, b) => a.start - b.start);
}

/**
 * A clock start, before `now`, from which the business clock has run `ms` (within half a second) up
 * to `now`: a lead given it is that far up its clock, whatever the time of day or week.
 */
export function clockStartFor(hours: SiteHours, now: number, ms: number): number {
  let low = now - 60 * DAY_MS;
  let high = now;
  while (high - low > 500) {
    const middle = Math.floor((low + high) / 2);
    if (hours.workingMsBetween(middle, now) > ms) low = middle;
    else high = middle;
  }
  return low;
}

/** The business hours a server started on `distDir` counts (the build's copy of the site settings' hours). */
export async function siteBusinessHours(distDir: string): Promise<SiteHours> {
  const weekly = await readSiteHoursFile(distDir);
  return {
    weekly,
    workingMsBetween: (from, to) => workingMsBetween(weekly, from, to),
    windowsBetween: (from, to) => openWindows(weekly, from, to),
  };
}
