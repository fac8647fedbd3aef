import type { FastifyInstance } from 'fastify';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { SharedLimiter } from './shared-limiter.ts';

// @fastify/rate-limit's `store`, counting in the shared limiter (every server on one PostgreSQL) instead
// of this process's memory. The plugin asks `incr` for a key's count with this request and the time
// left in its window, and answers 429 with Retry-After (the seconds to the window's end) past `max`;
// its headers and answers stay as they were.

// What `child` is given at run time: the route's merged limit settings, with the route under `routeInfo`.
type RouteInfo = { readonly routeInfo?: { readonly method?: string | readonly string[]; readonly url?: string } };

/**
 * A store class for `@fastify/rate-limit` that counts under `name`: the routes of one registration
 * share the count (as they share the in-memory one), and a route with a limit of its own
 * (`config.rateLimit`) counts apart, under its method and URL.
 */
export function sharedRateLimitStore(limiter: SharedLimiter, name: string): FastifyRateLimitStoreCtor {
  class SharedRateLimitStore implements FastifyRateLimitStore {
    readonly #name: string;
    constructor(_options: FastifyRateLimitOptions, limitName: string = name) {
      this.#name = limitName;
    }
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      limiter.hit({ name: this.#name, key, max, windowMs: timeWindow }).then(
        (answer) => callback(null, { current: answer.count, ttl: answer.retryAfterMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(routeOptions: object): FastifyRateLimitStore {
      const { routeInfo } = routeOptions as RouteInfo;
      const method = [routeInfo?.method ?? ''].flat().join(',');
      return new SharedRateLimitStore({}, `${name} ${method} ${routeInfo?.url ?? ''}`);
    }
  }
  return SharedRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}

/**
 * The `store` option for a registration of `@fastify/rate-limit` named `name`: the shared store when
 * this server shares its limits (`app.sharedLimits`, PostgreSQL), else nothing, so the plugin keeps
 * counting in memory as a single server does.
 */
export function rateLimitStoreOption(app: FastifyInstance, name: string): { store?: FastifyRateLimitStoreCtor } {
  const limiter = app.hasDecorator('sharedLimits') ? app.sharedLimits : undefined;
  return limiter === undefined ? {} : { store: sharedRateLimitStore(limiter, name) };
}
