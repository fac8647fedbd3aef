import type { AccountId, Availability } from '../store/sales/sales-store.ts';
import { isOpenAt, isUsableWindow, type WeeklyHours } from './working-time.ts';

// Whether a sales person can take a lead now: not away, and inside one of their own working windows
// in their own time zone. Unlike the business's hours (where a week with no windows means every
// hour counts), a person with no working windows is never available: they have said they work no
// hours, and handing them leads would leave those leads waiting.

export function isAvailable(person: Availability, at: number): boolean {
  if (person.away) return false;
  if (!person.windows.some(isUsableWindow)) return false;
  return isOpenAt({ timeZone: person.timeZone, windows: person.windows }, at);
}

/**
 * The availability of a person who has not set theirs: the site's business hours (in the site's
 * time zone), not away, never given a lead yet. When the site has no business hours, Monday to
 * Friday 9:00 to 17:00 in the site's zone.
 */
export function defaultAvailability(accountId: AccountId, siteHours: WeeklyHours): Availability {
  const windows = siteHours.windows.some(isUsableWindow)
    ? siteHours.windows.filter(isUsableWindow)
    : [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 9 * 60, endMinute: 17 * 60 }));
  return {
    accountId,
    timeZone: siteHours.timeZone,
    windows: windows.map((window) => ({ ...window })),
    away: false,
    lastAssignedAt: undefined,
    defaultHours: true,
  };
}

/**
 * Round-robin's order: the person given a lead longest ago first (never given one: before anyone
 * who was), ties by account id, so every server process picks the same person.
 */
export function byLongestWaiting(a: Availability, b: Availability): number {
  if (a.lastAssignedAt !== b.lastAssignedAt) {
    if (a.lastAssignedAt === undefined) return -1;
    if (b.lastAssignedAt === undefined) return 1;
    return a.lastAssignedAt - b.lastAssignedAt;
  }
  return a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0;
}
