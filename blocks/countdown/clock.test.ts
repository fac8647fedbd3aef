import { describe, expect, it } from 'vitest';
import { formatClock, nextRemaining, toSeconds } from './clock.ts';

const SPEC_START = { hours: 23, minutes: 47, seconds: 32 };
const SPEC_START_SECONDS = 23 * 3600 + 47 * 60 + 32;

describe('toSeconds', () => {
  it('turns the spec start 23:47:32 into 85,652 seconds', () => {
    expect(toSeconds(SPEC_START)).toBe(SPEC_START_SECONDS);
    expect(SPEC_START_SECONDS).toBe(85652);
  });
});

describe('nextRemaining', () => {
  it.each([
    ['counts down one second', SPEC_START_SECONDS, SPEC_START_SECONDS - 1],
    ['crosses a minute boundary', 23 * 3600 + 47 * 60, 23 * 3600 + 46 * 60 + 59],
    ['reaches zero', 1, 0],
    ['restarts at the start after showing zero', 0, SPEC_START_SECONDS],
  ])('%s', (_case, seconds, expected) => {
    expect(nextRemaining(seconds, SPEC_START_SECONDS)).toBe(expected);
  });

  it('comes back to the start after start + 1 ticks', () => {
    let seconds = SPEC_START_SECONDS;
    for (let tick = 0; tick <= SPEC_START_SECONDS; tick += 1) seconds = nextRemaining(seconds, SPEC_START_SECONDS);
    expect(seconds).toBe(SPEC_START_SECONDS);
  });

  it('stays at zero when the start is zero', () => {
    expect(nextRemaining(0, 0)).toBe(0);
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
