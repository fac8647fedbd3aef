// The console's session cookie: the store's session id, HttpOnly (no script reads it), SameSite=Strict
// (no page on another site makes the browser send it), for every path. Over https it is Secure and
// named with the __Host- prefix, which browsers accept only Secure, for this host alone and for
// Path=/, so no sibling subdomain can set or shadow it. Only console sessions are looked up: a studio
// session id in this cookie is no session at all. It has no Max-Age (the browser forgets it when it
// closes): the store ends a session after 12 idle hours and 30 days after its sign-in whatever its
// use, and signing out or a password change ends it at once.
import type { SessionRecord, SessionStore } from './session-store.ts';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionOf } from '../sign-in/sign-in.ts';

/** A live console session and the id its cookie carries (the CSRF token derives from it). */
export type ConsoleSession = { readonly id: string; readonly record: SessionRecord };

export const COOKIE_NAMES = { plain: 'console_session', secure: '__Host-console_session' } as const;

export type SessionCookie = {
  readonly name: string;
  /** The id the request's cookie carries, live or not. */
  idOf(request: FastifyRequest): string | undefined;
  /** The live session the request's cookie names, if any. */
  sessionOf(request: FastifyRequest): Promise<ConsoleSession | undefined>;
  set(reply: FastifyReply, sessionId: string): void;
  clear(reply: FastifyReply): void;
};

export function createSessionCookie({
  store,
  secure,
  now,
}: {
  store: SessionStore;
  /** The site is served over https (SITE_URL). */
  secure: boolean;
  now: () => number;
}): SessionCookie {
  const name = secure ? COOKIE_NAMES.secure : COOKIE_NAMES.plain;
  const attributes: CookieSerializeOptions = { path: '/', httpOnly: true, sameSite: 'strict', secure };
  const idOf = (request: FastifyRequest) => request.cookies[name] || undefined;
  return {
    name,
    idOf,
    async sessionOf(request) {
      const id = idOf(request);
      const record = await sessionOf(store, id, 'console', now());
      return id !== undefined && record !== undefined ? { id, record } : undefined;
    },
    set(reply, sessionId) {
      reply.setCookie(name, sessionId, attributes);
    },
    clear(reply) {
      // Not reply.clearCookie: it adds an Expires date; the attributes stay exactly as they were set.
      reply.setCookie(name, '', { ...attributes, maxAge: 0 });
    },
  };
}
