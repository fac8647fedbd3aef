import { describe, expect, it } from 'vitest';
import type { Availability } from '../store/sales/sales-store.ts';
import { byLongestWaiting, defaultAvailability, isAvailable } from './availability.ts';
import type { WeeklyHours } from './working-time.ts';

const chicago: Availability = {
  accountId: '4',
  timeZone: 'America/Chicago',
  windows: [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 9 * 60, endMinute: 17 * 60 })),
  away: false,
  lastAssignedAt: undefined,
  defaultHours: false,
};
// Wednesday 3 June 2026: Chicago is UTC-5.
const WED_0930_CHICAGO = Date.parse('2026-06-03T14:30:00Z');
const WED_0830_CHICAGO = Date.parse('2026-06-03T13:30:00Z');

describe('isAvailable', () => {
  it('is true inside the person’s own hours in their own zone, and false before them', () => {
    expect(isAvailable(chicago, WED_0930_CHICAGO)).toBe(true);
    // 9:30 in New York is 8:30 in Chicago: not yet working.
    expect(isAvailable(chicago, WED_0830_CHICAGO)).toBe(false);
  });

  it('is false while the person is away, even in their hours', () => {
    expect(isAvailable({ ...chicago, away: true }, WED_0930_CHICAGO)).toBe(false);
  });

  it('is false for a person with no working hours at all', () => {
    expect(isAvailable({ ...chicago, windows: [] }, WED_0930_CHICAGO)).toBe(false);
  });
});

describe('defaultAvailability', () => {
  it('is the site’s business hours in the site’s zone, not away, never given a lead', () => {
    const site: WeeklyHours = { timeZone: 'America/New_York', windows: [{ day: 1, startMinute: 540, endMinute: 1080 }] };
    expect(defaultAvailability('7', site)).toEqual({
      accountId: '7',
      timeZone: 'America/New_York',
      windows: [{ day: 1, startMinute: 540, endMinute: 1080 }],
      away: false,
      lastAssignedAt: undefined,
      defaultHours: true,
    });
  });

  it('is Monday to Friday 9:00 to 17:00 when the site has no business hours', () => {
    const person = defaultAvailability('7', { timeZone: 'UTC', windows: [] });
    expect(person.windows).toEqual([1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1020 })));
    expect(isAvailable(person, Date.parse('2026-06-03T10:00:00Z'))).toBe(true);
    expect(isAvailable(person, Date.parse('2026-06-06T10:00:00Z'))).toBe(false); // Saturday
  });
});

describe('byLongestWaiting', () => {
  it('puts never-assigned people first, then the one assigned longest ago, ties by account number', () => {
    const people = [
      { ...chicago, accountId: '3', lastAssignedAt: 500 },
      { ...chicago, accountId: '9', lastAssignedAt: undefined },
      { ...chicago, accountId: '2', lastAssignedAt: 500 },
      { ...chicago, accountId: '5', lastAssignedAt: 100 },
      { ...chicago, accountId: '1', lastAssignedAt: undefined },
    ];
    expect(people.sort(byLongestWaiting).map((person) => person.accountId)).toEqual(['1', '9', '5', '2', '3']);
  });
});
