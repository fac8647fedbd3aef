import type { SharedLimiter } from './shared-limiter.ts';

// One per-address limit as a function any route or listener can call before its work, for code that
// does not go through @fastify/rate-limit: shared across servers with a limiter (PostgreSQL), else
// counted in this process's memory with the plugin's own rule (a window starts at a key's first hit,
// at most `addresses` keys remembered, the least recently used forgotten first).

export type AddressLimit = {
  hit(key: string): Promise<{ allowed: boolean; retryAfterMs: number }>;
};

export type AddressLimitOptions = {
  /** The shared limiter, or undefined to count in memory. */
  readonly limiter: SharedLimiter | undefined;
  /** The limit's name in the shared count. */
  readonly name: string;
  readonly max: number;
  readonly windowMs: number;
  /** Keys remembered at most when counting in memory. */
  readonly addresses?: number;
  readonly now?: () => number;
};

export function createAddressLimit({
  limiter,
  name,
  max,
  windowMs,
  addresses = 10_000,
  now = Date.now,
}: AddressLimitOptions): AddressLimit {
  if (limiter !== undefined) {
    return {
      async hit(key) {
        const { allowed, retryAfterMs } = await limiter.hit({ name, key, max, windowMs });
        return { allowed, retryAfterMs };
      },
    };
  }
  const counts = new Map<string, { startedAt: number; count: number }>();
  return {
    async hit(key) {
      const at = now();
      let entry = counts.get(key);
      if (entry === undefined || entry.startedAt + windowMs <= at) entry = { startedAt: at, count: 0 };
      counts.delete(key);
      if (counts.size >= addresses) counts.delete(counts.keys().next().value as string);
      counts.set(key, entry);
      entry.count += 1;
      return { allowed: entry.count <= max, retryAfterMs: entry.startedAt + windowMs - at };
    },
  };
}
