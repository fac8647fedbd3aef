// Counting visitors without cookies: a visit is named by a hash of a salt that changes every day, the
// site, the visitor's address and browser string. The same person on the same day gets the same
// name; tomorrow a different one, so no visit can be followed from one day to the next. The address
// is used for the hash and never kept, and a day's salt is deleted once the next day has begun (at
// most 48 hours after it was made), after which nobody, not even with the database, can work out
// which address a hash came from.
import { createHmac, randomBytes } from 'node:crypto';

/** Where the salts live: in the store every server of the site shares, so all of them name a visit alike. */
export type SaltStore = {
  /** The salt of `day`: the one already kept, or `candidate`, kept now. Two servers asking at once get the same one. */
  saltForDay(day: string, candidate: string): Promise<string>;
  /** Deletes the salts of every day before `day`. */
  deleteSaltsBefore(day: string): Promise<void>;
};

/** "2026-11-27": the day (UTC) a moment falls on, as salts are kept. */
export function saltDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The name of a visit: 22 characters of an HMAC-SHA-256 over the site, the address and the browser string. */
export function visitHash(salt: string, visit: { site: string; address: string; userAgent: string }): string {
  return createHmac('sha256', salt).update(`${visit.site}\n${visit.address}\n${visit.userAgent}`).digest('base64url').slice(0, 22);
}

/**
 * The salt of the day, asked of the store once a day per server. Each new day also deletes the salts
 * before it: yesterday's goes as soon as a visit is counted today.
 */
export function createSaltKeeper({
  store,
  now = Date.now,
  newSalt = () => randomBytes(32).toString('base64url'),
}: {
  store: SaltStore;
  now?: () => number;
  newSalt?: () => string;
}) {
  let current: { day: string; salt: Promise<string> } | undefined;

  function salt(): Promise<string> {
    const day = saltDay(now());
    if (current?.day !== day) {
      const asked = store.saltForDay(day, newSalt()).then(async (found) => {
        await store.deleteSaltsBefore(day);
        return found;
      });
      current = { day, salt: asked };
      // A store that failed is asked again by the next visit, not remembered as failing.
      asked.catch(() => {
        if (current?.salt === asked) current = undefined;
      });
    }
    return current.salt;
  }

  return {
    salt,
    /** The name of this visit today. */
    async visit(visit: { site: string; address: string; userAgent: string }): Promise<string> {
      return visitHash(await salt(), visit);
    },
  };
}
