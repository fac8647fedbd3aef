// /api/session: whether sign-in is needed and who is signed in (GET), signing in (POST) and out
// (DELETE). Reading the state and signing in need no session (`access: 'anyone'`); everything else
// in the studio does.
//
// Without accounts (one person on their own machine) the first visit opens the one local session.
// With accounts, attempts are counted per account and address before the password is checked, at
// most two passwords are hashed at once with eight waiting (the rest are told the studio is busy,
// and not counted), and an unknown name costs as long as a wrong password.
import { z } from 'zod';
import { verifyPassword } from '../../../server/accounts/passwords.ts';
import { createSignInLimiter } from '../../../server/accounts/sign-in-limiter.ts';
import { createGate } from '../../../server/concurrency.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';

export type SessionRoutesOptions = {
  /** Name → password hash; undefined: one local editor, no sign-in. */
  users: ReadonlyMap<string, string> | undefined;
  /** The editor's name in commits when nobody signs in. */
  localEditor: string;
};

/** Password hashes computed at once, and sign-ins waiting for one; more are told to try again. */
const SIGN_IN_GATE = { running: 2, waiting: 8 };

/** A valid hash of a password nobody has: verifying against it takes as long as against a real one. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

const signInBody = z.object({ name: z.string(), password: z.string() });
const signOutQuery = z.object({ everywhere: z.enum(['true', 'false']).optional() });

const anyone = { access: 'anyone' } as const;

export const sessionRoutes: StudioRoutes<SessionRoutesOptions> = async (app, { users, localEditor }) => {
  const sessions = app.studioSessions;
  const limiter = createSignInLimiter();
  const hashing = createGate(SIGN_IN_GATE);
  /** Without sign-in: the one session of the person at this computer. */
  let localSessionId: string | undefined;

  app.get('/session', { config: anyone }, async (request, reply) => {
    let session = request.studioSession;
    if (!session && !users) {
      // One person on their own machine: no password to ask for, and one session for all their tabs,
      // so a page elsewhere that makes the browser ask again and again cannot crowd it out.
      session = (localSessionId !== undefined ? sessions.store.get(localSessionId) : undefined) ?? sessions.store.create(localEditor);
      localSessionId = session.id;
      sessions.setCookie(reply, session);
    }
    return { signInRequired: users !== undefined, user: session?.user ?? null, ...(session ? { csrfToken: session.csrfToken } : {}) };
  });

  app.post('/session', { config: anyone, schema: { body: signInBody } }, async (request, reply) => {
    if (!users) return reply.code(400).send({ message: 'Sign-in is not configured for this studio.' });
    const name = request.body.name.trim().slice(0, 64);
    const password = request.body.password.slice(0, 1024);
    // Counted before the password is checked, so attempts sent together cannot pass the limit.
    const attempt = limiter.attempt(name, request.ip);
    if (!attempt.allowed) {
      return reply
        .code(429)
        .header('retry-after', String(attempt.retryAfterSeconds))
        .send({ message: `Too many attempts. Try again in ${Math.ceil(attempt.retryAfterSeconds / 60)} minute(s).` });
    }
    const hash = users.get(name);
    // An unknown name costs the same time as a wrong password, so names cannot be guessed by timing.
    const valid = await hashing.run(() => verifyPassword(password, hash ?? DUMMY_HASH));
    if (valid === undefined) {
      // Never checked, so never counted: a burst from strangers cannot use up a person's attempts.
      attempt.withdraw();
      return reply
        .code(503)
        .header('retry-after', '2')
        .send({ message: 'The studio is busy signing other people in. Try again in a few seconds.' });
    }
    if (!hash || !valid) {
      request.log.warn({ account: name }, 'studio sign-in failed');
      return reply.code(401).send({ message: 'That name and password do not match.' });
    }
    attempt.succeeded();
    // A new session at every sign-in: an id someone saw before signing in never becomes signed in.
    if (request.studioSession) sessions.store.destroy(request.studioSession.id);
    const session = sessions.store.create(name);
    sessions.setCookie(reply, session);
    return { user: name, csrfToken: session.csrfToken, signInRequired: true };
  });

  /** Signs out this browser, or with `?everywhere=true` every session of the same person. */
  app.delete('/session', { schema: { querystring: signOutQuery } }, async (request, reply) => {
    const session = request.studioSession!;
    const ended = request.query.everywhere === 'true' ? sessions.store.destroyUser(session.user) : (sessions.store.destroy(session.id), 1);
    sessions.clearCookie(reply);
    return { user: null, ended };
  });
};
