import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

const PASSWORD = 'correct horse battery staple';

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one, a malformed hash and a short password', async () => {
    const hash = await hashPassword(PASSWORD);
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, hash)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, hash)).toBe(false);
    expect(await verifyPassword(PASSWORD, 'not a hash')).toBe(false);
    await expect(hashPassword('short')).rejects.toThrow('at least 12 characters');
  });

  it('refuses every password when there is no hash (an unknown account), whatever the password', async () => {
    for (const password of [PASSWORD, '', 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$']) {
      expect(await verifyPassword(password, undefined)).toBe(false);
    }
  });

  it('takes as long without a hash as with a wrong password, so timing does not reveal who has an account', async () => {
    const hash = await hashPassword(PASSWORD);
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, and the fastest of each kept: a busy machine slows some runs, never speeds one up.
    for (let round = 0; round < 3; round += 1) {
      known.push(await timed(() => verifyPassword('a wrong password!', hash)));
      unknown.push(await timed(() => verifyPassword('a wrong password!', undefined)));
    }
    // Skipping the hash would answer in well under a millisecond; one scrypt run takes tens of them.
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) / 3);
  });
});
