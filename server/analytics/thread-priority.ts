// The beacon listener's thread runs a few nice steps below the thread that takes leads. When the
// cores are busy, the system then runs the thread that takes leads (and pages) first, and the
// beacons wait a moment: they are answered all the same. (The SQLite analytics store's thread stays
// as it is: lowered too, it made no difference the bench could tell from the machine's noise, and
// a writer that falls behind would fill the bounded queue.) On Linux the nice value belongs to each thread, so this lowers
// the calling thread only; elsewhere it would lower the whole process, so it is left alone there.
import os from 'node:os';

/** How many nice steps below the server's thread the beacon listener's thread runs. */
export const ANALYTICS_THREAD_NICE_STEPS = 5;

/** Lowers the calling worker thread's priority by ANALYTICS_THREAD_NICE_STEPS (Linux only). */
export function runBelowLeads(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + ANALYTICS_THREAD_NICE_STEPS));
  } catch {
    // Lowering one's own priority is allowed to anyone; if the system refuses, the thread runs as the server's.
  }
}
