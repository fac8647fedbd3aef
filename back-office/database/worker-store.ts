import { parentPort, Worker } from 'node:worker_threads';
import { MigrationRefusal, migrationRefusalFrom } from './migration-refusal.ts';

// A store on its own thread (the SQLite lead store, the SQLite analytics store). node:sqlite is
// synchronous, so a COMMIT would stall the server's event loop, and with it every page request.
// Here the HTTP thread only posts messages; the worker runs the store and answers each call in the
// order received. Both halves are here, so the messages they exchange are written down once: the
// proxy (openWorkerStore) for the HTTP thread, answerCalls for the thread's own small file.

type Call = { id: number; method: string; args: unknown[] };

// The message asking the thread for its store's method names (every function but close).
const METHODS_CALL = 'methods';
// An error crosses the thread as a plain Error; a migration's refusal also sends its facts, so the
// HTTP thread gets the same MigrationRefusal (its sentence and exit code) as without a thread.
type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: unknown; refusal?: unknown };

/** Every method of the store but close, which the proxy answers itself: a missing one fails to compile. */
export type WorkerStoreMethods<S> = Record<Exclude<keyof S, 'close'>, true>;

export type WorkerStoreOptions<S> = {
  /** The thread's file, which calls answerCalls. */
  readonly url: URL;
  readonly workerData: unknown;
  /**
   * The methods the proxy forwards. Left out, the thread is asked for its store's method names once
   * it has opened, so a store of many concerns forwards every method without a list to keep.
   */
  readonly methods?: WorkerStoreMethods<S>;
  /** The error of a call made after close, or left unanswered when the thread stopped. */
  readonly closedMessage: string;
  /**
   * How start-up errors (opening, migrating) surface. By default the thread's 'opened' answer is
   * awaited and the thread is ended if the store did not open; given a method, its first call is
   * awaited instead, as the lead store always has.
   */
  readonly openedBy?: Exclude<keyof S, 'close'>;
};

export async function openWorkerStore<S extends { close(): Promise<void> }>(options: WorkerStoreOptions<S>): Promise<S> {
  const { closedMessage } = options;
  const worker = new Worker(options.url, { workerData: options.workerData });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextId = 0;
  let closed = false;
  let failure: unknown;

  worker.on('message', (answer: Answer) => {
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.ok) waiter?.resolve(answer.value);
    else waiter?.reject(migrationRefusalFrom(answer.refusal) ?? answer.error);
  });
  const rejectAll = (error: unknown) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('error', (error) => {
    failure = error;
    rejectAll(error);
  });
  // A call whose answer was still on its way when the thread stopped must not wait for ever: the
  // outbox loop awaits its calls, and the server's shutdown awaits the outbox loop.
  worker.on('exit', () => rejectAll(failure ?? new Error(closedMessage)));

  function call<T>(method: string, args: unknown[]): Promise<T> {
    if (closed || failure !== undefined) return Promise.reject(failure ?? new Error(closedMessage));
    return send(method, args);
  }
  function send<T>(method: string, args: unknown[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = (nextId += 1);
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, method, args } satisfies Call);
    });
  }

  // Opening (and migrating) happens in the worker; wait for it so start-up errors surface here.
  // A store that did not open ends its thread, so a caller that goes on (a test) is not held by it.
  try {
    await (options.openedBy !== undefined ? call(String(options.openedBy), []) : send('opened', []));
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  const methods = options.methods === undefined ? await call<string[]>(METHODS_CALL, []) : Object.keys(options.methods);
  const proxy = Object.fromEntries(methods.map((method) => [method, (...args: unknown[]) => call(method, args)]));
  return {
    ...proxy,
    async close() {
      if (closed) return;
      // No call is accepted once closing starts; the ones already sent are answered (the thread
      // answers in order) or rejected when it exits.
      closed = true;
      if (failure === undefined) await send('close', []).catch(() => {});
      await worker.terminate();
      rejectAll(new Error(closedMessage));
    },
  } as unknown as S;
}

/**
 * The thread's side: opens the store and answers each call in the order received. 'opened' answers
 * once the store is open; while it cannot open, every call is answered with the error that kept it.
 */
export function answerCalls(open: () => object): void {
  let store: Record<string, (...callArgs: unknown[]) => Promise<unknown>> | undefined;
  let openError: unknown;
  try {
    store = open() as Record<string, (...callArgs: unknown[]) => Promise<unknown>>;
  } catch (error) {
    openError = error;
  }

  parentPort?.on('message', ({ id, method, args }: Call) => {
    if (store === undefined) {
      parentPort?.postMessage(failedAnswer(id, openError));
      return;
    }
    if (method === 'opened') {
      parentPort?.postMessage({ id, ok: true, value: undefined } satisfies Answer);
      return;
    }
    if (method === METHODS_CALL) {
      const names = Object.keys(store).filter((name) => name !== 'close' && typeof store?.[name] === 'function');
      parentPort?.postMessage({ id, ok: true, value: names } satisfies Answer);
      return;
    }
    const run = store[method]!;
    run(...args).then(
      (value) => parentPort?.postMessage({ id, ok: true, value } satisfies Answer),
      (error: unknown) => parentPort?.postMessage(failedAnswer(id, error)),
    );
  });
}

function failedAnswer(id: number, error: unknown): Answer {
  return error instanceof MigrationRefusal ? { id, ok: false, error, refusal: error.facts } : { id, ok: false, error };
}
