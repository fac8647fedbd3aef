// A lock must outlast any flood: the table of counts is bounded, and what makes room in it must never
// be the count that keeps a guessed account locked.
import { describe, expect, it } from 'vitest';
import { createSignInLimiter } from './sign-in-limiter.ts';

function lockOut(limiter: ReturnType<typeof createSignInLimiter>, account: string) {
  // Twenty addresses guess once each: the account is locked for every new address.
  for (let i = 0; i < 20; i++) expect(limiter.attempt(account, `198.51.100.${i}`).allowed).toBe(true);
  expect(limiter.attempt(account, '198.51.100.200').allowed).toBe(false);
}

describe('sign-in limiter under a flood', () => {
  it('keeps an account locked however many made-up names are tried from however many addresses', () => {
    const limiter = createSignInLimiter();
    lockOut(limiter, 'maria@example.com');
    // 60,000 names from 3,000 addresses (20 each, so no address is refused): well past the table's size.
    for (let i = 0; i < 60_000; i++) {
      const address = `10.${(i >> 16) & 255}.${(Math.floor(i / 20) >> 8) & 255}.${Math.floor(i / 20) & 255}`;
      limiter.attempt(`junk${i}@example.com`, address);
    }
    expect(limiter.attempt('maria@example.com', '203.0.113.7').allowed).toBe(false);
  });

  it('keeps an account and address locked through a flood of withdrawn attempts', () => {
    const limiter = createSignInLimiter();
    for (let i = 0; i < 5; i++) limiter.attempt('maria@example.com', '192.0.2.1');
    expect(limiter.attempt('maria@example.com', '192.0.2.1').allowed).toBe(false);
    for (let i = 0; i < 60_000; i++) {
      const attempt = limiter.attempt(`junk${i}@example.com`, `10.1.${(i >> 8) & 255}.${i & 255}`);
      if (attempt.allowed) attempt.withdraw();
    }
    expect(limiter.attempt('maria@example.com', '192.0.2.1').allowed).toBe(false);
  });
});
