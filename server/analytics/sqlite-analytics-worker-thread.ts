import { parentPort, workerData } from 'node:worker_threads';
import type { AnalyticsStore } from './analytics-store.ts';
import { openSqliteAnalyticsStore } from './sqlite-analytics-store.ts';

// The thread behind sqlite-analytics-worker.ts: opens the store and answers each call in the order
// received. 'opened' answers once the store is open, or with the error that kept it from opening.

type Call = { id: number; method: keyof AnalyticsStore | 'opened'; args: unknown[] };

let store: AnalyticsStore | undefined;
let openError: unknown;
try {
  store = openSqliteAnalyticsStore((workerData as { file: string }).file);
} catch (error) {
  openError = error;
}

parentPort?.on('message', ({ id, method, args }: Call) => {
  if (store === undefined) {
    parentPort?.postMessage({ id, ok: false, error: openError });
    return;
  }
  if (method === 'opened') {
    parentPort?.postMessage({ id, ok: true, value: undefined });
    return;
  }
  const run = store[method] as (...callArgs: unknown[]) => Promise<unknown>;
  run(...args).then(
    (value) => parentPort?.postMessage({ id, ok: true, value }),
    (error: unknown) => parentPort?.postMessage({ id, ok: false, error }),
  );
});
