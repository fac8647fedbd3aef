import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDateLabel } from './blog-index.ts';

describe('formatDateLabel', () => {
  it('prints an article date as Intl.DateTimeFormat("en-US", long) does, in UTC', () => {
    const intl = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }),
        (date) => {
          const iso = date.toISOString().slice(0, 10);
          expect(formatDateLabel(iso)).toBe(intl.format(new Date(`${iso}T00:00:00Z`)));
        },
      ),
      { numRuns: 2000 },
    );
    expect(formatDateLabel('2026-03-05')).toBe('March 5, 2026');
  });
});
