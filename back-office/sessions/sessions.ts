import { createHash, randomBytes } from 'node:crypto';

// Back-office sessions. The id a browser holds is 32 random bytes; the store keeps only its SHA-256,
// so someone who reads the database (a backup, a leaked dump) cannot use any session in it. An id
// this random needs no salt or slow hash: there is nothing to guess.

/**
 * A session is over this long after its sign-in, however much it is used: 30 days. The idle timeout
 * alone would let a session in daily use (or one an attacker keeps busy) last for ever.
 */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** A session unused for this long is over: 12 hours, one working day and a little more. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/**
 * Looking a session up records the time it was seen at most this often, so most requests only read.
 * The price: a session may end up to this much sooner than 12 hours after its real last use.
 */
export const SESSION_TOUCH_MS = 60 * 1000;

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

/**
 * What a lookup at `now` means for a session started at `createdAt` and last seen at `lastSeenAt`:
 * over (its lifetime since sign-in has run out, or it was unused for the idle time), due for a new
 * last-seen time, or fine as it is. A clock behind the one that last touched the session (another
 * server) counts as no time passed.
 */
export function judgeSession(createdAt: number, lastSeenAt: number, now: number): 'over' | 'touch' | 'fresh' {
  if (now - createdAt >= SESSION_LIFETIME_MS) return 'over';
  const idle = now - lastSeenAt;
  if (idle >= SESSION_IDLE_MS) return 'over';
  return idle >= SESSION_TOUCH_MS ? 'touch' : 'fresh';
}
