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
// The attempts are kept in the lead store, so the console, the studio and every server process on one
// database count together: a guesser gains nothing by spreading attempts over them. The store counts
// and records an attempt in one transaction; this file alone decides which keys and limits apply.
// Withdrawn attempts leave nothing behind.
import type { SignInLimitStore } from '../sign-in/sign-in-limit-store.ts';
import { randomUUID } from 'node:crypto';

export type SignInAttempt =
  | {
      allowed: true;
      /** The password was right: the account's failures from this address are forgotten, and the address is remembered. */
      succeeded(): Promise<void>;
      /** The password was never checked (the app was busy): the attempt does not count. */
      withdraw(): Promise<void>;
    }
  | { allowed: false; retryAfterSeconds: number };

export type SignInLimiter = {
  attempt(account: string, address: string): Promise<SignInAttempt>;
};

const WINDOW_MS = 15 * 60 * 1000;
/** How long an address that signed in to an account stays spared its account-wide limit. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

export function createSignInLimiter({
  store,
  now = Date.now,
  perAccountAndAddress = 5,
  perAddress = 20,
  perAccount = 20,
  windowMs = WINDOW_MS,
}: {
  store: SignInLimitStore;
  now?: () => number;
  perAccountAndAddress?: number;
  perAddress?: number;
  perAccount?: number;
  windowMs?: number;
}): SignInLimiter {
  return {
    async attempt(account, address) {
      const at = now();
      const name = account.toLowerCase();
      const where = addressKey(address);
      const pairKey = `pair:${name}|${where}`;
      const id = randomUUID();
      const result = await store.countSignInAttempt({
        id,
        at,
        windowMs,
        knownForMs: KNOWN_ADDRESS_MS,
        keys: [
          { key: pairKey, limit: perAccountAndAddress },
          { key: `address:${where}`, limit: perAddress },
          { key: `account:${name}`, limit: perAccount, unlessKnown: pairKey },
        ],
      });
      if (!result.allowed) return { allowed: false, retryAfterSeconds: Math.ceil(result.retryAfterMs / 1000) };
      return {
        allowed: true,
        succeeded: () => store.signInSucceeded(id, pairKey, now()),
        withdraw: () => store.withdrawSignInAttempt(id),
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
