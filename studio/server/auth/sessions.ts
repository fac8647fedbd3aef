// Studio sessions: a random id in an HttpOnly, SameSite=Strict cookie (set and read by
// plugins/sessions.ts), and a CSRF token the browser app sends back in X-CSRF-Token with every
// change. Kept in memory: a restart signs everyone out.
// At most `maxSessions` are kept (the least recently used goes first), so requests that open
// sessions cannot grow the studio's memory without end.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'studio_session';

/** The longest a session lasts, however active: a week. The cookie lasts as long. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type Session = { id: string; csrfToken: string; user: string; createdAt: number; lastSeenAt: number };

export function createSessionStore({
  now = Date.now,
  idleMs = 8 * 60 * 60 * 1000,
  absoluteMs = SESSION_LIFETIME_MS,
  maxSessions = 1_000,
} = {}) {
  const sessions = new Map<string, Session>();
  const expired = (session: Session, at: number) => at - session.lastSeenAt > idleMs || at - session.createdAt > absoluteMs;
  return {
    create(user: string): Session {
      const at = now();
      for (const [id, session] of sessions) if (expired(session, at)) sessions.delete(id);
      const session: Session = {
        id: randomBytes(32).toString('base64url'),
        csrfToken: randomBytes(32).toString('base64url'),
        user,
        createdAt: at,
        lastSeenAt: at,
      };
      sessions.set(session.id, session);
      // A Map keeps insertion order and `get` moves a used session to the end: the first is the least recently used.
      while (sessions.size > maxSessions) sessions.delete(sessions.keys().next().value!);
      return session;
    },
    get(id: string): Session | undefined {
      const session = sessions.get(id);
      if (!session) return undefined;
      const at = now();
      if (expired(session, at)) {
        sessions.delete(id);
        return undefined;
      }
      session.lastSeenAt = at;
      sessions.delete(id);
      sessions.set(id, session);
      return session;
    },
    destroy(id: string): void {
      sessions.delete(id);
    },
    /** Ends every session of `user` ("sign out everywhere"); returns how many there were. */
    destroyUser(user: string): number {
      let ended = 0;
      for (const [id, session] of sessions) {
        if (session.user !== user) continue;
        sessions.delete(id);
        ended += 1;
      }
      return ended;
    },
    get size(): number {
      return sessions.size;
    },
  };
}

export function checkCsrf(session: Session, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Defence in depth beside the token: a change whose Origin names another host, or that the browser
 * marks as cross-site, is refused.
 */
export function checkSameOrigin(headers: {
  origin?: string | undefined;
  'sec-fetch-site'?: string | string[] | undefined;
  host?: string | undefined;
}): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return false;
  if (!headers.origin) return true;
  try {
    return new URL(headers.origin).host === headers.host;
  } catch {
    return false;
  }
}
