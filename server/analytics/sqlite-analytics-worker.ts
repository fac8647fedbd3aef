import { Worker } from 'node:worker_threads';
import type { AnalyticsStore } from './analytics-store.ts';

// The SQLite analytics store on its own thread, as the lead store runs (see
// server/store/sqlite-worker-store.ts): node:sqlite is synchronous, so a batch's COMMIT would stall
// the server's event loop, and with it every page request. Here the HTTP thread only posts messages;
// the worker runs the store and answers each call in the order received.

type Method = keyof AnalyticsStore;
type Call = { id: number; method: Method; args: unknown[] };
type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: unknown };

const WORKER_URL = new URL('./sqlite-analytics-worker-thread.ts', import.meta.url);
const CLOSED_MESSAGE = 'The analytics store is closed';

export async function openSqliteAnalyticsWorkerStore(file: string): Promise<AnalyticsStore> {
  const worker = new Worker(WORKER_URL, { workerData: { file } });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextId = 0;
  let closed = false;
  let failure: unknown;

  worker.on('message', (answer: Answer) => {
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.ok) waiter?.resolve(answer.value);
    else waiter?.reject(answer.error);
  });
  const rejectAll = (error: unknown) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('error', (error) => {
    failure = error;
    rejectAll(error);
  });
  // A call whose answer was still on its way when the thread stopped must not wait for ever.
  worker.on('exit', () => rejectAll(failure ?? new Error(CLOSED_MESSAGE)));

  function call<T>(method: Method, args: unknown[]): Promise<T> {
    if (closed || failure !== undefined) return Promise.reject(failure ?? new Error(CLOSED_MESSAGE));
    return send(method, args);
  }
  function send<T>(method: Method | 'opened', args: unknown[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = (nextId += 1);
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, method: method as Method, args } satisfies Call);
    });
  }

  // Opening (and migrating) happens in the worker; wait for it so start-up errors surface here.
  try {
    await send('opened', []);
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  return {
    recordEvents: (...args) => call('recordEvents', args),
    recordLeadAccepted: (...args) => call('recordLeadAccepted', args),
    recordLeadDelivered: (...args) => call('recordLeadDelivered', args),
    visitCampaign: (...args) => call('visitCampaign', args),
    dayTotals: (...args) => call('dayTotals', args),
    pageTotals: (...args) => call('pageTotals', args),
    referrerTotals: (...args) => call('referrerTotals', args),
    campaignTotals: (...args) => call('campaignTotals', args),
    entryTotals: (...args) => call('entryTotals', args),
    funnel: (...args) => call('funnel', args),
    deleteRawBefore: (...args) => call('deleteRawBefore', args),
    saltForDay: (...args) => call('saltForDay', args),
    deleteSaltsBefore: (...args) => call('deleteSaltsBefore', args),
    async close() {
      if (closed) return;
      // No call is accepted once closing starts; the ones already sent are answered (the thread
      // answers in order) or rejected when it exits.
      closed = true;
      if (failure === undefined) await send('close', []).catch(() => {});
      await worker.terminate();
      rejectAll(new Error(CLOSED_MESSAGE));
    },
  };
}
