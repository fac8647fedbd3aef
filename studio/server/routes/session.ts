// /api/session: whether sign-in is needed and who is signed in (GET), signing in (POST) and out
// (DELETE). Reading the state and signing in need no session (`right: 'anyone'`); everything else
// in the studio does.
//
// Without accounts (one person on their own machine) the first visit opens the one local session.
// With the team's accounts, people sign in with their e-mail address through the team sign-in
// (back-office/sign-in/sign-in.ts: attempts limited per account and address, an unknown address costing
// as long as a wrong password, a busy gate), and only accounts whose role may edit the site get a
// session.
import { maskEmail } from '../../../lead/mask.ts';
import { z } from 'zod';
import type { Session as SessionAnswer, SignInRequest } from '../../api-types.ts';
import { csrfTokenFor, type TeamSignIn } from '../../../back-office/sign-in/sign-in.ts';
import type { LocalSession } from '../auth/local-session.ts';
import type { Session } from '../auth/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';

/** Who may use the studio: the team, signing in, or the one person at this computer. */
export type StudioPeople =
  { readonly kind: 'team'; readonly signIn: TeamSignIn } | { readonly kind: 'local'; readonly session: LocalSession };

/** `timeZone`: the team's, told to the browser so every screen words times in it. */
export type SessionRoutesOptions = { people: StudioPeople; timeZone?: string };

export const SIGN_IN_MESSAGES = {
  refused: 'That e-mail address and password do not match.',
  notPermitted: 'This account cannot edit the site: ask an admin to give it the editor role.',
  busy: 'The studio is busy signing other people in. Try again in a few seconds.',
  notConfigured: 'Sign-in is not configured for this studio.',
} as const;

const signInBody = z.object({ email: z.string(), password: z.string() }) satisfies z.ZodType<SignInRequest>;
const signOutQuery = z.object({ everywhere: z.enum(['true', 'false']).optional() });

const anyone = { right: 'anyone' } as const;

export const sessionRoutes: StudioRoutes<SessionRoutesOptions> = async (app, { people, timeZone }) => {
  const sessions = app.studioSessions;
  const signInRequired = people.kind === 'team';
  const answer = (session: Session | undefined): SessionAnswer => ({
    signInRequired,
    user: session?.user ?? null,
    ...(session ? { csrfToken: csrfTokenFor(session.id) } : {}),
    ...(timeZone ? { timeZone } : {}),
  });

  app.get('/session', { config: anyone }, async (request, reply) => {
    let session = request.studioSession;
    if (!session && people.kind === 'local') {
      session = people.session.open();
      sessions.setCookie(reply, session);
    }
    return answer(session);
  });

  app.post('/session', { config: anyone, schema: { body: signInBody } }, async (request, reply) => {
    if (people.kind !== 'team') return reply.code(400).send({ message: SIGN_IN_MESSAGES.notConfigured });
    const outcome = await people.signIn.signIn(request.body.email, request.body.password, request.ip);
    switch (outcome.kind) {
      case 'limited':
        return reply
          .code(429)
          .header('retry-after', String(outcome.retryAfterSeconds))
          .send({ message: `Too many attempts. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minute(s).` });
      case 'busy':
        // Never checked, so never counted: a burst from strangers cannot use up a person's attempts.
        return reply.code(503).header('retry-after', '2').send({ message: SIGN_IN_MESSAGES.busy });
      case 'refused':
        // Masked: logs never carry a whole e-mail address.
        request.log.warn({ account: maskEmail(request.body.email.slice(0, 254)) }, 'studio sign-in failed');
        return reply.code(401).send({ message: SIGN_IN_MESSAGES.refused });
      case 'not-permitted':
        return reply.code(403).send({ message: SIGN_IN_MESSAGES.notPermitted });
      case 'signed-in': {
        // A new session at every sign-in: an id someone saw before signing in never becomes signed in.
        if (request.studioSession) await sessions.keeper.end(request.studioSession);
        const session: Session = { id: outcome.session.id, user: outcome.session.account.email };
        sessions.setCookie(reply, session);
        return answer(session);
      }
    }
  });

  /** Signs out this browser, or with `?everywhere=true` every session of the same person. */
  app.delete('/session', { config: { right: 'signed-in' }, schema: { querystring: signOutQuery } }, async (request, reply) => {
    const session = request.studioSession!;
    let ended = 1;
    if (request.query.everywhere === 'true') ended = await sessions.keeper.endEverywhere(session);
    else await sessions.keeper.end(session);
    sessions.clearCookie(reply);
    return { user: null, ended };
  });
};
