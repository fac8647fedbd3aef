// The session cookie of both back-office apps, one module set per app (`SESSION_COOKIES`): the
// session id, HttpOnly (no script reads it), SameSite=Strict (no page on another site makes the
// browser send it), for every path. Over https it is Secure and named with the __Host- prefix, which
// browsers accept only Secure, for this host alone and for Path=/, so no sibling subdomain can set
// or shadow it. Clearing it sends the same attributes with Max-Age=0 (not reply.clearCookie, which
// adds an Expires date). Each app looks up only its own sessions (`SessionApp`): a studio session id
// in the console's cookie is no session at all, and the other way round.
//
// - The console's cookie has no Max-Age (the browser forgets it when it closes): the store ends a
//   session after 12 idle hours and 30 days after its sign-in whatever its use, and signing out or a
//   password change ends it at once.
// - The studio's lasts as long as a team session can last from its sign-in (30 days), never longer,
//   so the cookie never outlives what it names; the session itself may end sooner.
import type { SessionRecord, SessionStore } from './session-store.ts';
import type { SessionApp } from './session-apps.ts';
import { SESSION_LIFETIME_MS } from './sessions.ts';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionOf } from '../sign-in/sign-in.ts';

/** What differs between the apps' cookies: the names, and how long the browser keeps one. */
export type SessionCookieSpec = {
  readonly names: { readonly plain: string; readonly secure: string };
  /** Max-Age in seconds; none: the browser forgets the cookie when it closes. */
  readonly maxAgeSeconds?: number;
};

export const SESSION_COOKIES: Readonly<Record<SessionApp, SessionCookieSpec>> = {
  console: { names: { plain: 'console_session', secure: '__Host-console_session' } },
  studio: { names: { plain: 'studio_session', secure: '__Host-studio_session' }, maxAgeSeconds: SESSION_LIFETIME_MS / 1000 },
};

/** The console's cookie names, plain and over https. */
export const COOKIE_NAMES = SESSION_COOKIES.console.names;

/** The name of `app`'s cookie, `secure` when served over https. */
export function sessionCookieNameOf(app: SessionApp, secure: boolean): string {
  return secure ? SESSION_COOKIES[app].names.secure : SESSION_COOKIES[app].names.plain;
}

export type AppSessionCookie<Session> = {
  readonly name: string;
  /** The id the request's cookie carries, live or not. */
  idOf(request: FastifyRequest): string | undefined;
  /** The live session the request's cookie names, if any. */
  sessionOf(request: FastifyRequest): Promise<Session | undefined>;
  set(reply: FastifyReply, sessionId: string): void;
  clear(reply: FastifyReply): void;
};

/** `app`'s session cookie; `find` looks up the live session of that app an id names. */
export function createAppSessionCookie<Session>({
  app,
  secure,
  find,
}: {
  app: SessionApp;
  /** The app is served over https. */
  secure: boolean;
  find: (id: string | undefined) => Promise<Session | undefined>;
}): AppSessionCookie<Session> {
  const name = sessionCookieNameOf(app, secure);
  const { maxAgeSeconds } = SESSION_COOKIES[app];
  const attributes: CookieSerializeOptions = { path: '/', httpOnly: true, sameSite: 'strict', secure };
  const idOf = (request: FastifyRequest) => request.cookies[name] || undefined;
  return {
    name,
    idOf,
    sessionOf: (request) => find(idOf(request)),
    set(reply, sessionId) {
      reply.setCookie(name, sessionId, maxAgeSeconds === undefined ? attributes : { ...attributes, maxAge: maxAgeSeconds });
    },
    clear(reply) {
      reply.setCookie(name, '', { ...attributes, maxAge: 0 });
    },
  };
}

/** A live console session and the id its cookie carries (the CSRF token derives from it). */
export type ConsoleSession = { readonly id: string; readonly record: SessionRecord };

export type SessionCookie = AppSessionCookie<ConsoleSession>;

/** The console's cookie: only console sessions in the store are looked up. */
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
  return createAppSessionCookie({
    app: 'console',
    secure,
    async find(id) {
      const record = await sessionOf(store, id, 'console', now());
      return id !== undefined && record !== undefined ? { id, record } : undefined;
    },
  });
}
