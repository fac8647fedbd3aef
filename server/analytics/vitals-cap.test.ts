// One browser cannot make a page's field speed what it likes: a visitor adds a bounded number of
// reports a day, the count starts again the next day, and the visitors remembered are bounded.
import { describe, expect, it } from 'vitest';
import { createSharedVitalsCap, createVitalsCap, VITALS_PER_VISITOR_PER_DAY } from './vitals-cap.ts';

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

describe('the bound on field speed reports shared by every server', () => {
  // A limiter that counts like the shared one and records which keys reached it (each one a row).
  function countingLimiter() {
    const counts = new Map<string, number>();
    return {
      keys: counts,
      async hit({ key, max }: { name: string; key: string; max: number; windowMs: number }) {
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        return { allowed: count <= max };
      },
    };
  }

  it('counts a visitor’s reports through the shared limiter, up to the day’s reports', async () => {
    const limiter = countingLimiter();
    const cap = createSharedVitalsCap(limiter, { perVisitor: 2 });
    expect([await cap.take('v1'), await cap.take('v1'), await cap.take('v1')]).toEqual([true, true, false]);
  });

  it('brings at most a bounded number of new visitors a day to the shared count, so made-up browsers cannot grow it', async () => {
    const limiter = countingLimiter();
    let at = Date.UTC(2026, 10, 28, 12);
    const cap = createSharedVitalsCap(limiter, { perVisitor: 5, visitors: 2, now: () => at });
    expect(await cap.take('a')).toBe(true);
    expect(await cap.take('b')).toBe(true);
    expect(await cap.take('c')).toBe(false);
    expect(await cap.take('a')).toBe(true);
    expect([...limiter.keys.keys()]).toEqual(['a', 'b']);
    at += 86_400_000;
    expect(await cap.take('c')).toBe(true);
  });
});
