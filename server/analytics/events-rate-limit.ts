// The beacon route's limit per address, as `@fastify/rate-limit` options: the one place that says
// how beacons are limited, read by the route wherever it is registered (on the server's port, and
// in the beacon listener's thread on EVENTS_PORT), so both count alike. A shared count across
// servers plugs in here, as the options' `store`.
import type { RateLimitPluginOptions } from '@fastify/rate-limit';

export type EventsRateLimit = { readonly max: number; readonly windowMs: number; readonly addresses: number };

export const EVENTS_RATE_LIMIT: EventsRateLimit = {
  /** Events one address may send per window: a person reading pages sends a handful. */
  max: 60,
  windowMs: 10_000,
  /** Addresses remembered at most; the least recently seen is forgotten first. */
  addresses: 10_000,
};

/** The rate limit's options for the beacon route, the defaults above overridden by `tuning` (tests). */
export function eventsRateLimitOptions(tuning: Partial<EventsRateLimit> = {}): RateLimitPluginOptions {
  const limit = { ...EVENTS_RATE_LIMIT, ...tuning };
  return {
    max: limit.max,
    timeWindow: limit.windowMs,
    cache: limit.addresses,
    // Checked on arrival, before the body is read: a refusal never pays for parsing.
    hook: 'onRequest',
  };
}
