// Sessions: where they are kept (a SessionKeeper: the lead store for a team, the one local session
// otherwise) and the cookie that names one, read and written with @fastify/cookie. The cookie is
// the back office's session cookie set for the studio (back-office/sessions/session-cookie.ts):
// HttpOnly, SameSite=Strict, Secure when the studio is served over TLS, for every path, kept as long
// as a session can last; clearing it sends the same attributes with Max-Age=0. Who made a change is
// always the person of the session, never a default (`editorOf`).
import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ACCESS_MESSAGES } from '../access.ts';
import { findSession, type Session, type SessionKeeper } from '../auth/sessions.ts';
import { createAppSessionCookie } from '../../../back-office/sessions/session-cookie.ts';

export type SessionsPluginOptions = {
  /** Marks the cookie Secure: the studio is served over https. */
  secure: boolean;
  keeper: SessionKeeper;
};

export type StudioSessions = {
  readonly keeper: SessionKeeper;
  /** The live session the request's cookie names, if any. */
  of(request: FastifyRequest): Promise<Session | undefined>;
  /** Sets the cookie that names `session` on the answer. */
  setCookie(reply: FastifyReply, session: Session): void;
  /** Tells the browser to forget its session cookie. */
  clearCookie(reply: FastifyReply): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    studioSessions: StudioSessions;
  }
}

/** A change reached a handler with nobody signed in: it is refused rather than credited to anyone. */
export class NoSessionError extends Error {
  override name = 'NoSessionError';
}

/** Who is making a change: always the person signed in to the session, never a default. */
export function editorOf(request: FastifyRequest): string {
  const user = request.studioSession?.user;
  if (!user) throw new NoSessionError(ACCESS_MESSAGES.signIn);
  return user;
}

const sessions: FastifyPluginAsync<SessionsPluginOptions> = async (app, { secure, keeper }) => {
  // Parses the Cookie header in onRequest, before the access check reads the session.
  await app.register(fastifyCookie);
  const cookie = createAppSessionCookie({ app: 'studio', secure, find: (id) => findSession(keeper, id) });
  app.decorate('studioSessions', {
    keeper,
    of: (request) => cookie.sessionOf(request),
    setCookie(reply, session) {
      cookie.set(reply, session.id);
    },
    clearCookie(reply) {
      cookie.clear(reply);
    },
  } satisfies StudioSessions);
};

// Not encapsulated: the access check and the session routes use `app.studioSessions`.
export const sessionsPlugin = fp(sessions, { name: 'studio-sessions', fastify: '5.x' });
