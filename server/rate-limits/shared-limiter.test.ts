import { afterEach, describe, expect, it } from 'vitest';
import type { WindowHits } from '../store/database.ts';
import { createSharedLimiter, type SharedLimiter, type SharedLimiterTuning } from './shared-limiter.ts';

// The limiter's own rules against a store held in memory that counts as the database does (one total
// per window), can be made slow or failing, and records every statement it was sent.

type FakeStore = {
  addHits(hits: readonly WindowHits[]): Promise<number[]>;
  deleteEndedWindows(now: number, limit: number): Promise<number>;
  keepValues(): Promise<boolean[]>;
  readonly statements: WindowHits[][];
  delayMs: number;
  failing: boolean;
};

function fakeStore(): FakeStore {
  const totals = new Map<string, number>();
  const store: FakeStore = {
    statements: [],
    delayMs: 0,
    failing: false,
    async addHits(hits) {
      store.statements.push([...hits]);
      if (store.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, store.delayMs));
      if (store.failing) throw new Error('connection refused');
      return hits.map(({ name, key, windowStart, hits: added }) => {
        const id = `${name}/${key}/${windowStart}`;
        totals.set(id, (totals.get(id) ?? 0) + added);
        return totals.get(id)!;
      });
    },
    async deleteEndedWindows() {
      return 0;
    },
    async keepValues() {
      throw new Error('not asked here');
    },
  };
  return store;
}

const warnings: string[] = [];
const log = { warn: (_details: object, message: string) => warnings.push(message) };
const limiters: SharedLimiter[] = [];

function limiterOver(store: FakeStore, options: { now?: () => number; tuning?: SharedLimiterTuning } = {}): SharedLimiter {
  const limiter = createSharedLimiter({ store, log, ...options });
  limiters.push(limiter);
  return limiter;
}

afterEach(async () => {
  await Promise.all(limiters.splice(0).map((limiter) => limiter.stop()));
  warnings.length = 0;
});

const LEADS = { name: 'leads', max: 10, windowMs: 60_000 };

describe('shared limiter', () => {
  it('sends the hits of a few milliseconds in one statement, each window once with its number of hits', async () => {
    const store = fakeStore();
    const limiter = limiterOver(store);
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => limiter.hit({ ...LEADS, key: 'a' })),
      limiter.hit({ ...LEADS, key: 'b' }),
    ]);
    expect(store.statements).toHaveLength(1);
    expect(store.statements[0]!.map(({ key, hits }) => [key, hits])).toEqual([
      ['a', 12],
      ['b', 1],
    ]);
    // Numbered in the order they came: the first ten allowed, the last two refused.
    expect(answers.map((answer) => [answer.count, answer.allowed])).toEqual([
      ...Array.from({ length: 10 }, (_, index) => [index + 1, true]),
      [11, false],
      [12, false],
      [1, true],
    ]);
    expect(answers.every((answer) => answer.decidedBy === 'database')).toBe(true);
  });

  it('answers a key the database counted to its limit at once, without the database, until its window ends', async () => {
    const store = fakeStore();
    let clock = 120_000;
    const limiter = limiterOver(store, { now: () => clock });
    for (let index = 0; index < 10; index += 1) await limiter.hit({ ...LEADS, key: 'a' });
    const sent = store.statements.length;
    clock += 15_000;
    const refused = await limiter.hit({ ...LEADS, key: 'a' });
    expect(refused).toEqual({ count: 11, allowed: false, retryAfterMs: 45_000, decidedBy: 'known-over' });
    expect(store.statements).toHaveLength(sent);
    // The next window is counted afresh, by the database.
    clock = 180_000;
    expect(await limiter.hit({ ...LEADS, key: 'a' })).toEqual({ count: 1, allowed: true, retryAfterMs: 60_000, decidedBy: 'database' });
  });

  it('decides alone within the time bound when the database is slow, by its own count, and logs it once a minute', async () => {
    const store = fakeStore();
    store.delayMs = 1_000;
    const limiter = limiterOver(store, { tuning: { answerWithinMs: 50 } });
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 12 }, () => limiter.hit({ ...LEADS, key: 'a' })));
    const waitedMs = performance.now() - started;
    expect(waitedMs).toBeLessThan(200);
    expect(answers.map((answer) => answer.allowed)).toEqual([...Array<boolean>(10).fill(true), false, false]);
    expect(answers.every((answer) => answer.decidedBy === 'this-server')).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(limiter.stats().decidedAlone).toBe(12);
  });

  it('decides alone when the database fails, and keeps counting the hits the database never got', async () => {
    const store = fakeStore();
    store.failing = true;
    const limiter = limiterOver(store);
    const alone = await Promise.all(Array.from({ length: 4 }, () => limiter.hit({ ...LEADS, key: 'a' })));
    expect(alone.map((answer) => [answer.count, answer.decidedBy])).toEqual([
      [1, 'this-server'],
      [2, 'this-server'],
      [3, 'this-server'],
      [4, 'this-server'],
    ]);
    expect(warnings).toEqual([expect.stringContaining('counted alone')]);
    store.failing = false;
    // The failed statement's hits never reached the database, which counts this one as its first...
    expect(await limiter.hit({ ...LEADS, key: 'a' })).toMatchObject({ count: 1, decidedBy: 'database' });
    // ...but this server keeps them: deciding alone again, it counts the four, the one and this one.
    store.delayMs = 1_000;
    expect(await limiter.hit({ ...LEADS, key: 'a' })).toMatchObject({ count: 6, decidedBy: 'this-server' });
  });

  it('gives Retry-After as the time to the end of the fixed window every server names alike', async () => {
    const store = fakeStore();
    const limiter = limiterOver(store, { now: () => 60_000 * 7 + 42_500 });
    expect(await limiter.hit({ ...LEADS, key: 'a' })).toMatchObject({ retryAfterMs: 17_500 });
    expect(store.statements[0]![0]).toMatchObject({ windowStart: 420_000, windowEnd: 480_000 });
  });
});
