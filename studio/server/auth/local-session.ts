// The one session of a studio without accounts: one person on their own computer (loopback only).
// No password to ask for, and one session for all their tabs, so a page elsewhere that makes the
// browser ask again and again cannot crowd it out. Kept in memory: a restart opens a new one.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Session, SessionKeeper } from './sessions.ts';

export type LocalSession = SessionKeeper & {
  /** The local session, opened on first use (and again after signing out). */
  open(): Session;
};

export function createLocalSession(editor: string): LocalSession {
  let current: Session | undefined;
  const matches = (id: string) => {
    if (!current) return false;
    const [given, expected] = [Buffer.from(id), Buffer.from(current.id)];
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return {
    open() {
      current ??= { id: randomBytes(32).toString('base64url'), user: editor };
      return current;
    },
    async find(id) {
      return matches(id) ? current : undefined;
    },
    async end(session) {
      if (matches(session.id)) current = undefined;
    },
    async endEverywhere(session) {
      if (!matches(session.id)) return 0;
      current = undefined;
      return 1;
    },
  };
}
