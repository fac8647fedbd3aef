import { describe, expect, it } from 'vitest';
import { formatClock, remainingAt, toSeconds } from './clock.ts';

const SPEC_START = { hours: 23, minutes: 47, seconds: 32 };
const SPEC_START_SECONDS = 23 * 3600 + 47 * 60 + 32;

describe('toSeconds', () => {
  it('turns the start 23:47:32 into 85,652 seconds', () => {
    expect(toSeconds(SPEC_START)).toBe(SPEC_START_SECONDS);
    expect(SPEC_START_SECONDS).toBe(85652);
  });
});

describe('formatClock', () => {
  it.each([
    [SPEC_START_SECONDS, { hours: '23', minutes: '47', seconds: '32' }],
    [SPEC_START_SECONDS - 1, { hours: '23', minutes: '47', seconds: '31' }],
    [3600, { hours: '01', minutes: '00', seconds: '00' }],
    [59, { hours: '00', minutes: '00', seconds: '59' }],
    [0, { hours: '00', minutes: '00', seconds: '00' }],
    [99 * 3600 + 59 * 60 + 59, { hours: '99', minutes: '59', seconds: '59' }],
  ])('shows %d seconds as %o', (seconds, expected) => {
    expect(formatClock(seconds)).toEqual(expected);
  });

  it('never shows negative time', () => {
    expect(formatClock(-5)).toEqual({ hours: '00', minutes: '00', seconds: '00' });
  });
});

describe('remainingAt', () => {
  const start = toSeconds({ hours: 23, minutes: 47, seconds: 32 });
  it.each([
    [0, '23:47:32'],
    [999, '23:47:32'],
    [1000, '23:47:31'],
    [61_000, '23:46:31'],
    [start * 1000, '00:00:00'],
    [(start + 1) * 1000, '23:47:32'],
    [(start + 2) * 1000, '23:47:31'],
    [(2 * (start + 1) + 5) * 1000, '23:47:27'],
  ])('after %i ms shows %s', (elapsedMs, shown) => {
    const face = formatClock(remainingAt(elapsedMs, start));
    expect(`${face.hours}:${face.minutes}:${face.seconds}`).toBe(shown);
  });

  it('stays at zero when the start is zero', () => {
    expect(remainingAt(0, 0)).toBe(0);
    expect(remainingAt(5_000, 0)).toBe(0);
  });

  it('never shows a negative time, even if the clock goes backwards', () => {
    expect(remainingAt(-3_000, 10)).toBe(10);
  });
});
