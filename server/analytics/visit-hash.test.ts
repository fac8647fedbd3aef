// Naming a visit without cookies: the same person on one day is one visit; the next day, or another
// browser, another address or another site, a different one; the address cannot be read back; a
// day's salt is made once for every server and deleted when the next day's is first used.
import { describe, expect, it } from 'vitest';
import { createSaltKeeper, saltDay, visitHash, type SaltStore } from './visit-hash.ts';

const VISIT = { site: 'www.example.com', address: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' };

/** The salts as a shared store keeps them: the first salt offered for a day is the day's. */
function memoryStore() {
  const salts = new Map<string, string>();
  const store: SaltStore = {
    async saltForDay(day, candidate) {
      if (!salts.has(day)) salts.set(day, candidate);
      return salts.get(day)!;
    },
    async deleteSaltsBefore(day) {
      for (const kept of [...salts.keys()]) if (kept < day) salts.delete(kept);
    },
  };
  return { store, salts };
}

describe('a visit hash', () => {
  it('is the same for the same site, address and browser with one salt, and different when any of them changes', () => {
    const hash = visitHash('salt-a', VISIT);
    expect(hash).toMatch(/^[\w-]{22}$/);
    expect(visitHash('salt-a', { ...VISIT })).toBe(hash);
    expect(visitHash('salt-b', VISIT)).not.toBe(hash);
    expect(visitHash('salt-a', { ...VISIT, address: '203.0.113.8' })).not.toBe(hash);
    expect(visitHash('salt-a', { ...VISIT, userAgent: `${VISIT.userAgent} ` })).not.toBe(hash);
    expect(visitHash('salt-a', { ...VISIT, site: 'example.org' })).not.toBe(hash);
  });

  it('holds no part of the address', () => {
    expect(visitHash('salt-a', VISIT)).not.toContain('203');
  });
});

describe('the salt of the day', () => {
  it('is made once a day, shared by every server, and the day before is deleted when the new day begins', async () => {
    const { store, salts } = memoryStore();
    let time = Date.parse('2026-11-27T23:59:00Z');
    let made = 0;
    const newSalt = () => `salt-${++made}`;
    const first = createSaltKeeper({ store, now: () => time, newSalt });
    const second = createSaltKeeper({ store, now: () => time, newSalt });

    const before = await first.visit(VISIT);
    expect(await second.visit(VISIT)).toBe(before);
    expect([...salts.keys()]).toEqual(['2026-11-27']);

    time = Date.parse('2026-11-28T00:01:00Z');
    const after = await first.visit(VISIT);
    expect(after).not.toBe(before);
    expect(await second.visit(VISIT)).toBe(after);
    expect([...salts.keys()]).toEqual(['2026-11-28']);
  });

  it('asks the store again after it failed, instead of keeping the failure for the day', async () => {
    const { store } = memoryStore();
    let fail = true;
    const flaky: SaltStore = {
      saltForDay: (day, candidate) => (fail ? Promise.reject(new Error('store down')) : store.saltForDay(day, candidate)),
      deleteSaltsBefore: (day) => store.deleteSaltsBefore(day),
    };
    const keeper = createSaltKeeper({ store: flaky, now: () => Date.parse('2026-11-27T12:00:00Z') });
    await expect(keeper.salt()).rejects.toThrow('store down');
    fail = false;
    await expect(keeper.salt()).resolves.toMatch(/^[\w-]{43}$/);
  });

  it('falls on the UTC day of the moment', () => {
    expect(saltDay(Date.parse('2026-11-27T23:59:59.999Z'))).toBe('2026-11-27');
    expect(saltDay(Date.parse('2026-11-28T00:00:00Z'))).toBe('2026-11-28');
  });
});
