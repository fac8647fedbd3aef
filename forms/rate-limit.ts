// Client-side rate limits: attempts are kept in browser storage,
// one key per form; time and storage are injected so the policy is testable.
import type { LeadFormId } from '../lead/rules.ts';

/** The part of the Web Storage API the limiter and attribution use (localStorage, sessionStorage, a fake). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface RateLimitPolicy {
  readonly maxAttempts: number;
  readonly windowMs: number;
  /** Whether a successful submission clears the attempt counter. */
  readonly resetOnSuccess: boolean;
  readonly storageKey: string;
}

export const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;

// Home 3 per 10 minutes; the counter resets on success.
export const HOME_RATE_LIMIT: RateLimitPolicy = {
  maxAttempts: 3,
  windowMs: 10 * MS_PER_MINUTE,
  resetOnSuccess: true,
  storageKey: 'lead_rate_limit_home',
};

// ROI 3 per 60 seconds; an attempt counts at check time; counter cleared on success.
export const ROI_RATE_LIMIT: RateLimitPolicy = {
  maxAttempts: 3,
  windowMs: 60 * MS_PER_SECOND,
  resetOnSuccess: true,
  storageKey: 'lead_rate_limit_roi',
};

// Contact 2 per 300,000 ms; a success resets the fields, not the counter.
export const CONTACT_RATE_LIMIT: RateLimitPolicy = {
  maxAttempts: 2,
  windowMs: 300_000,
  resetOnSuccess: false,
  storageKey: 'lead_rate_limit_contact',
};

// Landing 3 per 60,000 ms; reset on success.
export const LANDING_RATE_LIMIT: RateLimitPolicy = {
  maxAttempts: 3,
  windowMs: 60_000,
  resetOnSuccess: true,
  storageKey: 'lead_rate_limit_landing',
};

export const RATE_LIMIT_POLICIES: Readonly<Record<LeadFormId, RateLimitPolicy>> = {
  home: HOME_RATE_LIMIT,
  roi: ROI_RATE_LIMIT,
  contact: CONTACT_RATE_LIMIT,
  landing: LANDING_RATE_LIMIT,
};

export type RateLimitDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export interface RateLimiter {
  /** Records an attempt when allowed (every form counts at check time); a refused check records nothing. */
  check(): RateLimitDecision;
  /** Forgets every attempt. */
  reset(): void;
  /** Call after a successful submission: resets when the form's policy says so. */
  recordSuccess(): void;
}

export interface RateLimiterOptions {
  readonly policy: RateLimitPolicy;
  readonly storage: StorageLike;
  /** Milliseconds since the epoch, e.g. `Date.now`. */
  readonly now: () => number;
}

function isTimestampList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'number' && Number.isFinite(item));
}

// Corrupt or unreadable storage (private browsing, hand-edited values) counts as no attempts.
function readAttemptTimesMs(storage: StorageLike, key: string): number[] {
  try {
    const stored = storage.getItem(key);
    if (stored === null) return [];
    const parsed: unknown = JSON.parse(stored);
    return isTimestampList(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function writeAttemptTimesMs(storage: StorageLike, key: string, attemptTimesMs: readonly number[]): void {
  try {
    storage.setItem(key, JSON.stringify(attemptTimesMs));
  } catch {
    // A full or blocked storage must never stop a visitor from submitting.
  }
}

export function createRateLimiter({ policy, storage, now }: RateLimiterOptions): RateLimiter {
  const reset = (): void => {
    try {
      storage.removeItem(policy.storageKey);
    } catch {
      // See writeAttemptTimesMs.
    }
  };

  return {
    check() {
      const nowMs = now();
      // Attempts stamped in the future (the clock was turned back) are dropped rather than blocking forever.
      const recentTimesMs = readAttemptTimesMs(storage, policy.storageKey).filter(
        (timeMs) => timeMs <= nowMs && nowMs - timeMs < policy.windowMs,
      );
      if (recentTimesMs.length >= policy.maxAttempts) {
        // The visitor may try again once enough attempts have left the window to drop below the limit.
        const sortedTimesMs = [...recentTimesMs].sort((a, b) => a - b);
        const releasingTimeMs = sortedTimesMs[sortedTimesMs.length - policy.maxAttempts] ?? nowMs;
        const waitMs = releasingTimeMs + policy.windowMs - nowMs;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / MS_PER_SECOND)) };
      }
      writeAttemptTimesMs(storage, policy.storageKey, [...recentTimesMs, nowMs]);
      return { allowed: true };
    },
    reset,
    recordSuccess() {
      if (policy.resetOnSuccess) reset();
    },
  };
}
