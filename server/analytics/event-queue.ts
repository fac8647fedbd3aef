// Counted events wait here between the request that brought them and the store: the request answers
// at once, and the store gets them in batches, one batch at a time. The queue is bounded and a batch
// the store keeps refusing is given up after a few tries, so a flood of beacons or a store that is
// down costs a fixed amount of memory, never the lead relay's time.
import type { VisitEvent } from './analytics-store.ts';

export type EventQueueTuning = {
  /** Events held at most; beyond it new events are dropped (and counted). */
  readonly maxQueued?: number;
  /** Events handed to the store in one call. */
  readonly batchSize?: number;
  /** How long an event waits at most before a flush begins. */
  readonly flushIntervalMs?: number;
  /** Tries of one batch before it is dropped. */
  readonly maxAttempts?: number;
  /** How often the "queue full" warning may be logged. */
  readonly dropLogIntervalMs?: number;
};

export type EventQueueStats = {
  /** Events waiting for the store now (the batch being written included). */
  readonly queued: number;
  /** Events the store took. */
  readonly recorded: number;
  /** Events dropped because the queue was full. */
  readonly droppedFull: number;
  /** Events dropped because the store kept failing on their batch. */
  readonly droppedFailed: number;
};

type Log = {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
};

export const EVENT_QUEUE_DEFAULTS = {
  maxQueued: 20_000,
  batchSize: 500,
  flushIntervalMs: 250,
  maxAttempts: 3,
  dropLogIntervalMs: 60_000,
} as const;

export type EventQueue<T = VisitEvent> = {
  /** Queues one event; false when the queue is full and the event was dropped. */
  push(event: T): boolean;
  /** Writes everything queued now (waiting for a flush under way first); for shutdown and tests. */
  drain(): Promise<void>;
  stats(): EventQueueStats;
  /** Stops the timer; what is still queued is written by a last drain(). */
  stop(): Promise<void>;
};

export function createEventQueue<T = VisitEvent>({
  record,
  log,
  now = Date.now,
  tuning = {},
  name = 'analytics',
}: {
  record: (events: readonly T[]) => Promise<void>;
  log: Log;
  now?: () => number;
  tuning?: EventQueueTuning;
  /** The queue's name in its log lines: "analytics events not recorded". */
  name?: string;
}): EventQueue<T> {
  const { maxQueued, batchSize, flushIntervalMs, maxAttempts, dropLogIntervalMs } = { ...EVENT_QUEUE_DEFAULTS, ...tuning };
  let waiting: T[] = [];
  // The batch being written (or waiting to be tried again), with its failed tries so far.
  let batch: { events: T[]; attempts: number } | undefined;
  let flushing: Promise<void> | undefined;
  let recorded = 0;
  let droppedFull = 0;
  let droppedFailed = 0;
  let droppedSinceLog = 0;
  let lastDropLog = -Infinity;
  let timer: NodeJS.Timeout | undefined;

  const queued = () => waiting.length + (batch?.events.length ?? 0);

  function schedule(): void {
    if (timer !== undefined || flushing !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, flushIntervalMs);
    timer.unref();
  }

  /** One batch to the store; the next is scheduled while any remain. Never rejects. */
  function flush(): Promise<void> {
    if (flushing !== undefined) return flushing;
    if (batch === undefined && waiting.length > 0) {
      batch = { events: waiting.slice(0, batchSize), attempts: 0 };
      waiting = waiting.slice(batchSize);
    }
    const current = batch;
    if (current === undefined) return Promise.resolve();
    flushing = record(current.events)
      .then(
        () => {
          recorded += current.events.length;
          batch = undefined;
        },
        (error: unknown) => {
          current.attempts++;
          if (current.attempts < maxAttempts) {
            log.error(
              { err: error, events: current.events.length, attempt: current.attempts },
              `${name} events not recorded; trying again`,
            );
            return;
          }
          droppedFailed += current.events.length;
          batch = undefined;
          log.error({ err: error, events: current.events.length, attempts: current.attempts }, `${name} events not recorded; dropped`);
        },
      )
      .finally(() => {
        flushing = undefined;
        if (queued() > 0) schedule();
      });
    return flushing;
  }

  async function drain(): Promise<void> {
    // Each batch gets its tries; one that keeps failing is dropped, so this always ends.
    while (queued() > 0 || flushing !== undefined) await flush();
  }

  return {
    push(event) {
      if (queued() >= maxQueued) {
        droppedFull++;
        droppedSinceLog++;
        if (now() - lastDropLog >= dropLogIntervalMs) {
          log.warn({ dropped: droppedSinceLog, maxQueued }, `${name} queue full: events dropped`);
          lastDropLog = now();
          droppedSinceLog = 0;
        }
        return false;
      }
      waiting.push(event);
      // A full batch goes at once; a few events wait for the interval to gather more.
      if (waiting.length >= batchSize && flushing === undefined) void flush();
      else schedule();
      return true;
    },
    drain,
    stats: () => ({ queued: queued(), recorded, droppedFull, droppedFailed }),
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await drain();
      // A failed flush may have scheduled the next one.
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
