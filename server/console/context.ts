// What every console route module works with: the store, the settings, the clock, the session
// cookie, the team sign-in, and the audit log.
import type { InboxStore } from '../store/inbox/inbox-store.ts';
import type { AuditStore } from '../store/audit/audit-store.ts';
import type { AccountStore } from '../../back-office/accounts/account-store.ts';
import type { SessionStore } from '../../back-office/sessions/session-store.ts';
import type { SignInLimitStore } from '../../back-office/sign-in/sign-in-limit-store.ts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { TeamSignIn } from '../accounts/sign-in.ts';
import { ConsoleProblem } from './api-errors.ts';
import { ACCESS_MESSAGES, type ConsoleSession } from './access.ts';
import type { SessionCookie } from './session-cookie.ts';

export type ConsoleContext = {
  readonly store: InboxStore & AuditStore & AccountStore & SessionStore & SignInLimitStore;
  readonly config: Config;
  readonly now: () => number;
  readonly cookie: SessionCookie;
  readonly signIn: TeamSignIn;
  /** Records who did what, for the audit log: `detail` never holds an erased person's address. */
  audit(request: FastifyRequest, action: string, detail: string): Promise<void>;
};

/** The session a route that declared its access runs with: always there once the access check passed. */
export function sessionOfRequest(request: FastifyRequest): ConsoleSession {
  const session = request.consoleSession;
  if (!session) throw new ConsoleProblem(401, 'signed-out', ACCESS_MESSAGES.signedOut);
  return session;
}

/** Who is acting: the signed-in account's address. */
export function actorOf(request: FastifyRequest): string {
  return sessionOfRequest(request).record.account.email;
}
