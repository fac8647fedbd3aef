// A beacon flood on a thread of its own: at thousands of requests a second the client's own event loop
// is busy, and a lead timed on that loop would count the client's delay as the servers'. So the flood
// runs here, and the thread that times the leads stays free.
import { parentPort, workerData } from 'node:worker_threads';
import { loopbackAddress, pace, sendBeacon, type Answer } from './load.ts';

export type FloodSettings = { readonly url: string; readonly perSecond: number; readonly maxInFlight: number };
export type FloodResult = { readonly answers: Answer[]; readonly skipped: number };

const { url, perSecond, maxInFlight } = workerData as FloodSettings;
const answers: Answer[] = [];
const flood = pace(perSecond, maxInFlight, async (n) => {
  const answer = await sendBeacon(url, loopbackAddress(6, n % 2_000));
  // Only what the figures read crosses back: the status and the time.
  answers.push({ status: answer.status, ms: answer.ms, body: '', retryAfter: undefined });
});
parentPort!.once('message', () => {
  void flood.stop().then(() => parentPort!.postMessage({ answers, skipped: flood.skipped } satisfies FloodResult));
});
