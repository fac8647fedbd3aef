// The shared rate limits' store: requests counted per limit, key and fixed window across every server
// on one PostgreSQL database (server/rate-limits/shared-limiter.ts batches the hits and decides).

/** Hits one server counted for one limit, key and window since its last statement. */
export type WindowHits = {
  /** The limit's name ("leads", "events", …): two limits never share a count. */
  readonly name: string;
  /** Whose requests: the client address. */
  readonly key: string;
  /** The window's first millisecond (a multiple of its length since the epoch) and its end. */
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly hits: number;
};

export interface RateLimitStore {
  /** Opens the store's connections ahead of the first request, so it does not wait for them. */
  connect(): Promise<void>;
  /**
   * Adds every entry's hits to its window's count in one statement and answers each window's count
   * after the addition, in the order given. Each entry names a different window; several servers adding
   * to one window at once are serialised by the row, so no hit is lost or counted twice.
   */
  addHits(hits: readonly WindowHits[]): Promise<number[]>;
  /** Deletes at most `limit` windows that ended before `now`; answers how many it deleted. */
  deleteEndedWindows(now: number, limit: number): Promise<number>;
  close(): Promise<void>;
}
