/**
 * How long a client may take. Without limits a client that sends one byte every few seconds holds
 * a connection (and its memory) forever, and enough of them exhaust the server.
 */
export type ConnectionLimits = {
  /** All request headers must arrive within this. */
  readonly headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this (a lead body is at most 16 KiB). */
  readonly requestTimeoutMs: number;
  /** A connection on which nothing moves for this long is closed. */
  readonly idleTimeoutMs: number;
  /** A kept-alive connection waiting for its next request is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** How often Node checks the header and request deadlines; a late client is cut off within this. */
  readonly checkIntervalMs: number;
};

export const CONNECTION_LIMITS: ConnectionLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
});
