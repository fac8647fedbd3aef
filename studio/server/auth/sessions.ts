// Studio sessions: a secret id in an HttpOnly, SameSite=Strict cookie (the back office's session
// cookie, back-office/sessions/session-cookie.ts, set and read by plugins/sessions.ts), and a CSRF token derived from it (csrfTokenFor) that the browser app sends
// back in X-CSRF-Token with every change. Who keeps the sessions depends on how the studio runs:
// the team's sessions live in the lead store (team-sessions.ts), so removing an account or changing
// its password ends its studio sessions at once; one person on their own computer has the one local
// session (local-session.ts).

import type { Role } from '../../../back-office/roles.ts';

/** A cookie longer than any session id is not looked up. */
const MAX_SESSION_ID_LENGTH = 128;

/**
 * A live session: its secret id and who edits under it (the account's e-mail address, or the local
 * editor), with the account's role as it stands now (none for the local editor, who has no account).
 */
export type Session = { readonly id: string; readonly user: string; readonly role?: Role };

/** Where the studio's sessions are kept. */
export type SessionKeeper = {
  /** The live session with that id, if any. */
  find(id: string): Promise<Session | undefined>;
  /** Ends one session (signing out). */
  end(session: Session): Promise<void>;
  /** Ends every session of the session's person ("sign out everywhere"); answers how many there were. */
  endEverywhere(session: Session): Promise<number>;
};

/** The session a cookie names, if it is live. */
export async function findSession(keeper: SessionKeeper, cookie: string | undefined): Promise<Session | undefined> {
  if (!cookie || cookie.length > MAX_SESSION_ID_LENGTH) return undefined;
  return keeper.find(cookie);
}

/**
 * Defence in depth beside the token: a change whose Origin names another host, or that the browser
 * says did not come from this very origin (Sec-Fetch-Site other than same-origin: a sibling
 * subdomain is same-site, yet no page of the studio's), is refused, as the console refuses it.
 */
export function checkSameOrigin(headers: {
  origin?: string | undefined;
  'sec-fetch-site'?: string | string[] | undefined;
  host?: string | undefined;
}): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  if (!headers.origin) return true;
  try {
    return new URL(headers.origin).host === headers.host;
  } catch {
    return false;
  }
}
