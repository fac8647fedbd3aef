// One sign-in for the whole team, used by the console and the studio alike: the accounts and their
// sessions are in the lead store, so removing a person or changing their password ends their access
// everywhere at once.
//
// Attempts are counted per account and address before the password is checked (so a burst sent
// together cannot slip under the limit), in the lead store (so the console, the studio and every
// server process share the limits), at most two passwords are hashed at once with eight waiting
// (the rest are told to try again and not counted), and an unknown address costs as long as a wrong
// password, so timing does not tell which addresses have accounts.
import type { AccountStore } from '../accounts/account-store.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import type { SignInLimitStore } from '../sign-in/sign-in-limit-store.ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createGate } from '../concurrency.ts';
import { MAX_EMAIL_LENGTH, normalizeEmail } from '../accounts/email.ts';
import { MAX_PASSWORD_LENGTH, verifyPassword } from '../accounts/passwords.ts';
import { can, type Action } from '../roles.ts';
import type { SessionApp } from '../sessions/session-apps.ts';
import type { NewSession, SessionRecord } from '../sessions/session-store.ts';
import { createSignInLimiter, type SignInLimiter } from './sign-in-limiter.ts';

/** A character below the space, or DEL: no address holds one. */
const isControlCharacter = (character: string) => character < ' ' || character === '\u007f';
const hasControlCharacter = (text: string) => [...text].some(isControlCharacter);
const withoutControlCharacters = (text: string) =>
  [...text].map((character) => (isControlCharacter(character) ? '\uFFFD' : character)).join('');

/** Sign-in attempts being counted in the store at once, and waiting to be; more are told to try again. */
const COUNTING_GATE = { running: 4, waiting: 16 };
/** Longer than any IPv6 address written out in full. */
const MAX_ADDRESS_LENGTH = 64;

/** Password hashes computed at once, and sign-ins waiting for one; more are told to try again. */
const SIGN_IN_GATE = { running: 2, waiting: 8 };

export type SignInOutcome =
  | { readonly kind: 'signed-in'; readonly session: NewSession; readonly csrfToken: string }
  /** Unknown address or wrong password: the answer never says which. */
  | { readonly kind: 'refused' }
  /** The password was right, but the account's role may not do what this sign-in is for: no session. */
  | { readonly kind: 'not-permitted' }
  | { readonly kind: 'limited'; readonly retryAfterSeconds: number }
  /** Too many sign-ins are being checked at once: this one was not checked and does not count. */
  | { readonly kind: 'busy' };

export type TeamSignIn = {
  signIn(email: string, password: string, address: string): Promise<SignInOutcome>;
};

export function createTeamSignIn({
  store,
  app,
  now = Date.now,
  limiter = createSignInLimiter({ store, now }),
  requires,
}: {
  store: AccountStore & SessionStore & SignInLimitStore;
  /** The app signing in: its sessions are accepted by it alone. */
  app: SessionApp;
  now?: () => number;
  /** Counts attempts in the store by default, so every app and process on it shares the limits. */
  limiter?: SignInLimiter;
  /** Only accounts whose role may do this get a session (the studio: studio:edit). */
  requires?: Action;
}): TeamSignIn {
  const hashing = createGate(SIGN_IN_GATE);
  const counting = createGate(COUNTING_GATE);
  return {
    async signIn(emailText, passwordText, address) {
      const email = normalizeEmail(emailText.slice(0, MAX_EMAIL_LENGTH));
      const password = passwordText.slice(0, MAX_PASSWORD_LENGTH);
      // Refused before it is counted: a flood of sign-ins that are never checked writes nothing to the
      // store and counts against no one. One that finds the line full only after it was counted (it
      // filled while the store answered) is withdrawn below.
      if (hashing.isFull()) return { kind: 'busy' };
      // Counting is a store transaction: a flood of sign-ins the limits refuse (which never reach the
      // hashing line) may hold only a few of the store's connections at once; the rest are told "busy".
      // Counted under a name the store can keep (PostgreSQL refuses a NUL in any text), and an address
      // of a sane length (a misconfigured proxy setting could let a client write any text there).
      const attempt = await counting.run(() => limiter.attempt(withoutControlCharacters(email), address.slice(0, MAX_ADDRESS_LENGTH)));
      if (attempt === undefined) return { kind: 'busy' };
      if (!attempt.allowed) return { kind: 'limited', retryAfterSeconds: attempt.retryAfterSeconds };
      const checked = await hashing.run(async () => {
        // No account's address holds a control character; the store is not asked for one (PostgreSQL
        // refuses a NUL outright), and the dummy hash below keeps the answer's timing the same.
        const account = hasControlCharacter(email) ? undefined : await store.findAccount(email);
        // verifyPassword hashes against a dummy when there is no account: the same cost either way.
        const valid = await verifyPassword(password, account?.passwordHash);
        return { account, valid };
      });
      if (checked === undefined) {
        await attempt.withdraw();
        return { kind: 'busy' };
      }
      if (!checked.account || !checked.valid) return { kind: 'refused' };
      // Said only after the password proved right, so the answer tells a stranger nothing about roles.
      if (requires !== undefined && !can(checked.account.role, requires)) {
        await attempt.succeeded();
        return { kind: 'not-permitted' };
      }
      const session = await store.createSession({ email, passwordHash: checked.account.passwordHash }, app, now());
      // The account was removed or its password changed while the password was being checked.
      if (!session) return { kind: 'refused' };
      await attempt.succeeded();
      return { kind: 'signed-in', session, csrfToken: csrfTokenFor(session.id) };
    },
  };
}

/**
 * The CSRF token of a session: derived from its secret id, so it needs no storage of its own, and a
 * page on another site, which can neither read the HttpOnly cookie nor our answers, cannot know it.
 */
export function csrfTokenFor(sessionId: string): string {
  return createHash('sha256').update(`csrf\0${sessionId}`, 'utf8').digest('base64url');
}

/** True when `header` is the CSRF token of the session `sessionId` (compared in constant time). */
export function checkCsrfToken(sessionId: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(csrfTokenFor(sessionId));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The session of `app` a request's cookie names, if it is live. */
export async function sessionOf(
  store: SessionStore,
  cookie: string | undefined,
  app: SessionApp,
  now: number,
): Promise<SessionRecord | undefined> {
  if (!cookie || cookie.length > 128) return undefined;
  return store.findSession(cookie, app, now);
}
