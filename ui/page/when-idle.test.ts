import { afterEach, describe, expect, it, vi } from 'vitest';
import { idleTask, whenIdle } from './when-idle.ts';

afterEach(() => vi.unstubAllGlobals());

describe('whenIdle', () => {
  it('runs the pieces in the order asked, each in a task of its own', async () => {
    const ran: string[] = [];
    whenIdle(() => ran.push('first'));
    whenIdle(() => ran.push('second'));
    // A task queued now runs between the two pieces: they are not one task.
    setTimeout(() => ran.push('a tap'), 0);
    await idleTask();
    expect(ran).toEqual(['first', 'a tap', 'second']);
  });

  it('waits for an idle moment where the browser has idle callbacks, with a deadline', async () => {
    const requested: { timeout?: number }[] = [];
    vi.stubGlobal('requestIdleCallback', (go: () => void, options: { timeout?: number }) => {
      requested.push(options);
      return setTimeout(go, 0);
    });
    const ran: string[] = [];
    whenIdle(() => ran.push('piece'));
    await idleTask();
    expect(ran).toEqual(['piece']);
    expect(requested.length).toBeGreaterThanOrEqual(2);
    expect(requested.every((options) => (options.timeout ?? 0) > 0)).toBe(true);
  });

  it('goes on with the next piece when one throws', async () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (error: unknown) => reported.push(error));
    const ran: string[] = [];
    whenIdle(() => {
      throw new Error('broken piece');
    });
    whenIdle(() => ran.push('next'));
    await idleTask();
    expect(ran).toEqual(['next']);
    expect(reported).toEqual([new Error('broken piece')]);
  });
});
