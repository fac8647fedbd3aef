import { describe, expect, it } from 'vitest';
import type { KeepValue } from '../store/database.ts';
import type { VisitEvent } from './analytics-store.ts';
import { createSharedValueCap } from './shared-value-cap.ts';
import { OTHER } from './value-cap.ts';

// The shared bound's own rules against a store held in memory that keeps values as the database does
// (at most `max` a bound and day, a lead's beyond it), and can fail.

const AT = Date.UTC(2026, 10, 28, 12);
const event = (referrerHost: string, extra: Partial<VisitEvent> = {}): VisitEvent => ({
  type: 'pageview',
  path: '/about',
  referrerHost,
  at: AT,
  visit: 'v',
  ...extra,
});

function memoryKeeper() {
  const kept = new Map<string, Set<string>>();
  const calls: KeepValue[][] = [];
  let failing = false;
  return {
    calls,
    fail: (value: boolean) => {
      failing = value;
    },
    async keepValues(values: readonly KeepValue[]) {
      calls.push([...values]);
      if (failing) throw new Error('connection refused');
      return values.map(({ name, period, value, max, always }) => {
        const bound = `${name}/${period}`;
        const set = kept.get(bound) ?? new Set();
        kept.set(bound, set);
        if (set.has(value)) return true;
        if (always !== true && set.size >= max) return false;
        set.add(value);
        return true;
      });
    },
  };
}

describe('shared value cap', () => {
  it('asks only for the values it does not know are kept, all of a batch at once, and counts the rest as "(other)"', async () => {
    const keeper = memoryKeeper();
    const cap = createSharedValueCap({ keepValues: keeper.keepValues, log: { warn: () => {} }, perDay: 2 });
    const first = await cap.capAll([event('a.example'), event('b.example'), event('a.example'), event('c.example')]);
    expect(first.map((counted) => counted.referrerHost)).toEqual(['a.example', 'b.example', 'a.example', OTHER]);
    expect(keeper.calls).toHaveLength(1);
    expect(keeper.calls[0]!.map((value) => value.value)).toEqual(['a.example', 'b.example', 'c.example']);
    // Known kept: no question. Not kept: asked again, since another server's lead may keep it.
    await cap.capAll([event('a.example'), event('c.example')]);
    expect(keeper.calls[1]!.map((value) => value.value)).toEqual(['c.example']);
  });

  it("keeps a lead's campaign beyond the bound, for every server", async () => {
    const keeper = memoryKeeper();
    const log = { warn: () => {} };
    const [one, other] = [
      createSharedValueCap({ keepValues: keeper.keepValues, log, perDay: 1 }),
      createSharedValueCap({ keepValues: keeper.keepValues, log, perDay: 1 }),
    ];
    const campaign = (name: string) => event('a.example', { campaign: { source: 'news', name } });
    await one.capAll([campaign('first')]);
    one.keepCampaign({ source: 'news', name: 'spring' }, '2026-11-28');
    await Promise.resolve();
    const counted = await other.capAll([campaign('spring'), campaign('autumn')]);
    expect(counted.map((event) => event.campaign)).toEqual([
      { source: 'news', name: 'spring' },
      { source: OTHER, name: OTHER },
    ]);
  });

  it('bounds a batch alone when the store fails, as a single server does, and says so once a minute', async () => {
    const keeper = memoryKeeper();
    keeper.fail(true);
    const warnings: string[] = [];
    const cap = createSharedValueCap({
      keepValues: keeper.keepValues,
      log: { warn: (_details, message) => warnings.push(message) },
      perDay: 1,
    });
    const counted = await cap.capAll([event('a.example'), event('b.example')]);
    expect(counted.map((event) => event.referrerHost)).toEqual(['a.example', OTHER]);
    await cap.capAll([event('c.example')]);
    expect(warnings).toHaveLength(1);
  });
});
