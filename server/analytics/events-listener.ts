// The beacon listener: POST /api/events on a port of its own (EVENTS_PORT), served by a worker
// thread. Answering thousands of beacons a second is mostly HTTP work (parsing requests, checking
// them, writing answers), and on the thread that also takes leads that work makes a lead wait its
// turn. The thread runs the same route as the server's port (events-route.ts: the same checks,
// limits and answers) and hands each beacon it took to this thread in batches; here it is hashed
// and queued for the store as one taken on the server's own port. A load balancer sends
// /api/events to this port and everything else to PORT; without one, the route on PORT still works.
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { TrustProxy } from '../../back-office/http/trust-proxy.ts';
import type { ConnectionLimits } from '../../back-office/http/connection-limits.ts';
import type { LiveBuild } from '../site/live-build.ts';
import type { EventsRateLimit, TakenBeacon } from './events-route.ts';

const THREAD_URL = new URL('./events-listener-thread.ts', import.meta.url);

/** How long the thread may take to finish the beacons in flight and hand over the last batch when the server stops. */
export const LISTENER_CLOSE_MS = 10_000;

/** Where the listener listens and how it treats connections: the server's own settings. */
export type EventsListenerSettings = {
  readonly host: string;
  readonly port: number;
  readonly trustProxy: TrustProxy;
  readonly logLevel: string;
  readonly connectionLimits?: ConnectionLimits;
};

export type EventsListenerOptions = EventsListenerSettings & {
  readonly siteHost: string;
  readonly siteUrl?: string;
  readonly rateLimit?: Partial<EventsRateLimit>;
  readonly liveBuild: LiveBuild;
  /** Counts a beacon the thread took. */
  take(beacon: TakenBeacon): void | Promise<void>;
  readonly log: FastifyBaseLogger;
  /** The thread's script: events-listener-thread.ts (tests give one that stops). */
  readonly threadUrl?: URL;
};

/** What the thread is given to start with (structured-cloned: data only). */
export type ListenerThreadData = Omit<EventsListenerOptions, 'liveBuild' | 'take' | 'log' | 'threadUrl'> & {
  readonly pages: readonly string[];
};

/** Messages between the thread and the server. */
export type ToListener = { type: 'pages'; pages: string[] } | { type: 'close' };
export type FromListener =
  | { type: 'listening'; port: number }
  | { type: 'failed'; message: string }
  | { type: 'beacons'; beacons: TakenBeacon[] }
  | { type: 'log'; level: string; entry: Record<string, unknown> }
  | { type: 'closed' };

export type EventsListener = {
  /** The port it listens on (the one asked for, or the one the system chose for 0). */
  readonly port: number;
  /** Whether the thread still serves: false once it stopped unexpectedly. */
  alive(): boolean;
  /** Stops taking beacons, finishes those in flight, counts the last batch and ends the thread. */
  close(): Promise<void>;
};

const LOG_LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
/** Fields of a pino line the server's own logger writes again. */
const PINO_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/** After the thread stops unexpectedly, a new one is started this long after (doubling to the most below while it keeps failing). */
export const LISTENER_RESTART_MS = { first: 1_000, most: 60_000 } as const;

type Thread = { readonly worker: Worker; readonly closed: Promise<void>; ended: boolean };

export async function startEventsListener(options: EventsListenerOptions): Promise<EventsListener> {
  const { liveBuild, take, log, threadUrl = THREAD_URL, ...settings } = options;
  const pagesOf = () => [...liveBuild.current().pages.keys()];
  let closing: Promise<void> | undefined;
  let counting = Promise.resolve();
  let restartMs: number = LISTENER_RESTART_MS.first;

  const countBatch = (beacons: readonly TakenBeacon[]) => {
    const batch = Promise.all(
      beacons.map((beacon) =>
        Promise.resolve(take(beacon)).catch((error: unknown) =>
          log.error({ err: error }, 'a beacon from the beacon listener was not counted'),
        ),
      ),
    ).then(() => undefined);
    counting = counting.then(() => batch);
  };

  const onMessage = (message: FromListener) => {
    if (message.type === 'beacons') countBatch(message.beacons);
    else if (message.type === 'log') {
      const level = LOG_LEVELS.has(message.level) ? (message.level as 'info') : 'info';
      const fields = Object.fromEntries(Object.entries(message.entry).filter(([key]) => !PINO_FIELDS.has(key)));
      log[level]({ ...fields, thread: 'beacon listener' }, String(message.entry.msg ?? ''));
    }
  };

  /** Starts a thread on `port`; resolves with the port it listens on, rejects with the sentence why it could not. */
  function startThread(port: number): { thread: Thread; listening: Promise<number> } {
    const workerData: ListenerThreadData = { ...settings, port, pages: pagesOf() };
    const worker = new Worker(threadUrl, { workerData });
    // Settled by the thread's 'closed' (sent after its last batch) or by its end, whichever comes first.
    let markClosed = () => {};
    const thread: Thread = { worker, closed: new Promise<void>((resolve) => (markClosed = resolve)), ended: false };
    const listening = new Promise<number>((resolve, reject) => {
      worker.on('message', (message: FromListener) => {
        if (message.type === 'listening') resolve(message.port);
        else if (message.type === 'failed') reject(new Error(message.message));
        else if (message.type === 'closed') markClosed();
        else onMessage(message);
      });
      worker.on('error', (error) => {
        reject(error);
        log.error({ err: error }, 'the beacon listener failed');
      });
      worker.on('exit', (code) => {
        thread.ended = true;
        markClosed();
        reject(new Error(`The beacon listener ended before it listened (exit code ${code}): see the log line before this one.`));
        if (closing === undefined && current === thread) restartLater(port);
      });
    });
    return { thread, listening };
  }

  // A thread that stops while the server runs is started again: beacons on EVENTS_PORT go
  // unanswered meanwhile, and the server is not ready (the balancer sends its traffic elsewhere).
  function restartLater(port: number): void {
    log.error({ restartMs }, 'the beacon listener stopped; a new one starts shortly');
    const timer = setTimeout(() => {
      if (closing !== undefined) return;
      const next = startThread(port);
      current = next.thread;
      next.listening.then(
        () => {
          restartMs = LISTENER_RESTART_MS.first;
          log.info({ port }, 'the beacon listener listens again');
        },
        (error: unknown) => log.error({ err: error }, 'the beacon listener did not start again'),
      );
      restartMs = Math.min(restartMs * 2, LISTENER_RESTART_MS.most);
    }, restartMs);
    timer.unref();
  }

  const first = startThread(settings.port);
  let current: Thread = first.thread;
  let port: number;
  try {
    port = await first.listening;
  } catch (error) {
    await first.thread.worker.terminate();
    throw error;
  }
  // A page published while the server runs can be counted on either port at once.
  const unsubscribe = liveBuild.subscribe(() => {
    if (!current.ended) current.worker.postMessage({ type: 'pages', pages: pagesOf() } satisfies ToListener);
  });

  return {
    port,
    alive: () => !current.ended,
    close() {
      closing ??= (async () => {
        unsubscribe();
        const thread = current;
        if (!thread.ended) {
          thread.worker.postMessage({ type: 'close' } satisfies ToListener);
          const timer = setTimeout(() => {
            log.warn({ closeMs: LISTENER_CLOSE_MS }, 'the beacon listener did not finish in time: its beacons in flight are dropped');
            void thread.worker.terminate();
          }, LISTENER_CLOSE_MS);
          await thread.closed;
          clearTimeout(timer);
          await thread.worker.terminate();
        }
        await counting;
      })();
      return closing;
    },
  };
}
