// Sign-in attempts, limited per account (against guessing one person's password from many addresses)
// and per address (against trying many accounts from one). Unknown accounts count like known ones, so
// the limiter says nothing about which names exist.
//
// An attempt counts from the moment it is allowed, before its password is checked: a burst of
// attempts sent together cannot all slip under the limit while the first ones are still being hashed.

export type SignInAttempt =
  | { allowed: true; /** The password was right: the account's failures are forgotten, and so is this attempt. */ succeeded(): void }
  | { allowed: false; retryAfterSeconds: number };

const WINDOW_MS = 15 * 60 * 1000;

export function createSignInLimiter({ now = Date.now, perAccount = 5, perAddress = 20, windowMs = WINDOW_MS } = {}) {
  const attempts = new Map<string, number[]>();
  const recent = (key: string, at: number) => (attempts.get(key) ?? []).filter((time) => at - time < windowMs);
  const sweep = (at: number) => {
    if (attempts.size < 10_000) return;
    for (const [key, times] of attempts) if (times.every((time) => at - time >= windowMs)) attempts.delete(key);
  };
  return {
    attempt(account: string, address: string): SignInAttempt {
      const at = now();
      const accountKey = `account:${account.toLowerCase()}`;
      const addressKey = `address:${address}`;
      let retryAfterMs = 0;
      for (const [key, limit] of [
        [accountKey, perAccount],
        [addressKey, perAddress],
      ] as const) {
        const times = recent(key, at);
        if (times.length >= limit) retryAfterMs = Math.max(retryAfterMs, times[times.length - limit]! + windowMs - at);
      }
      if (retryAfterMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
      sweep(at);
      attempts.set(accountKey, [...recent(accountKey, at), at]);
      attempts.set(addressKey, [...recent(addressKey, at), at]);
      return {
        allowed: true,
        succeeded() {
          attempts.delete(accountKey);
          const times = attempts.get(addressKey) ?? [];
          const index = times.indexOf(at);
          if (index !== -1) times.splice(index, 1);
        },
      };
    },
  };
}
