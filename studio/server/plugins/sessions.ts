// Sessions: where they are kept (a SessionKeeper: the lead store for a team, the one local session
// otherwise) and the cookie that names one, read and written with @fastify/cookie. The cookie is
// HttpOnly (no script reads it), SameSite=Strict (no page on another site makes the browser send
// it), Secure when the studio is served over TLS, for every path, and lasts as long as the browser
// should keep it; clearing it sends the same attributes with Max-Age=0. Who made a change is always
// the person of the session, never a default (`editorOf`).
import fastifyCookie from '@fastify/cookie';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ACCESS_MESSAGES } from '../access.ts';
import { COOKIE_MAX_AGE_MS, findSession, sessionCookieName, type Session, type SessionKeeper } from '../auth/sessions.ts';

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
  const attributes: CookieSerializeOptions = { path: '/', httpOnly: true, sameSite: 'strict', secure };
  const name = sessionCookieName(secure);
  app.decorate('studioSessions', {
    keeper,
    of: (request) => findSession(keeper, request.cookies[name]),
    setCookie(reply, session) {
      reply.setCookie(name, session.id, { ...attributes, maxAge: COOKIE_MAX_AGE_MS / 1000 });
    },
    clearCookie(reply) {
      // Not reply.clearCookie: it adds an Expires date, and the cookie's attributes are kept as they are.
      reply.setCookie(name, '', { ...attributes, maxAge: 0 });
    },
  } satisfies StudioSessions);
};

// Not encapsulated: the access check and the session routes use `app.studioSessions`.
export const sessionsPlugin = fp(sessions, { name: 'studio-sessions', fastify: '5.x' });
