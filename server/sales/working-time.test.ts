import { describe, expect, it } from 'vitest';
import { addWorkingMs, describeHours, isOpenAt, isValidTimeZone, nextOpening, workingMsBetween, type WeeklyHours } from './working-time.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();

const weekdays = (timeZone: string, startMinute: number, endMinute: number): WeeklyHours => ({
  timeZone,
  windows: [1, 2, 3, 4, 5].map((day) => ({ day, startMinute, endMinute })),
});
/** Mon-Fri 9:00-18:00 New York, the site's hours. */
const NEW_YORK = weekdays('America/New_York', 9 * 60, 18 * 60);

// New York in 2026: clocks go forward on Sunday 8 March at 2:00 (EST, UTC-5 → EDT, UTC-4) and back
// on Sunday 1 November at 2:00 (EDT → EST).

describe('isOpenAt', () => {
  it('is open from the opening minute up to, not including, the closing one, in local time', () => {
    expect(isOpenAt(NEW_YORK, at('2026-03-06T13:59:59Z'))).toBe(false); // Fri 8:59:59 EST
    expect(isOpenAt(NEW_YORK, at('2026-03-06T14:00:00Z'))).toBe(true); // Fri 9:00 EST
    expect(isOpenAt(NEW_YORK, at('2026-03-06T22:59:59Z'))).toBe(true); // Fri 17:59:59 EST
    expect(isOpenAt(NEW_YORK, at('2026-03-06T23:00:00Z'))).toBe(false); // Fri 18:00 EST
    expect(isOpenAt(NEW_YORK, at('2026-03-07T15:00:00Z'))).toBe(false); // Saturday
  });

  it('follows daylight saving time: 9:00 is 13:00 UTC in summer and 14:00 UTC in winter', () => {
    expect(isOpenAt(NEW_YORK, at('2026-03-09T13:00:00Z'))).toBe(true); // Mon 9:00 EDT
    expect(isOpenAt(NEW_YORK, at('2026-03-06T13:00:00Z'))).toBe(false); // Fri 8:00 EST
    expect(isOpenAt(NEW_YORK, at('2026-11-02T13:30:00Z'))).toBe(false); // Mon 8:30 EST
    expect(isOpenAt(NEW_YORK, at('2026-10-30T21:30:00Z'))).toBe(true); // Fri 17:30 EDT
  });

  it('works in a zone half an hour off UTC', () => {
    const kolkata = weekdays('Asia/Kolkata', 9 * 60, 17 * 60);
    expect(isOpenAt(kolkata, at('2026-06-01T03:29:00Z'))).toBe(false); // Mon 8:59 IST
    expect(isOpenAt(kolkata, at('2026-06-01T03:30:00Z'))).toBe(true); // Mon 9:00 IST
  });
});

describe('nextOpening', () => {
  it('is the moment itself while open', () => {
    expect(nextOpening(NEW_YORK, at('2026-03-06T15:00:00Z'))).toBe(at('2026-03-06T15:00:00Z'));
  });

  it('after Friday closing over the spring-forward weekend is Monday 9:00 daylight time', () => {
    expect(iso(nextOpening(NEW_YORK, at('2026-03-06T23:00:00Z')))).toBe('2026-03-09T13:00:00.000Z');
  });

  it('after Friday closing over the fall-back weekend is Monday 9:00 standard time', () => {
    expect(iso(nextOpening(NEW_YORK, at('2026-10-30T22:00:00Z')))).toBe('2026-11-02T14:00:00.000Z');
  });

  it('early in the morning is the same day’s opening', () => {
    expect(iso(nextOpening(NEW_YORK, at('2026-06-03T04:00:00Z')))).toBe('2026-06-03T13:00:00.000Z'); // Wed 0:00 EDT
  });
});

describe('workingMsBetween', () => {
  it('counts only the time inside windows: Friday 17:00 to Monday 9:30 over the spring-forward weekend is 90 minutes', () => {
    // Friday 17:00-18:00 EST (60) + Monday 9:00-9:30 EDT (30). Counting Monday in standard time would give 60 + 0.
    expect(workingMsBetween(NEW_YORK, at('2026-03-06T22:00:00Z'), at('2026-03-09T13:30:00Z'))).toBe(90 * MINUTE);
  });

  it('over the fall-back weekend: Friday 17:00 EDT to Monday 9:30 EST is 90 minutes', () => {
    expect(workingMsBetween(NEW_YORK, at('2026-10-30T21:00:00Z'), at('2026-11-02T14:30:00Z'))).toBe(90 * MINUTE);
  });

  it('counts a whole working week as 45 hours', () => {
    expect(workingMsBetween(NEW_YORK, at('2026-06-01T04:00:00Z'), at('2026-06-08T04:00:00Z'))).toBe(45 * HOUR);
  });

  it('counts a night window as the wall clock does: 2 hours on the spring-forward night, 4 on the fall-back night', () => {
    const nights: WeeklyHours = { timeZone: 'America/New_York', windows: [{ day: 0, startMinute: 0, endMinute: 180 }] };
    expect(workingMsBetween(nights, at('2026-03-07T12:00:00Z'), at('2026-03-09T12:00:00Z'))).toBe(2 * HOUR);
    expect(workingMsBetween(nights, at('2026-10-31T12:00:00Z'), at('2026-11-02T12:00:00Z'))).toBe(4 * HOUR);
    expect(workingMsBetween(nights, at('2026-06-06T12:00:00Z'), at('2026-06-08T12:00:00Z'))).toBe(3 * HOUR);
  });

  it('starts a window that begins in the skipped hour when the clocks jump', () => {
    const early: WeeklyHours = { timeZone: 'America/New_York', windows: [{ day: 0, startMinute: 150, endMinute: 240 }] };
    // Sunday 8 March: 2:30 does not exist; the window runs from 3:00 EDT (07:00 UTC) to 4:00 EDT.
    expect(isOpenAt(early, at('2026-03-08T06:59:00Z'))).toBe(false);
    expect(isOpenAt(early, at('2026-03-08T07:00:00Z'))).toBe(true);
    expect(workingMsBetween(early, at('2026-03-08T00:00:00Z'), at('2026-03-09T00:00:00Z'))).toBe(HOUR);
  });

  it('is 0 when the end is not after the start, and counts overlapping windows once', () => {
    expect(workingMsBetween(NEW_YORK, at('2026-06-03T15:00:00Z'), at('2026-06-03T14:00:00Z'))).toBe(0);
    const overlapping: WeeklyHours = {
      timeZone: 'UTC',
      windows: [
        { day: 3, startMinute: 540, endMinute: 720 },
        { day: 3, startMinute: 600, endMinute: 780 },
      ],
    };
    expect(workingMsBetween(overlapping, at('2026-06-03T00:00:00Z'), at('2026-06-04T00:00:00Z'))).toBe(4 * HOUR);
  });
});

describe('a window that ends at midnight', () => {
  const evenings: WeeklyHours = {
    timeZone: 'Europe/London',
    windows: [
      { day: 6, startMinute: 20 * 60, endMinute: 1440 },
      { day: 0, startMinute: 0, endMinute: 120 },
    ],
  };

  it('is open until the last second of the day and runs on into the next day’s window', () => {
    // Saturday 6 June 2026, London on summer time (UTC+1).
    expect(isOpenAt(evenings, at('2026-06-06T22:59:59Z'))).toBe(true); // Sat 23:59:59
    expect(isOpenAt(evenings, at('2026-06-06T23:00:00Z'))).toBe(true); // Sun 0:00
    expect(isOpenAt(evenings, at('2026-06-07T01:00:00Z'))).toBe(false); // Sun 2:00
    expect(iso(addWorkingMs(evenings, at('2026-06-06T22:30:00Z'), HOUR))).toBe('2026-06-06T23:30:00.000Z');
  });

  it('is described with "midnight"', () => {
    expect(describeHours(evenings)).toBe('Sat 8:00 PM-midnight; Sun midnight-2:00 AM, London time');
  });
});

describe('addWorkingMs', () => {
  it('reaches 5 working minutes on Monday morning for a lead sent on Saturday', () => {
    expect(iso(addWorkingMs(NEW_YORK, at('2026-03-07T15:00:00Z'), 5 * MINUTE))).toBe('2026-03-09T13:05:00.000Z');
  });

  it('carries the rest of the hour over the night: Friday 17:30 + 60 minutes is Monday 9:30', () => {
    expect(iso(addWorkingMs(NEW_YORK, at('2026-10-30T21:30:00Z'), HOUR))).toBe('2026-11-02T14:30:00.000Z');
  });

  it('is the start itself for no time, and undoes workingMsBetween', () => {
    const from = at('2026-03-06T22:47:13Z');
    expect(addWorkingMs(NEW_YORK, from, 0)).toBe(from);
    for (const minutes of [1, 13, 59, 60, 61, 600, 2_000, 10_000]) {
      const reached = addWorkingMs(NEW_YORK, from, minutes * MINUTE);
      expect(workingMsBetween(NEW_YORK, from, reached)).toBe(minutes * MINUTE);
      expect(isOpenAt(NEW_YORK, reached - 1)).toBe(true);
    }
  });
});

describe('a week open day and night', () => {
  const always: WeeklyHours = {
    timeZone: 'America/New_York',
    windows: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 })),
  };

  it('counts every hour, the short and the long night included', () => {
    expect(isOpenAt(always, at('2026-03-08T07:00:00Z'))).toBe(true);
    expect(workingMsBetween(always, at('2026-03-01T00:00:00Z'), at('2026-12-01T00:00:00Z'))).toBe(
      at('2026-12-01T00:00:00Z') - at('2026-03-01T00:00:00Z'),
    );
    expect(addWorkingMs(always, at('2026-10-31T12:00:00Z'), 48 * HOUR)).toBe(at('2026-11-02T12:00:00Z'));
  });
});

describe('a week with no windows', () => {
  const none: WeeklyHours = { timeZone: 'America/New_York', windows: [] };

  it('counts every hour, so a clock never freezes', () => {
    expect(isOpenAt(none, at('2026-03-08T07:30:00Z'))).toBe(true);
    expect(nextOpening(none, at('2026-03-08T07:30:00Z'))).toBe(at('2026-03-08T07:30:00Z'));
    expect(workingMsBetween(none, at('2026-03-07T00:00:00Z'), at('2026-03-09T00:00:00Z'))).toBe(48 * HOUR);
    expect(addWorkingMs(none, at('2026-03-07T00:00:00Z'), 5 * MINUTE)).toBe(at('2026-03-07T00:05:00Z'));
  });

  it('says so', () => {
    expect(describeHours(none)).toBe('No hours set, so every hour counts (New York time)');
  });

  it('treats a week of unusable windows (closing before opening) the same way', () => {
    const broken: WeeklyHours = { timeZone: 'UTC', windows: [{ day: 1, startMinute: 600, endMinute: 540 }] };
    expect(workingMsBetween(broken, 0, HOUR)).toBe(HOUR);
  });
});

describe('describeHours', () => {
  it('groups days that share their hours, Monday first', () => {
    expect(describeHours(NEW_YORK)).toBe('Mon-Fri 9:00 AM-6:00 PM, New York time');
    const mixed: WeeklyHours = {
      timeZone: 'America/Chicago',
      windows: [
        { day: 6, startMinute: 600, endMinute: 840 },
        { day: 1, startMinute: 480, endMinute: 720 },
        { day: 3, startMinute: 480, endMinute: 720 },
        { day: 2, startMinute: 540, endMinute: 720 },
        { day: 2, startMinute: 780, endMinute: 1020 },
      ],
    };
    expect(describeHours(mixed)).toBe('Mon, Wed 8:00 AM-noon; Tue 9:00 AM-noon and 1:00 PM-5:00 PM; Sat 10:00 AM-2:00 PM, Chicago time');
    expect(
      describeHours({ timeZone: 'UTC', windows: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 })) }),
    ).toBe('Every day midnight-midnight, UTC');
  });
});

describe('isValidTimeZone', () => {
  it('knows IANA zone names and refuses anything else', () => {
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('Europe/London')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('EST5EDT ')).toBe(false);
    expect(isValidTimeZone('+05:00')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});
