import { describe, expect, it } from 'vitest';
import { createAddressLimit } from './address-limit.ts';
import type { LimitHit, SharedLimiter } from './shared-limiter.ts';

describe('address limit', () => {
  it("in memory, allows `max` hits of a key from its first hit for a window, as @fastify/rate-limit's own store does", async () => {
    let clock = 1_000;
    const limit = createAddressLimit({ limiter: undefined, name: 'events', max: 2, windowMs: 10_000, now: () => clock });
    expect(await limit.hit('a')).toEqual({ allowed: true, retryAfterMs: 10_000 });
    clock += 4_000;
    expect(await limit.hit('a')).toEqual({ allowed: true, retryAfterMs: 6_000 });
    expect(await limit.hit('a')).toEqual({ allowed: false, retryAfterMs: 6_000 });
    expect((await limit.hit('b')).allowed).toBe(true);
    clock += 6_000;
    expect(await limit.hit('a')).toEqual({ allowed: true, retryAfterMs: 10_000 });
  });

  it('forgets the least recently seen key past `addresses`', async () => {
    const limit = createAddressLimit({ limiter: undefined, name: 'events', max: 1, windowMs: 10_000, addresses: 2, now: () => 0 });
    await limit.hit('a');
    await limit.hit('b');
    await limit.hit('c');
    expect((await limit.hit('a')).allowed).toBe(true);
    expect((await limit.hit('c')).allowed).toBe(false);
  });

  it('with the shared limiter, asks it under its own name and passes its answer on', async () => {
    const asked: LimitHit[] = [];
    const limiter = {
      hit: async (hit: LimitHit) => {
        asked.push(hit);
        return { count: 61, allowed: false, retryAfterMs: 4_200, decidedBy: 'database' as const };
      },
    } as unknown as SharedLimiter;
    const limit = createAddressLimit({ limiter, name: 'events', max: 60, windowMs: 10_000 });
    expect(await limit.hit('203.0.113.7')).toEqual({ allowed: false, retryAfterMs: 4_200 });
    expect(asked).toEqual([{ name: 'events', key: '203.0.113.7', max: 60, windowMs: 10_000 }]);
  });
});
