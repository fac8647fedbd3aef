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

/** A value a bound of distinct values may keep in a period (a referring site on a UTC day). */
export type KeepValue = {
  /** The bound's name ("referrers", "campaigns"): two bounds never share their values. */
  readonly name: string;
  /** The period's name ("2026-11-28") and its end, after which its values are deleted. */
  readonly period: string;
  readonly periodEnd: number;
  readonly value: string;
  /** Distinct values the bound keeps in the period. */
  readonly max: number;
  /** Kept whatever the bound holds, and not counted against it (a campaign a lead carried). */
  readonly always?: boolean;
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
  /**
   * Whether each value is kept: it was already, or the bound has room for it (then it is kept from now
   * on), in the order given. Exact across servers: a bound's additions are made one server at a time.
   */
  keepValues(values: readonly KeepValue[]): Promise<boolean[]>;
  /**
   * Deletes at most `limit` windows and at most `limit` kept values whose period ended by `now`; answers
   * the larger of the two counts, so a caller deletes again while either table had more.
   */
  deleteEndedWindows(now: number, limit: number): Promise<number>;
  close(): Promise<void>;
}
