import type { FastifyInstance } from 'fastify';

export type ShutdownOutcome = 'clean' | 'forced';

// Keep-alive connections whose last response finished after close() began would otherwise stay
// open until their keep-alive timeout; sweeping them this often lets the close complete promptly.
const IDLE_SWEEP_MS = 100;

/**
 * Closes the app the graceful way: `app.close()` stops accepting connections, waits for in-flight
 * requests, then runs every onClose hook (stores, workers). Requests still open after `graceMs`
 * have their connections cut so the close can finish.
 */
export async function closeGracefully(app: FastifyInstance, { graceMs }: { graceMs: number }): Promise<ShutdownOutcome> {
  let outcome: ShutdownOutcome = 'clean';
  const idleSweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  const deadline = setTimeout(() => {
    outcome = 'forced';
    app.log.warn({ graceMs }, 'in-flight requests still open after the grace period; closing their connections');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(idleSweep);
    clearTimeout(deadline);
  }
  return outcome;
}
