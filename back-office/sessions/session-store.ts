import type { SessionApp } from './session-apps.ts';
import type { AccountRecord } from '../accounts/account-store.ts';

// Sessions of the back-office apps (console, studio), stored by the hash of their id.

export type SessionRecord = {
  readonly account: AccountRecord;
  readonly createdAt: number;
  readonly lastSeenAt: number;
};

/** A session just started: `id` goes to the browser and is stored nowhere (the store keeps its hash). */
export type NewSession = SessionRecord & { readonly id: string };

/** Starting, finding and ending sessions. */
export interface SessionStore {
  /**
   * Starts a session of `app` for an account whose password was just checked against `passwordHash`,
   * and records the sign-in. Undefined when the account is gone or its password changed since the
   * check (a password change ends every session, including one started with the old password meanwhile).
   */
  createSession(
    signedIn: { readonly email: string; readonly passwordHash: string },
    app: SessionApp,
    now: number,
  ): Promise<NewSession | undefined>;
  /**
   * The session of `app` with that id, or undefined when there is none (a session another app
   * started is none), it was started SESSION_LIFETIME_MS ago or more, or it has been unused for
   * SESSION_IDLE_MS (then it is ended). Records `now` as its last use at most every SESSION_TOUCH_MS.
   */
  findSession(id: string, app: SessionApp, now: number): Promise<SessionRecord | undefined>;
  /** Ends one session of `app` (signing out). False: there was none. */
  endSession(id: string, app: SessionApp): Promise<boolean>;
  /** Ends every session of the account, in every app ("sign out everywhere"). Returns how many there were. */
  endAccountSessions(email: string): Promise<number>;
}
