// Sign-in attempts, limited per account (against guessing one person's password from many addresses)
// and per address (against trying many accounts from one). Unknown accounts count like known ones, so
// the limiter says nothing about which names exist.

export type SignInCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const WINDOW_MS = 15 * 60 * 1000;

export function createSignInLimiter({ now = Date.now, perAccount = 5, perAddress = 20, windowMs = WINDOW_MS } = {}) {
  const failures = new Map<string, number[]>();
  const recent = (key: string, at: number) => (failures.get(key) ?? []).filter((time) => at - time < windowMs);
  const sweep = (at: number) => {
    if (failures.size < 10_000) return;
    for (const [key, times] of failures) if (times.every((time) => at - time >= windowMs)) failures.delete(key);
  };
  const keys = (account: string, address: string) => [`account:${account.toLowerCase()}`, `address:${address}`] as const;
  return {
    check(account: string, address: string): SignInCheck {
      const at = now();
      const [accountKey, addressKey] = keys(account, address);
      const limits: [string, number][] = [
        [accountKey, perAccount],
        [addressKey, perAddress],
      ];
      let retryAfterMs = 0;
      for (const [key, limit] of limits) {
        const times = recent(key, at);
        if (times.length >= limit) retryAfterMs = Math.max(retryAfterMs, times[times.length - limit]! + windowMs - at);
      }
      return retryAfterMs > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) } : { allowed: true };
    },
    recordFailure(account: string, address: string): void {
      const at = now();
      sweep(at);
      for (const key of keys(account, address)) failures.set(key, [...recent(key, at), at]);
    },
    recordSuccess(account: string, _address: string): void {
      failures.delete(keys(account, '')[0]);
    },
  };
}
