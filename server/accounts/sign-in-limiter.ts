// Sign-in attempts, limited three ways within 15 minutes:
//   - per account and address (5): one place guessing one person's password;
//   - per address (20): one place trying many accounts;
//   - per account (20), from addresses that have not signed in to it before: many places guessing one
//     password together. An address the person signed in from before is spared this limit, so a
//     stranger who keeps guessing a name cannot lock its owner out from where they work.
// Unknown accounts count like known ones, so the limiter says nothing about which names exist. IPv6
// addresses count by their /64 network, which one home or server usually holds whole.
//
// An attempt counts from the moment it is allowed, before its password is checked: a burst of
// attempts sent together cannot all slip under the limit while the first ones are still being hashed.
//
// A limit that has been reached is never forgotten before its window ends: when the table of counts
// is full, only counts that have not reached their limit make room, so a flood of made-up names cannot
// push an account's lock out of memory. Withdrawn attempts leave nothing behind.

export type SignInAttempt =
  | {
      allowed: true;
      /** The password was right: the account's failures from this address are forgotten, and the address is remembered. */
      succeeded(): void;
      /** The password was never checked (the studio was busy): the attempt does not count. */
      withdraw(): void;
    }
  | { allowed: false; retryAfterSeconds: number };

const WINDOW_MS = 15 * 60 * 1000;
/** How long an address that signed in to an account stays spared its account-wide limit. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Attempts are kept for about this many keys; past it, the least recently used key that has not
 * reached its limit goes first. Keys at their limit stay until their window ends: there can only be
 * as many as the sign-ins actually checked in one window, which the hashing gate bounds.
 */
const MAX_KEYS = 50_000;
/** How many of the oldest keys one attempt looks through for one to drop (so a full table stays cheap). */
const EVICTION_SCAN = 64;

export function createSignInLimiter({
  now = Date.now,
  perAccountAndAddress = 5,
  perAddress = 20,
  perAccount = 20,
  windowMs = WINDOW_MS,
} = {}) {
  const attempts = new Map<string, number[]>();
  const known = new Map<string, number>();
  let lastSweep = 0;
  const recent = (key: string, at: number) => (attempts.get(key) ?? []).filter((time) => at - time < windowMs);
  /** Drops what has expired, at most once a minute, so a full map costs nothing per attempt. */
  const sweep = (at: number) => {
    if (at - lastSweep < 60_000) return;
    lastSweep = at;
    for (const [key, times] of attempts) if (times.every((time) => at - time >= windowMs)) attempts.delete(key);
    for (const [key, since] of known) if (at - since >= KNOWN_ADDRESS_MS) known.delete(key);
  };
  const limitOf = (key: string) => (key.startsWith('pair:') ? perAccountAndAddress : key.startsWith('address:') ? perAddress : perAccount);
  /** Drops the least recently used key that is still under its limit, if one is near the front. */
  const evictOne = (at: number) => {
    let scanned = 0;
    for (const key of attempts.keys()) {
      if (scanned++ >= EVICTION_SCAN) return;
      if (recent(key, at).length < limitOf(key)) {
        attempts.delete(key);
        return;
      }
    }
  };
  const record = (key: string, at: number) => {
    const times = [...recent(key, at), at];
    // Set again at the end, so the first key is always the one least recently used.
    attempts.delete(key);
    attempts.set(key, times);
    if (attempts.size > MAX_KEYS) evictOne(at);
  };
  const forget = (key: string, at: number) => {
    const times = attempts.get(key);
    const index = times?.indexOf(at) ?? -1;
    if (index !== -1) times!.splice(index, 1);
    if (times?.length === 0) attempts.delete(key);
  };
  return {
    attempt(account: string, address: string): SignInAttempt {
      const at = now();
      sweep(at);
      const name = account.toLowerCase();
      const where = addressKey(address);
      const pairKey = `pair:${name}|${where}`;
      const accountKey = `account:${name}`;
      const placeKey = `address:${where}`;
      const isKnown = at - (known.get(pairKey) ?? -Infinity) < KNOWN_ADDRESS_MS;
      const limits: [string, number][] = [
        [pairKey, perAccountAndAddress],
        [placeKey, perAddress],
        ...(isKnown ? [] : [[accountKey, perAccount] as [string, number]]),
      ];
      let retryAfterMs = 0;
      for (const [key, limit] of limits) {
        const times = recent(key, at);
        if (times.length >= limit) retryAfterMs = Math.max(retryAfterMs, times[times.length - limit]! + windowMs - at);
      }
      if (retryAfterMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
      const counted = [pairKey, placeKey, accountKey];
      for (const key of counted) record(key, at);
      return {
        allowed: true,
        succeeded() {
          attempts.delete(pairKey);
          forget(placeKey, at);
          forget(accountKey, at);
          known.set(pairKey, now());
        },
        withdraw() {
          for (const key of counted) forget(key, at);
        },
      };
    },
  };
}

/** The address as the limits count it: an IPv6 address by its /64 network, anything else as it is. */
export function addressKey(address: string): string {
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!plain.includes(':')) return plain;
  const [head = '', tail = ''] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group || '0', 16) || 0).toString(16))
    .join(':')}::/64`;
}
