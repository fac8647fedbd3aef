// GET /session (who is signed in, or 401), POST /session (sign in) and DELETE /session (sign out).
// Signing in always starts a new session and ends the one the browser carried, so an id planted in
// a browser before sign-in (session fixation) is never the one that gets signed in.
import { z } from 'zod';
import type { SessionInfo } from '../../../console/api-types.ts';
import { ACTIONS, can } from '../../../back-office/roles.ts';
import { MAX_EMAIL_LENGTH } from '../../../back-office/accounts/email.ts';
import { MAX_PASSWORD_LENGTH } from '../../../back-office/accounts/passwords.ts';
import { csrfTokenFor } from '../../../back-office/sign-in/sign-in.ts';
import { maskEmail } from '../../../lead/mask.ts';
import type { AccountRecord } from '../../../back-office/accounts/account-store.ts';
import { ACCESS_MESSAGES } from '../access.ts';
import { apiError } from '../api-errors.ts';
import { sessionOfRequest, type ConsoleContext } from '../context.ts';
import type { ConsoleRoutes } from '../request-checks.ts';

export const SIGN_IN_MESSAGES = {
  refused: 'That e-mail address and password do not match.',
  limited: 'Too many attempts to sign in: wait a while, then try again.',
  busy: 'Too many people are signing in right now: try again in a moment.',
} as const;

/** How long a browser told "busy" waits before it tries again. */
const BUSY_RETRY_SECONDS = 2;

function sessionInfo(account: AccountRecord, csrfToken: string): SessionInfo {
  return {
    id: account.id,
    email: account.email,
    role: account.role,
    csrfToken,
    allowed: ACTIONS.filter((action) => can(account.role, action)),
  };
}

const signInBody = z.strictObject({
  email: z.string().max(MAX_EMAIL_LENGTH),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

export const sessionRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  const { store, cookie, signIn } = context;

  app.get('/session', { config: { right: 'anyone' } }, async (request, reply) => {
    const session = request.consoleSession;
    if (!session) return apiError(reply, 401, 'signed-out', ACCESS_MESSAGES.signedOut);
    return sessionInfo(session.record.account, csrfTokenFor(session.id));
  });

  app.post('/session', { config: { right: 'anyone' }, schema: { body: signInBody } }, async (request, reply) => {
    const outcome = await signIn.signIn(request.body.email, request.body.password, request.ip);
    const who = maskEmail(request.body.email.trim().toLowerCase());
    switch (outcome.kind) {
      case 'signed-in': {
        const carried = cookie.idOf(request);
        if (carried !== undefined) await store.endSession(carried, 'console');
        cookie.set(reply, outcome.session.id);
        request.log.info({ outcome: 'signed-in', email: who }, 'console sign-in');
        return sessionInfo(outcome.session.account, outcome.csrfToken);
      }
      case 'refused':
        request.log.info({ outcome: 'sign-in-refused', email: who }, 'console sign-in refused');
        return apiError(reply, 401, 'refused', SIGN_IN_MESSAGES.refused);
      case 'limited':
        request.log.warn({ outcome: 'sign-in-limited', email: who }, 'console sign-in refused: too many attempts');
        return apiError(reply, 429, 'rate-limited', SIGN_IN_MESSAGES.limited, { retryAfterSeconds: outcome.retryAfterSeconds });
      case 'busy':
        return apiError(reply, 503, 'busy', SIGN_IN_MESSAGES.busy, { retryAfterSeconds: BUSY_RETRY_SECONDS });
    }
  });

  app.delete('/session', { config: { right: 'signed-in' } }, async (request, reply) => {
    await store.endSession(sessionOfRequest(request).id, 'console');
    cookie.clear(reply);
    return reply.code(204).send();
  });
};
