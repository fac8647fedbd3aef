// One browser cannot make a page's field speed what it likes: a visitor adds a bounded number of
// reports a day, the count starts again the next day, and the visitors remembered are bounded.
import { describe, expect, it } from 'vitest';
import { createVitalsCap, VITALS_PER_VISITOR_PER_DAY } from './vitals-cap.ts';

const takes = (take: () => boolean, times: number) => Array.from({ length: times }, take).filter(Boolean).length;

describe('the bound on field speed reports', () => {
  it('lets one visitor add at most its day’s reports, others theirs, and starts again the next day', () => {
    const cap = createVitalsCap();
    expect(takes(() => cap.take('visit-a', '2026-11-27'), VITALS_PER_VISITOR_PER_DAY + 20)).toBe(VITALS_PER_VISITOR_PER_DAY);
    expect(cap.take('visit-b', '2026-11-27')).toBe(true);
    // A late report of the day before counts against today's.
    expect(cap.take('visit-a', '2026-11-26')).toBe(false);
    expect(cap.take('visit-a', '2026-11-28')).toBe(true);
  });

  it('remembers a bounded number of visitors a day; those known keep adding theirs', () => {
    const cap = createVitalsCap({ perVisitor: 3, visitors: 2 });
    expect(cap.take('a', '2026-11-27')).toBe(true);
    expect(cap.take('b', '2026-11-27')).toBe(true);
    expect(cap.take('c', '2026-11-27')).toBe(false);
    expect(cap.take('a', '2026-11-27')).toBe(true);
    expect(cap.take('c', '2026-11-28')).toBe(true);
  });
});
