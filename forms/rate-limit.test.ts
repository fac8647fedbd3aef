import { describe, expect, it } from 'vitest';
import {
  CONTACT_RATE_LIMIT,
  HOME_RATE_LIMIT,
  LANDING_RATE_LIMIT,
  RATE_LIMIT_POLICIES,
  ROI_RATE_LIMIT,
  createRateLimiter,
  type RateLimitPolicy,
  type StorageLike,
} from './rate-limit.ts';

function createMemoryStorage(initial: Record<string, string> = {}): StorageLike & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const BROKEN_STORAGE: StorageLike = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

function createFakeClock(startMs = 1_700_000_000_000) {
  let nowMs = startMs;
  return { now: () => nowMs, advanceMs: (ms: number) => void (nowMs += ms) };
}

function setUp(policy: RateLimitPolicy, storage = createMemoryStorage()) {
  const clock = createFakeClock();
  return { clock, storage, limiter: createRateLimiter({ policy, storage, now: clock.now }) };
}

function checkTimes(limiter: { check(): unknown }, times: number) {
  for (let attempt = 0; attempt < times; attempt += 1) limiter.check();
}

describe("the four forms' limits", () => {
  it.each([
    ['home', HOME_RATE_LIMIT, 3, 600_000, true],
    ['roi', ROI_RATE_LIMIT, 3, 60_000, true],
    ['contact', CONTACT_RATE_LIMIT, 2, 300_000, false],
    ['landing', LANDING_RATE_LIMIT, 3, 60_000, true],
  ] as const)('%s allows %d attempts per %d ms (reset on success: %s)', (formId, policy, maxAttempts, windowMs, resetOnSuccess) => {
    expect(RATE_LIMIT_POLICIES[formId]).toBe(policy);
    expect(policy).toMatchObject({ maxAttempts, windowMs, resetOnSuccess });
  });

  it('keeps each form under its own storage key', () => {
    const keys = Object.values(RATE_LIMIT_POLICIES).map((policy) => policy.storageKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each([
    ['home', HOME_RATE_LIMIT],
    ['roi', ROI_RATE_LIMIT],
    ['contact', CONTACT_RATE_LIMIT],
    ['landing', LANDING_RATE_LIMIT],
  ] as const)('%s refuses the attempt after its limit', (_formId, policy) => {
    const { limiter } = setUp(policy);
    for (let attempt = 0; attempt < policy.maxAttempts; attempt += 1) {
      expect(limiter.check()).toEqual({ allowed: true });
    }
    expect(limiter.check()).toEqual({ allowed: false, retryAfterSeconds: policy.windowMs / 1000 });
  });
});

describe('createRateLimiter', () => {
  it('counts an attempt at check time', () => {
    const { limiter, storage } = setUp(ROI_RATE_LIMIT);
    limiter.check();
    expect(JSON.parse(storage.items.get(ROI_RATE_LIMIT.storageKey) ?? '[]')).toHaveLength(1);
  });

  it('does not count a refused attempt', () => {
    const { limiter, clock } = setUp(LANDING_RATE_LIMIT);
    checkTimes(limiter, 3);
    clock.advanceMs(10_000);
    checkTimes(limiter, 5);
    clock.advanceMs(50_000);
    expect(limiter.check()).toEqual({ allowed: true });
  });

  it('tells how long to wait, rounded up to whole seconds', () => {
    const { limiter, clock } = setUp(LANDING_RATE_LIMIT);
    checkTimes(limiter, 3);
    clock.advanceMs(20_500);
    expect(limiter.check()).toEqual({ allowed: false, retryAfterSeconds: 40 });
    clock.advanceMs(39_499);
    expect(limiter.check()).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('allows again once the oldest attempt leaves the window', () => {
    const { limiter, clock } = setUp(CONTACT_RATE_LIMIT);
    limiter.check();
    clock.advanceMs(100_000);
    limiter.check();
    clock.advanceMs(199_999);
    expect(limiter.check()).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.advanceMs(1);
    expect(limiter.check()).toEqual({ allowed: true });
    // The second attempt is still inside its window.
    expect(limiter.check()).toEqual({ allowed: false, retryAfterSeconds: 100 });
  });

  it('slides the window over a long home-form session', () => {
    const { limiter, clock } = setUp(HOME_RATE_LIMIT);
    checkTimes(limiter, 3);
    clock.advanceMs(9 * 60_000);
    expect(limiter.check()).toEqual({ allowed: false, retryAfterSeconds: 60 });
    clock.advanceMs(60_000);
    expect(limiter.check()).toEqual({ allowed: true });
  });

  it('forgets every attempt on reset', () => {
    const { limiter, storage } = setUp(ROI_RATE_LIMIT);
    checkTimes(limiter, 3);
    limiter.reset();
    expect(storage.items.has(ROI_RATE_LIMIT.storageKey)).toBe(false);
    expect(limiter.check()).toEqual({ allowed: true });
  });

  it.each([
    ['home', HOME_RATE_LIMIT, true],
    ['roi', ROI_RATE_LIMIT, true],
    ['contact', CONTACT_RATE_LIMIT, false],
    ['landing', LANDING_RATE_LIMIT, true],
  ] as const)('%s: a success clears the counter: %s', (_formId, policy, cleared) => {
    const { limiter } = setUp(policy);
    checkTimes(limiter, policy.maxAttempts);
    limiter.recordSuccess();
    expect(limiter.check().allowed).toBe(cleared);
  });

  it('shares attempts between limiters on the same storage (e.g. two tabs)', () => {
    const storage = createMemoryStorage();
    const clock = createFakeClock();
    const firstTab = createRateLimiter({ policy: CONTACT_RATE_LIMIT, storage, now: clock.now });
    const secondTab = createRateLimiter({ policy: CONTACT_RATE_LIMIT, storage, now: clock.now });
    firstTab.check();
    secondTab.check();
    expect(firstTab.check().allowed).toBe(false);
  });

  it('keeps forms apart', () => {
    const storage = createMemoryStorage();
    const clock = createFakeClock();
    const contact = createRateLimiter({ policy: CONTACT_RATE_LIMIT, storage, now: clock.now });
    const home = createRateLimiter({ policy: HOME_RATE_LIMIT, storage, now: clock.now });
    checkTimes(contact, 2);
    expect(home.check()).toEqual({ allowed: true });
  });

  it.each([
    ['not JSON', '{oops'],
    ['an object', '{"count":9}'],
    ['a list with text', '[1, "two"]'],
    ['null', 'null'],
    ['a number', '42'],
  ])('treats corrupt storage (%s) as no attempts', (_kind, stored) => {
    const { limiter } = setUp(CONTACT_RATE_LIMIT, createMemoryStorage({ [CONTACT_RATE_LIMIT.storageKey]: stored }));
    expect(limiter.check()).toEqual({ allowed: true });
    expect(limiter.check()).toEqual({ allowed: true });
    expect(limiter.check().allowed).toBe(false);
  });

  it('ignores attempts stamped in the future (the clock was turned back)', () => {
    const clock = createFakeClock();
    const future = JSON.stringify([clock.now() + 1_000_000, clock.now() + 2_000_000]);
    const storage = createMemoryStorage({ [CONTACT_RATE_LIMIT.storageKey]: future });
    const limiter = createRateLimiter({ policy: CONTACT_RATE_LIMIT, storage, now: clock.now });
    expect(limiter.check()).toEqual({ allowed: true });
  });

  it('waits for enough attempts to expire when storage holds more than the limit', () => {
    const clock = createFakeClock();
    const t = clock.now();
    const stored = JSON.stringify([t - 50_000, t - 40_000, t - 30_000, t - 20_000]);
    const storage = createMemoryStorage({ [LANDING_RATE_LIMIT.storageKey]: stored });
    const limiter = createRateLimiter({ policy: LANDING_RATE_LIMIT, storage, now: clock.now });
    // Four attempts, limit three: two must expire, the second at t - 40,000 + 60,000.
    expect(limiter.check()).toEqual({ allowed: false, retryAfterSeconds: 20 });
  });

  it('never throws when storage is blocked', () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ policy: HOME_RATE_LIMIT, storage: BROKEN_STORAGE, now: clock.now });
    expect(limiter.check()).toEqual({ allowed: true });
    expect(() => limiter.reset()).not.toThrow();
    expect(() => limiter.recordSuccess()).not.toThrow();
  });
});
