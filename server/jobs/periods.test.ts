import { describe, expect, it } from 'vitest';
import { fixedPeriods, periodOf } from './periods.ts';

describe('periodOf', () => {
  const at = Date.parse('2026-11-28T14:35:12.345Z');

  it('names the UTC hour and day holding a moment, with their bounds', () => {
    expect(periodOf('hour', at)).toEqual({
      key: '2026-11-28T14',
      start: Date.parse('2026-11-28T14:00:00Z'),
      end: Date.parse('2026-11-28T15:00:00Z'),
    });
    expect(periodOf('day', at)).toEqual({
      key: '2026-11-28',
      start: Date.parse('2026-11-28T00:00:00Z'),
      end: Date.parse('2026-11-29T00:00:00Z'),
    });
    // The last millisecond of a day is still that day.
    expect(periodOf('day', Date.parse('2026-11-28T23:59:59.999Z')).key).toBe('2026-11-28');
  });

  it('names the ISO week, Monday to Sunday, by the year of its Thursday', () => {
    expect(periodOf('week', at)).toEqual({
      key: '2026-W48',
      start: Date.parse('2026-11-23T00:00:00Z'),
      end: Date.parse('2026-11-30T00:00:00Z'),
    });
    expect(periodOf('week', Date.parse('2026-11-29T23:59:59Z')).key).toBe('2026-W48');
    expect(periodOf('week', Date.parse('2026-11-30T00:00:00Z')).key).toBe('2026-W49');
    // 1 January 2027 is a Friday: it belongs to the last week of 2026 (53 weeks that year).
    expect(periodOf('week', Date.parse('2027-01-01T12:00:00Z')).key).toBe('2026-W53');
    // 31 December 2024 is a Tuesday: the first week of 2025.
    expect(periodOf('week', Date.parse('2024-12-31T12:00:00Z')).key).toBe('2025-W01');
  });

  it('uses a rule of the job’s own when it has one', () => {
    expect(periodOf(() => ({ key: 'own', start: 1, end: 2 }), at)).toEqual({ key: 'own', start: 1, end: 2 });
  });
});

describe('fixedPeriods', () => {
  it('cuts time into periods of the given seconds, keyed by their start', () => {
    const periods = fixedPeriods(2);
    expect(periods(Date.parse('2026-11-28T14:35:13.999Z'))).toEqual({
      key: '2026-11-28T14:35:12Z',
      start: Date.parse('2026-11-28T14:35:12Z'),
      end: Date.parse('2026-11-28T14:35:14Z'),
    });
    expect(periods(Date.parse('2026-11-28T14:35:14Z')).key).toBe('2026-11-28T14:35:14Z');
  });
});
