// The queue between the beacons and the store: one write at a time, a full queue drops new events
// and says so at most once a minute, and a store that keeps failing costs a few tries, not memory.
import { describe, expect, it, vi } from 'vitest';
import type { VisitEvent } from './analytics-store.ts';
import { createEventQueue } from './event-queue.ts';

const event = (n: number): VisitEvent => ({ type: 'pageview', path: '/', at: n, visit: `visit-${n}` });

function recordingLog() {
  const lines: Array<{ level: string; details: object; message: string }> = [];
  return {
    lines,
    warn: (details: object, message: string) => lines.push({ level: 'warn', details, message }),
    error: (details: object, message: string) => lines.push({ level: 'error', details, message }),
  };
}

describe('the event queue', () => {
  it('writes one batch at a time, in order, and nothing is lost between them', async () => {
    let writing = 0;
    let most = 0;
    const written: number[] = [];
    const queue = createEventQueue({
      record: async (events) => {
        most = Math.max(most, ++writing);
        await new Promise((resolve) => setTimeout(resolve, 5));
        written.push(...events.map((e) => e.at));
        writing--;
      },
      log: recordingLog(),
      tuning: { batchSize: 3, flushIntervalMs: 1 },
    });
    for (let n = 0; n < 10; n++) queue.push(event(n));
    await vi.waitFor(() => expect(queue.stats().queued).toBe(0));
    expect(written).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(1);
    await queue.stop();
  });

  it('when full, drops new events, counts them, and warns at most once a minute', async () => {
    let time = 0;
    const log = recordingLog();
    const queue = createEventQueue({ record: async () => {}, log, now: () => time, tuning: { maxQueued: 2, flushIntervalMs: 60_000 } });
    expect([1, 2, 3, 4].map((n) => queue.push(event(n)))).toEqual([true, true, false, false]);
    time += 30_000;
    queue.push(event(5));
    time += 30_000;
    queue.push(event(6));
    expect(queue.stats()).toMatchObject({ queued: 2, droppedFull: 4 });
    expect(log.lines.map(({ details }) => details)).toEqual([
      { dropped: 1, maxQueued: 2 },
      { dropped: 3, maxQueued: 2 },
    ]);
    await queue.stop();
    expect(queue.stats()).toEqual({ queued: 0, recorded: 2, droppedFull: 4, droppedFailed: 0 });
  });

  it('gives up a batch after its tries, and stopping ends even while the store keeps failing', async () => {
    const record = vi.fn(() => Promise.reject(new Error('disk full')));
    const log = recordingLog();
    const queue = createEventQueue({ record, log, tuning: { batchSize: 2, maxAttempts: 3, flushIntervalMs: 60_000 } });
    for (let n = 0; n < 3; n++) queue.push(event(n));
    await queue.stop();
    expect(record).toHaveBeenCalledTimes(6);
    expect(queue.stats()).toEqual({ queued: 0, recorded: 0, droppedFull: 0, droppedFailed: 3 });
    expect(log.lines.filter(({ message }) => message.endsWith('dropped'))).toHaveLength(2);
  });
});
