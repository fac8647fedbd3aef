import { parentPort, workerData } from 'node:worker_threads';
import type { LeadStore } from './lead-store.ts';
import { openSqliteStore } from './sqlite-store.ts';

// The thread behind sqlite-worker-store.ts: opens the store and answers each call in order received.

type Call = { id: number; method: keyof LeadStore; args: unknown[] };

let store: LeadStore | undefined;
let openError: unknown;
try {
  store = openSqliteStore((workerData as { file: string }).file);
} catch (error) {
  openError = error;
}

parentPort?.on('message', ({ id, method, args }: Call) => {
  if (store === undefined) {
    parentPort?.postMessage({ id, ok: false, error: openError });
    return;
  }
  const run = store[method] as (...callArgs: unknown[]) => Promise<unknown>;
  run(...args).then(
    (value) => parentPort?.postMessage({ id, ok: true, value }),
    (error: unknown) => parentPort?.postMessage({ id, ok: false, error }),
  );
});
