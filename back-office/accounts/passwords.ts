// Password hashes for every account (the back office's and the studio's): scrypt, self-describing
// (`scrypt$N$r$p$salt$key`, base64), so the cost can be raised later without breaking existing
// hashes. Only hashes are ever stored or configured.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
export const MIN_PASSWORD_LENGTH = 12;
/** Sign-in reads at most this much of a password, so a longer one could never be typed back in. */
export const MAX_PASSWORD_LENGTH = 1_024;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Memory scrypt needs for these parameters, with room (Node's default limit is too small for N = 2^15). */
function maxmem(cost: number, blockSize: number): number {
  return 128 * cost * blockSize * 2;
}

export async function hashPassword(password: string): Promise<string> {
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_BYTES, { N: COST, r: BLOCK_SIZE, p: PARALLELISM, maxmem: maxmem(COST, BLOCK_SIZE) });
  return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
}

// A well-formed hash with today's parameters whose password nobody knows (its key is all zeros, which
// no password hashes to in practice). Checking against it costs what checking a real hash costs.
const DUMMY_HASH = [
  'scrypt',
  COST,
  BLOCK_SIZE,
  PARALLELISM,
  Buffer.alloc(SALT_BYTES).toString('base64'),
  Buffer.alloc(KEY_BYTES).toString('base64'),
].join('$');

/**
 * True when `password` matches `hash`; a malformed hash never matches (and never throws). Without a
 * hash (no account has that name) it still hashes the password, against a dummy, and answers false:
 * a sign-in for an unknown address takes as long as one with a wrong password, so timing does not
 * tell which addresses have accounts.
 */
export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  if (hash === undefined) {
    await checkPassword(password, DUMMY_HASH);
    return false;
  }
  return checkPassword(password, hash);
}

async function checkPassword(password: string, hash: string): Promise<boolean> {
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [cost, blockSize, parallelism] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  const sane =
    [cost, blockSize, parallelism].every(Number.isInteger) && cost >= 2 ** 10 && cost <= 2 ** 20 && blockSize <= 32 && parallelism <= 4;
  if (!sane || salt.length < 8 || expected.length < 16) return false;
  try {
    const key = await scrypt(password, salt, expected.length, { N: cost, r: blockSize, p: parallelism, maxmem: maxmem(cost, blockSize) });
    return timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}
